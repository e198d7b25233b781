package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.BitRate;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.GateStatus;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.OuterHeaderCreation;
import org.hupf.core.pfcp.message.SdfFilter;
import org.hupf.core.pfcp.message.UeIpAddress;
import org.hupf.core.pfcp.message.Volume;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * The field-codec table: one {@link IeField} per leaf IE type hupf reads or writes (TS 29.244 §8.2). Adding
 * an IE is one line here; the structured values' layouts are the private readers and writers below.
 */
public final class IeFields {

    public static final IeField<Integer> CAUSE = uint8(IeType.CAUSE);
    public static final IeField<Integer> SOURCE_INTERFACE = iface(IeType.SOURCE_INTERFACE);
    public static final IeField<FTeid> F_TEID = IeField.variable(IeType.F_TEID, 1, IeFields::readFTeid,
                                                                 IeFields::writeFTeid);
    public static final IeField<String> NETWORK_INSTANCE = IeField.variable(IeType.NETWORK_INSTANCE, 0,
            IeFields::readNetworkInstance, (v, w) -> w.bytes(labels(v)));
    public static final IeField<SdfFilter> SDF_FILTER = IeField.variable(IeType.SDF_FILTER, 2,
            IeFields::readSdfFilter, IeFields::writeSdfFilter);
    public static final IeField<GateStatus> GATE_STATUS = IeField.fixed(IeType.GATE_STATUS, 1,
            r -> readGateStatus(r.u8()), (v, w) -> w.u8((v.uplinkClosed ? 1 << 2 : 0) | (v.downlinkClosed ? 1 : 0)));
    public static final IeField<BitRate> MBR = bitRate(IeType.MBR);
    public static final IeField<BitRate> GBR = bitRate(IeType.GBR);
    public static final IeField<Long> PRECEDENCE = uint32(IeType.PRECEDENCE);
    public static final IeField<Volume> VOLUME_THRESHOLD = volume(IeType.VOLUME_THRESHOLD);
    public static final IeField<Integer> REPORTING_TRIGGERS = flags(IeType.REPORTING_TRIGGERS, 2);
    public static final IeField<Integer> REPORT_TYPE = flags(IeType.REPORT_TYPE, 1);
    public static final IeField<Integer> OFFENDING_IE = IeField.fixed(IeType.OFFENDING_IE, 2, IeReader::u16,
                                                                      (v, w) -> w.u16(v));
    public static final IeField<Integer> DESTINATION_INTERFACE = iface(IeType.DESTINATION_INTERFACE);
    public static final IeField<Integer> UP_FUNCTION_FEATURES = flags(IeType.UP_FUNCTION_FEATURES, 2);
    public static final IeField<Integer> APPLY_ACTION = flags(IeType.APPLY_ACTION, 1);
    public static final IeField<Integer> PDR_ID = IeField.fixed(IeType.PDR_ID, 2, IeReader::u16, (v, w) -> w.u16(v));
    public static final IeField<FSeid> F_SEID = IeField.variable(IeType.F_SEID, 9, IeFields::readFSeid,
                                                                 IeFields::writeFSeid);
    public static final IeField<NodeId> NODE_ID = IeField.variable(IeType.NODE_ID, 1, IeFields::readNodeId,
                                                                   IeFields::writeNodeId);
    public static final IeField<Integer> MEASUREMENT_METHOD = flags(IeType.MEASUREMENT_METHOD, 1);
    public static final IeField<Integer> USAGE_REPORT_TRIGGER = flags(IeType.USAGE_REPORT_TRIGGER, 2);
    public static final IeField<Long> MEASUREMENT_PERIOD = uint32(IeType.MEASUREMENT_PERIOD);
    public static final IeField<Volume> VOLUME_MEASUREMENT = volume(IeType.VOLUME_MEASUREMENT);
    public static final IeField<Long> DURATION_MEASUREMENT = uint32(IeType.DURATION_MEASUREMENT);
    public static final IeField<Long> START_TIME = uint32(IeType.START_TIME);
    public static final IeField<Long> END_TIME = uint32(IeType.END_TIME);
    public static final IeField<Long> URR_ID = uint32(IeType.URR_ID);
    public static final IeField<OuterHeaderCreation> OUTER_HEADER_CREATION = IeField.variable(
            IeType.OUTER_HEADER_CREATION, 2, IeFields::readOuterHeaderCreation, IeFields::writeOuterHeaderCreation);
    public static final IeField<Integer> BAR_ID = uint8(IeType.BAR_ID);
    public static final IeField<Integer> OUTER_HEADER_REMOVAL = IeField.variable(IeType.OUTER_HEADER_REMOVAL, 1,
            IeReader::u8, (v, w) -> w.u8(v));
    public static final IeField<UeIpAddress> UE_IP_ADDRESS = IeField.variable(IeType.UE_IP_ADDRESS, 1,
            IeFields::readUeIpAddress, IeFields::writeUeIpAddress);
    public static final IeField<Long> RECOVERY_TIME_STAMP = uint32(IeType.RECOVERY_TIME_STAMP);
    public static final IeField<Long> UR_SEQN = uint32(IeType.UR_SEQN);
    public static final IeField<Long> FAR_ID = uint32(IeType.FAR_ID);
    public static final IeField<Long> QER_ID = uint32(IeType.QER_ID);
    public static final IeField<FailedRuleId> FAILED_RULE_ID = IeField.variable(IeType.FAILED_RULE_ID, 2,
            IeFields::readFailedRuleId, IeFields::writeFailedRuleId);
    public static final IeField<Integer> QFI = IeField.fixed(IeType.QFI, 1, r -> r.u8() & 0x3f, (v, w) -> w.u8(v));

    private IeFields() {
    }

    private static IeField<Integer> uint8(int type) {
        return IeField.fixed(type, 1, IeReader::u8, (v, w) -> w.u8(v));
    }

    private static IeField<Long> uint32(int type) {
        return IeField.fixed(type, 4, IeReader::u32, (v, w) -> w.u32(v));
    }

    /** Source or Destination Interface: the interface value is the low 4 bits. */
    private static IeField<Integer> iface(int type) {
        return IeField.variable(type, 1, r -> r.u8() & 0x0f, (v, w) -> w.u8(v));
    }

    /**
     * A bit set of {@code octets} octets (more are read if present, up to 4), first octet in the low byte:
     * Apply Action, Reporting Triggers, Usage Report Trigger, Measurement Method, UP Function Features.
     */
    private static IeField<Integer> flags(int type, int octets) {
        return IeField.variable(type, octets, r -> {
            int v = 0;
            for (int i = 0; i < 4 && (i < octets || r.remaining() > 0); i++) {
                v |= r.u8() << (8 * i);
            }
            return v;
        }, (v, w) -> {
            for (int i = 0; i < octets; i++) {
                w.u8(v >> (8 * i));
            }
        });
    }

    private static IeField<BitRate> bitRate(int type) {
        return IeField.fixed(type, 10, r -> new BitRate(r.u40(), r.u40()),
                             (v, w) -> w.uint(v.uplinkKbps, 5).uint(v.downlinkKbps, 5));
    }

    private static IeField<Volume> volume(int type) {
        return IeField.variable(type, 1, IeFields::readVolume, IeFields::writeVolume);
    }

    private static Inet4Address ipv4(IeReader r) throws DecodeException {
        try {
            return (Inet4Address) InetAddress.getByAddress(r.bytes(4));
        } catch (UnknownHostException e) {
            throw r.incorrect("bad IPv4 address");
        }
    }

    /** An IPv4 address's text as {@link InetAddress#getHostAddress()} gives it, without the address object. */
    private static String dotted(IeReader r) throws DecodeException {
        r.need(4);
        return r.u8() + "." + r.u8() + "." + r.u8() + "." + r.u8();
    }

    private static Inet6Address ipv6(IeReader r) throws DecodeException {
        try {
            return (Inet6Address) InetAddress.getByAddress(r.bytes(16));
        } catch (UnknownHostException | ClassCastException e) {
            throw r.incorrect("bad IPv6 address");
        }
    }

    private static NodeId readNodeId(IeReader r) throws DecodeException {
        int t = r.u8() & 0x0f;
        switch (t) {
            case NodeId.IPV4:
                return new NodeId(t, dotted(r));
            case NodeId.IPV6:
                return new NodeId(t, ipv6(r).getHostAddress());
            case NodeId.FQDN:
                return new NodeId(t, readLabels(r.bytes(r.remaining()), r));
            default:
                throw r.incorrect("Node ID type " + t + " is not IPv4 (0), IPv6 (1) or FQDN (2)");
        }
    }

    private static void writeNodeId(NodeId v, IeWriter w) {
        w.u8(v.idType);
        if (v.idType == NodeId.FQDN) {
            w.bytes(labels(v.value));
            return;
        }
        try {
            w.bytes(InetAddress.getByName(v.value).getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad Node ID address " + v.value, e);
        }
    }

    /** A name as DNS labels (TS 23.003 §9.1), as FQDNs and Network Instances are encoded. */
    private static byte[] labels(String name) {
        IeWriter w = new IeWriter();
        for (String label : name.split("\\.")) {
            w.u8(label.length()).bytes(label.getBytes(StandardCharsets.US_ASCII));
        }
        return w.toByteArray();
    }

    private static String readLabels(byte[] b, IeReader r) throws DecodeException {
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < b.length) {
            int n = b[i] & 0xff;
            if (n == 0 || i + 1 + n > b.length) {
                throw r.incorrect("FQDN label of length " + n + " at " + i + " does not fit");
            }
            if (s.length() > 0) {
                s.append('.');
            }
            s.append(new String(b, i + 1, n, StandardCharsets.US_ASCII));
            i += 1 + n;
        }
        if (s.length() == 0) {
            throw r.incorrect("empty FQDN");
        }
        return s.toString();
    }

    /** A Network Instance (§8.2.4): DNS labels or, as some CP functions send it, plain text. */
    private static String readNetworkInstance(IeReader r) throws DecodeException {
        byte[] v = r.bytes(r.remaining());
        try {
            return readLabels(v, r);
        } catch (DecodeException e) {
            return new String(v, StandardCharsets.US_ASCII);
        }
    }

    private static FSeid readFSeid(IeReader r) throws DecodeException {
        int flags = r.u8();
        long seid = r.u64();
        Inet4Address v4 = (flags & 0x02) != 0 ? ipv4(r) : null;
        Inet6Address v6 = (flags & 0x01) != 0 ? ipv6(r) : null;
        if (v4 == null && v6 == null) {
            throw r.incorrect("F-SEID carries neither an IPv4 nor an IPv6 address");
        }
        return new FSeid(seid, v4, v6);
    }

    private static void writeFSeid(FSeid v, IeWriter w) {
        w.u8((v.ipv4 != null ? 0x02 : 0) | (v.ipv6 != null ? 0x01 : 0)).uint(v.seid, 8);
        if (v.ipv4 != null) {
            w.bytes(v.ipv4.getAddress());
        }
        if (v.ipv6 != null) {
            w.bytes(v.ipv6.getAddress());
        }
    }

    private static FTeid readFTeid(IeReader r) throws DecodeException {
        int flags = r.u8();
        boolean v4 = (flags & 0x01) != 0;
        boolean v6 = (flags & 0x02) != 0;
        boolean chid = (flags & 0x08) != 0;
        if ((flags & 0x04) != 0) {
            return new FTeid(0, null, true, chid ? r.u8() : null);
        }
        if (chid) {
            throw r.incorrect("F-TEID has CHID without CH");
        }
        long teid = r.u32();
        Inet4Address a4 = v4 ? ipv4(r) : null;
        if (v6) {
            ipv6(r);
        }
        if (!v4 && !v6) {
            throw r.incorrect("F-TEID carries no address and is not CHOOSE");
        }
        return new FTeid(teid, a4, false, null);
    }

    private static void writeFTeid(FTeid v, IeWriter w) {
        if (v.choose) {
            w.u8(0x04 | (v.chooseId != null ? 0x08 : 0));
            if (v.chooseId != null) {
                w.u8(v.chooseId);
            }
        } else {
            w.u8(0x01).u32(v.teid).bytes(v.ipv4.getAddress());
        }
    }

    private static UeIpAddress readUeIpAddress(IeReader r) throws DecodeException {
        int flags = r.u8();
        boolean chv4 = (flags & 0x10) != 0;
        Inet4Address a = (flags & 0x02) != 0 ? ipv4(r) : null;
        if (a == null && !chv4) {
            throw r.incorrect("UE IP Address without an IPv4 address (IPv6 UEs are not supported)");
        }
        return new UeIpAddress(a, (flags & 0x04) != 0, chv4);
    }

    private static void writeUeIpAddress(UeIpAddress v, IeWriter w) {
        w.u8((v.ipv4 != null ? 0x02 : 0) | (v.destination ? 0x04 : 0) | (v.choose ? 0x10 : 0));
        if (v.ipv4 != null) {
            w.bytes(v.ipv4.getAddress());
        }
    }

    private static OuterHeaderCreation readOuterHeaderCreation(IeReader r) throws DecodeException {
        int d = r.u16();
        boolean gtp = (d & (OuterHeaderCreation.GTPU_UDP_IPV4 | OuterHeaderCreation.GTPU_UDP_IPV6)) != 0;
        long teid = gtp ? r.u32() : 0;
        Inet4Address a = (d & (OuterHeaderCreation.GTPU_UDP_IPV4 | OuterHeaderCreation.UDP_IPV4
                | OuterHeaderCreation.IPV4)) != 0 ? ipv4(r) : null;
        if ((d & (OuterHeaderCreation.GTPU_UDP_IPV6 | OuterHeaderCreation.UDP_IPV6 | OuterHeaderCreation.IPV6)) != 0) {
            ipv6(r);
        }
        int port = (d & (OuterHeaderCreation.UDP_IPV4 | OuterHeaderCreation.UDP_IPV6)) != 0 ? r.u16() : 0;
        return new OuterHeaderCreation(d, teid, a, port);
    }

    private static void writeOuterHeaderCreation(OuterHeaderCreation v, IeWriter w) {
        w.u16(v.description);
        if ((v.description & OuterHeaderCreation.GTPU_UDP_IPV4) != 0) {
            w.u32(v.teid);
        }
        if (v.ipv4 != null) {
            w.bytes(v.ipv4.getAddress());
        }
        if ((v.description & OuterHeaderCreation.UDP_IPV4) != 0) {
            w.u16(v.port);
        }
    }

    private static SdfFilter readSdfFilter(IeReader r) throws DecodeException {
        int flags = r.u8();
        r.u8();
        String fd = null;
        if ((flags & 0x01) != 0) {
            fd = new String(r.bytes(r.u16()), StandardCharsets.US_ASCII);
        }
        // ToS traffic class (2), security parameter index (4), flow label (3): read past, kept as flags.
        r.bytes(((flags & 0x02) != 0 ? 2 : 0) + ((flags & 0x04) != 0 ? 4 : 0) + ((flags & 0x08) != 0 ? 3 : 0));
        Long id = (flags & 0x10) != 0 ? r.u32() : null;
        return new SdfFilter(fd, flags & 0x0e, id);
    }

    private static void writeSdfFilter(SdfFilter v, IeWriter w) {
        w.u8((v.flowDescription != null ? 0x01 : 0) | (v.filterId != null ? 0x10 : 0)).u8(0);
        if (v.flowDescription != null) {
            byte[] fd = v.flowDescription.getBytes(StandardCharsets.US_ASCII);
            w.u16(fd.length).bytes(fd);
        }
        if (v.filterId != null) {
            w.u32(v.filterId);
        }
    }

    /** Gate Status (§8.2.7): 0 open, anything else closed, uplink in bits 3-4, downlink in bits 1-2. */
    private static GateStatus readGateStatus(int v) {
        return new GateStatus(((v >> 2) & 0x03) != 0, (v & 0x03) != 0);
    }

    private static Volume readVolume(IeReader r) throws DecodeException {
        int flags = r.u8();
        Long t = (flags & 0x01) != 0 ? r.u64() : null;
        Long u = (flags & 0x02) != 0 ? r.u64() : null;
        Long d = (flags & 0x04) != 0 ? r.u64() : null;
        return new Volume(t, u, d);
    }

    private static void writeVolume(Volume v, IeWriter w) {
        w.u8((v.total != null ? 1 : 0) | (v.uplink != null ? 2 : 0) | (v.downlink != null ? 4 : 0));
        for (Long octets : new Long[]{v.total, v.uplink, v.downlink}) {
            if (octets != null) {
                w.uint(octets, 8);
            }
        }
    }

    private static FailedRuleId readFailedRuleId(IeReader r) throws DecodeException {
        int t = r.u8() & 0x1f;
        switch (t) {
            case FailedRuleId.PDR:
                return new FailedRuleId(t, r.u16());
            case FailedRuleId.BAR:
                return new FailedRuleId(t, r.u8());
            case FailedRuleId.FAR:
            case FailedRuleId.QER:
            case FailedRuleId.URR:
                return new FailedRuleId(t, r.u32());
            default:
                throw r.incorrect("rule id type " + t + " out of range [0, 4]");
        }
    }

    private static void writeFailedRuleId(FailedRuleId v, IeWriter w) {
        w.u8(v.ruleType).uint(v.ruleId, v.ruleType == FailedRuleId.PDR ? 2 : v.ruleType == FailedRuleId.BAR ? 1 : 4);
    }
}

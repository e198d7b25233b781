package org.hupf.app.pfcp.codec;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Typed values of the structured PFCP IEs (TS 29.244 §8.2), each with its encoder and a decoder that
 * reports short or inconsistent values as {@link DecodeException}.
 */
public final class IeValues {

    private IeValues() {
    }

    private static Inet4Address ipv4(IeReader r) throws DecodeException {
        try {
            return (Inet4Address) InetAddress.getByAddress(r.bytes(4));
        } catch (UnknownHostException e) {
            throw r.incorrect("bad IPv4 address");
        }
    }

    private static Inet6Address ipv6(IeReader r) throws DecodeException {
        try {
            return (Inet6Address) InetAddress.getByAddress(r.bytes(16));
        } catch (UnknownHostException | ClassCastException e) {
            throw r.incorrect("bad IPv6 address");
        }
    }

    /**
     * Reads a Network Instance (§8.2.4): a DNN encoded as DNS labels (TS 23.003 §9.1), or, as some CP
     * functions send it, plain text.
     *
     * @param ie Network Instance IE
     * @return the name
     */
    public static String networkInstance(Ie ie) {
        byte[] v = ie.value();
        try {
            return NodeId.labels(v, ie.reader());
        } catch (DecodeException e) {
            return new String(v, StandardCharsets.US_ASCII);
        }
    }

    /** Node ID (§8.2.38): an IPv4 or IPv6 address or an FQDN. */
    public static final class NodeId {
        public static final int IPV4 = 0;
        public static final int IPV6 = 1;
        public static final int FQDN = 2;
        public final int idType;
        /** Address in dotted/colon form or the FQDN. */
        public final String value;

        public NodeId(int idType, String value) {
            this.idType = idType;
            this.value = value;
        }

        public static NodeId decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int t = r.u8() & 0x0f;
            switch (t) {
                case IPV4:
                    return new NodeId(t, IeValues.ipv4(r).getHostAddress());
                case IPV6:
                    return new NodeId(t, ipv6(r).getHostAddress());
                case FQDN:
                    return new NodeId(t, labels(r.bytes(r.remaining()), r));
                default:
                    throw r.incorrect("Node ID type " + t + " is not IPv4 (0), IPv6 (1) or FQDN (2)");
            }
        }

        static String labels(byte[] b, IeReader r) throws DecodeException {
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

        public Ie toIe() {
            ByteBuffer b = ByteBuffer.allocate(1 + 255);
            b.put((byte) idType);
            try {
                if (idType == FQDN) {
                    for (String label : value.split("\\.")) {
                        b.put((byte) label.length()).put(label.getBytes(StandardCharsets.US_ASCII));
                    }
                } else {
                    b.put(InetAddress.getByName(value).getAddress());
                }
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("bad Node ID address " + value, e);
            }
            byte[] out = new byte[b.position()];
            b.flip().get(out);
            return Ie.leaf(IeType.NODE_ID, out);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof NodeId && ((NodeId) o).idType == idType && ((NodeId) o).value.equals(value);
        }

        @Override
        public int hashCode() {
            return Objects.hash(idType, value);
        }

        @Override
        public String toString() {
            return value;
        }
    }

    /** F-SEID (§8.2.37): SEID and the CP or UP function's address. */
    public static final class FSeid {
        public final long seid;
        public final Inet4Address ipv4;
        public final Inet6Address ipv6;

        public FSeid(long seid, Inet4Address ipv4, Inet6Address ipv6) {
            this.seid = seid;
            this.ipv4 = ipv4;
            this.ipv6 = ipv6;
        }

        public static FSeid decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int flags = r.u8();
            long seid = r.u64();
            Inet4Address v4 = (flags & 0x02) != 0 ? ipv4(r) : null;
            Inet6Address v6 = (flags & 0x01) != 0 ? ipv6(r) : null;
            if (v4 == null && v6 == null) {
                throw r.incorrect("F-SEID carries neither an IPv4 nor an IPv6 address");
            }
            return new FSeid(seid, v4, v6);
        }

        public Ie toIe() {
            ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + 16);
            b.put((byte) ((ipv4 != null ? 0x02 : 0) | (ipv6 != null ? 0x01 : 0))).putLong(seid);
            if (ipv4 != null) {
                b.put(ipv4.getAddress());
            }
            if (ipv6 != null) {
                b.put(ipv6.getAddress());
            }
            return Ie.leaf(IeType.F_SEID, trim(b));
        }
    }

    /** F-TEID (§8.2.3): TEID and address, or CHOOSE (the UP function allocates them). */
    public static final class FTeid {
        public final long teid;
        public final Inet4Address ipv4;
        public final boolean choose;
        public final Integer chooseId;

        public FTeid(long teid, Inet4Address ipv4, boolean choose, Integer chooseId) {
            this.teid = teid;
            this.ipv4 = ipv4;
            this.choose = choose;
            this.chooseId = chooseId;
        }

        public static FTeid decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int flags = r.u8();
            boolean v4 = (flags & 0x01) != 0;
            boolean v6 = (flags & 0x02) != 0;
            boolean ch = (flags & 0x04) != 0;
            boolean chid = (flags & 0x08) != 0;
            if (ch) {
                Integer chooseId = chid ? r.u8() : null;
                return new FTeid(0, null, true, chooseId);
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

        public Ie toIe() {
            ByteBuffer b = ByteBuffer.allocate(9);
            if (choose) {
                b.put((byte) (0x04 | (chooseId != null ? 0x08 : 0)));
                if (chooseId != null) {
                    b.put((byte) (int) chooseId);
                }
            } else {
                b.put((byte) 0x01).putInt((int) teid).put(ipv4.getAddress());
            }
            return Ie.leaf(IeType.F_TEID, trim(b));
        }
    }

    /** UE IP Address (§8.2.62): IPv4, whether it is the source or destination (S/D). */
    public static final class UeIpAddress {
        public final Inet4Address ipv4;
        /** S/D flag: true = destination (downlink PDRs), false = source. */
        public final boolean destination;
        /** CHV4: the UP function allocates the address. */
        public final boolean choose;

        public UeIpAddress(Inet4Address ipv4, boolean destination, boolean choose) {
            this.ipv4 = ipv4;
            this.destination = destination;
            this.choose = choose;
        }

        public static UeIpAddress decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int flags = r.u8();
            boolean chv4 = (flags & 0x10) != 0;
            Inet4Address a = (flags & 0x02) != 0 ? ipv4(r) : null;
            if (a == null && !chv4) {
                throw r.incorrect("UE IP Address without an IPv4 address (IPv6 UEs are not supported)");
            }
            return new UeIpAddress(a, (flags & 0x04) != 0, chv4);
        }

        public Ie toIe() {
            ByteBuffer b = ByteBuffer.allocate(5);
            b.put((byte) ((ipv4 != null ? 0x02 : 0) | (destination ? 0x04 : 0) | (choose ? 0x10 : 0)));
            if (ipv4 != null) {
                b.put(ipv4.getAddress());
            }
            return Ie.leaf(IeType.UE_IP_ADDRESS, trim(b));
        }
    }

    /** Outer Header Creation (§8.2.56); only GTP-U/UDP/IPv4 is accepted by hupf's translator. */
    public static final class OuterHeaderCreation {
        public static final int GTPU_UDP_IPV4 = 0x0100;
        public static final int GTPU_UDP_IPV6 = 0x0200;
        public static final int UDP_IPV4 = 0x0400;
        public static final int UDP_IPV6 = 0x0800;
        public final int description;
        public final long teid;
        public final Inet4Address ipv4;
        public final int port;

        public OuterHeaderCreation(int description, long teid, Inet4Address ipv4, int port) {
            this.description = description;
            this.teid = teid;
            this.ipv4 = ipv4;
            this.port = port;
        }

        public static OuterHeaderCreation decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int d = r.u16();
            boolean gtp = (d & (GTPU_UDP_IPV4 | GTPU_UDP_IPV6)) != 0;
            long teid = gtp ? r.u32() : 0;
            Inet4Address a = (d & (GTPU_UDP_IPV4 | UDP_IPV4 | 0x1000)) != 0 ? ipv4(r) : null;
            if ((d & (GTPU_UDP_IPV6 | UDP_IPV6 | 0x2000)) != 0) {
                ipv6(r);
            }
            int port = (d & (UDP_IPV4 | UDP_IPV6)) != 0 ? r.u16() : 0;
            return new OuterHeaderCreation(d, teid, a, port);
        }

        public static OuterHeaderCreation gtpuIpv4(long teid, Inet4Address peer) {
            return new OuterHeaderCreation(GTPU_UDP_IPV4, teid, peer, 0);
        }

        public Ie toIe() {
            ByteBuffer b = ByteBuffer.allocate(12);
            b.putShort((short) description);
            if ((description & GTPU_UDP_IPV4) != 0) {
                b.putInt((int) teid);
            }
            if (ipv4 != null) {
                b.put(ipv4.getAddress());
            }
            if ((description & UDP_IPV4) != 0) {
                b.putShort((short) port);
            }
            return Ie.leaf(IeType.OUTER_HEADER_CREATION, trim(b));
        }
    }

    /** SDF Filter (§8.2.5); hupf reads the flow description and the filter id. */
    public static final class SdfFilter {
        public final String flowDescription;
        /** Flags other than FD and BID: ToS, SPI, flow label; the translator rejects them. */
        public final int otherFlags;
        public final Long filterId;

        public SdfFilter(String flowDescription, int otherFlags, Long filterId) {
            this.flowDescription = flowDescription;
            this.otherFlags = otherFlags;
            this.filterId = filterId;
        }

        public static SdfFilter decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int flags = r.u8();
            r.u8();
            String fd = null;
            if ((flags & 0x01) != 0) {
                int n = r.u16();
                fd = new String(r.bytes(n), StandardCharsets.US_ASCII);
            }
            if ((flags & 0x02) != 0) {
                r.u16();
            }
            if ((flags & 0x04) != 0) {
                r.u32();
            }
            if ((flags & 0x08) != 0) {
                r.u24();
            }
            Long id = (flags & 0x10) != 0 ? r.u32() : null;
            return new SdfFilter(fd, flags & 0x0e, id);
        }

        public Ie toIe() {
            byte[] fd = flowDescription == null ? new byte[0] : flowDescription.getBytes(StandardCharsets.US_ASCII);
            ByteBuffer b = ByteBuffer.allocate(2 + 2 + fd.length + 4);
            b.put((byte) ((flowDescription != null ? 0x01 : 0) | (filterId != null ? 0x10 : 0))).put((byte) 0);
            if (flowDescription != null) {
                b.putShort((short) fd.length).put(fd);
            }
            if (filterId != null) {
                b.putInt((int) (long) filterId);
            }
            return Ie.leaf(IeType.SDF_FILTER, trim(b));
        }
    }

    /** MBR (§8.2.8) or GBR (§8.2.9): uplink and downlink bit rates in kbit/s, 40 bits each. */
    public static final class BitRate {
        public final long uplinkKbps;
        public final long downlinkKbps;

        public BitRate(long uplinkKbps, long downlinkKbps) {
            this.uplinkKbps = uplinkKbps;
            this.downlinkKbps = downlinkKbps;
        }

        public static BitRate decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            return new BitRate(r.u40(), r.u40());
        }

        public Ie toIe(int type) {
            ByteBuffer b = ByteBuffer.allocate(10);
            b.put((byte) (uplinkKbps >> 32)).putInt((int) uplinkKbps);
            b.put((byte) (downlinkKbps >> 32)).putInt((int) downlinkKbps);
            return Ie.leaf(type, b.array());
        }
    }

    /**
     * Volume Threshold (§8.2.13) or Volume Measurement (§8.2.44): total, uplink, downlink bytes,
     * each present or null.
     */
    public static final class Volume {
        public final Long total;
        public final Long uplink;
        public final Long downlink;

        public Volume(Long total, Long uplink, Long downlink) {
            this.total = total;
            this.uplink = uplink;
            this.downlink = downlink;
        }

        public static Volume decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int flags = r.u8();
            Long t = (flags & 0x01) != 0 ? r.u64() : null;
            Long u = (flags & 0x02) != 0 ? r.u64() : null;
            Long d = (flags & 0x04) != 0 ? r.u64() : null;
            return new Volume(t, u, d);
        }

        public Ie toIe(int type) {
            ByteBuffer b = ByteBuffer.allocate(25);
            b.put((byte) ((total != null ? 1 : 0) | (uplink != null ? 2 : 0) | (downlink != null ? 4 : 0)));
            for (Long v : new Long[]{total, uplink, downlink}) {
                if (v != null) {
                    b.putLong(v);
                }
            }
            return Ie.leaf(type, trim(b));
        }
    }

    /** Gate Status (§8.2.7): 0 open, 1 closed, per direction. */
    public static boolean[] gateClosed(Ie ie) throws DecodeException {
        int v = ie.reader().u8();
        return new boolean[]{((v >> 2) & 0x03) != 0, (v & 0x03) != 0};
    }

    /**
     * Reads a bit set of one or more octets, first octet in the low byte (Apply Action, Reporting
     * Triggers, Usage Report Trigger, Report Type, UP/CP Function Features).
     *
     * @param ie       IE
     * @param minBytes octets the value must have
     * @return flags
     * @throws DecodeException if shorter
     */
    public static int flags(Ie ie, int minBytes) throws DecodeException {
        IeReader r = ie.reader();
        int v = 0;
        for (int i = 0; i < minBytes; i++) {
            v |= r.u8() << (8 * i);
        }
        for (int i = minBytes; i < 4 && r.remaining() > 0; i++) {
            v |= r.u8() << (8 * i);
        }
        return v;
    }

    /**
     * Encodes a bit set of {@code bytes} octets, low byte first.
     *
     * @param type  IE type
     * @param v     flags
     * @param bytes octets
     * @return IE
     */
    public static Ie flagsIe(int type, int v, int bytes) {
        byte[] out = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            out[i] = (byte) (v >> (8 * i));
        }
        return Ie.leaf(type, out);
    }

    /**
     * Reads an interface value (Source/Destination Interface, low 4 bits).
     *
     * @param ie IE
     * @return interface value
     * @throws DecodeException if empty
     */
    public static int iface(Ie ie) throws DecodeException {
        return ie.reader().u8() & 0x0f;
    }

    /** Failed Rule ID (§8.2.80): which PDR (0), FAR (1), QER (2), URR (3) or BAR (4) failed. */
    public static final class FailedRuleId {
        public static final int PDR = 0;
        public static final int FAR = 1;
        public static final int QER = 2;
        public static final int URR = 3;
        public static final int BAR = 4;
        public final int ruleType;
        public final long ruleId;

        private FailedRuleId(int ruleType, long ruleId) {
            this.ruleType = ruleType;
            this.ruleId = ruleId;
        }

        public static FailedRuleId of(int ruleType, long ruleId) {
            if (ruleType < PDR || ruleType > BAR) {
                throw new IllegalArgumentException("rule type " + ruleType + " out of range [0, 4]");
            }
            return new FailedRuleId(ruleType, ruleId);
        }

        public static FailedRuleId decode(Ie ie) throws DecodeException {
            IeReader r = ie.reader();
            int t = r.u8() & 0x1f;
            switch (t) {
                case PDR:
                    return new FailedRuleId(t, r.u16());
                case BAR:
                    return new FailedRuleId(t, r.u8());
                case FAR:
                case QER:
                case URR:
                    return new FailedRuleId(t, r.u32());
                default:
                    throw r.incorrect("rule id type " + t + " out of range [0, 4]");
            }
        }

        public Ie toIe() {
            ByteBuffer b = ByteBuffer.allocate(5);
            b.put((byte) ruleType);
            if (ruleType == PDR) {
                b.putShort((short) ruleId);
            } else if (ruleType == BAR) {
                b.put((byte) ruleId);
            } else {
                b.putInt((int) ruleId);
            }
            return Ie.leaf(IeType.FAILED_RULE_ID, trim(b));
        }
    }

    private static byte[] trim(ByteBuffer b) {
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }
}

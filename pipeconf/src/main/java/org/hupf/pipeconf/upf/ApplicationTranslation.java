package org.hupf.pipeconf.upf;

import com.google.common.collect.Range;
import org.hupf.pipeconf.api.UpfApplication;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.pi.model.PiMatchType;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;

import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates UPF applications to {@code applications} entries and back; the prefix is a ternary match where the
 * P4Info has it so (TNA: no LPM beside range and ternary), else LPM.
 */
final class ApplicationTranslation extends EntityTranslation {

    private static final int MAX_L4_PORT = 65535;
    private static final long PROTO_MASK = 0xFF;

    /** Whether applications' prefix is a ternary match (TNA: no LPM beside range and ternary), else LPM. */
    private final boolean ternaryAppPrefix;

    ApplicationTranslation(PiCodec codec) {
        super(codec);
        this.ternaryAppPrefix = codec.model().table(HUPF_INGRESS_UPF_APPLICATIONS)
                .flatMap(t -> t.matchField(HDR_APP_IPV4_ADDR))
                .map(f -> f.matchType() == PiMatchType.TERNARY).orElse(false);
    }

    PiTableEntry applicationEntry(UpfApplication app) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_APPLICATIONS;
        // P4Runtime priorities are > 0; the entity's 0 is the lowest.
        if (app.priority() == Integer.MAX_VALUE) {
            throw new PiCodecException("application priority " + app.priority()
                                               + " exceeds the P4Runtime maximum " + (Integer.MAX_VALUE - 1));
        }
        PiMatchKey.Builder key = PiMatchKey.builder().addFieldMatch(exact(t, HDR_SLICE_ID, app.sliceId()));
        if (app.ip4Prefix().isPresent()) {
            if (app.ip4Prefix().get().prefixLength() == 0) {
                throw new PiCodecException("application prefix /0 matches every address: leave ipPrefix unset");
            }
            Ip4Prefix p = app.ip4Prefix().get();
            key.addFieldMatch(ternaryAppPrefix
                    ? new PiTernaryFieldMatch(HDR_APP_IPV4_ADDR,
                                              codec.field(t, HDR_APP_IPV4_ADDR, p.address().toInt() & 0xFFFFFFFFL),
                                              codec.field(t, HDR_APP_IPV4_ADDR, prefixMask(p.prefixLength())))
                    : lpm(t, HDR_APP_IPV4_ADDR, p));
        }
        if (app.l4PortRange().isPresent()) {
            Range<Integer> r = app.l4PortRange().get();
            if (r.lowerEndpoint() == 0 && r.upperEndpoint() == MAX_L4_PORT) {
                throw new PiCodecException("application port range 0-65535 matches every port: "
                                                   + "leave l4PortRange unset");
            }
            key.addFieldMatch(new PiRangeFieldMatch(HDR_APP_L4_PORT,
                                                    codec.field(t, HDR_APP_L4_PORT, r.lowerEndpoint()),
                                                    codec.field(t, HDR_APP_L4_PORT, r.upperEndpoint())));
        }
        if (app.ipProto().isPresent()) {
            key.addFieldMatch(new PiTernaryFieldMatch(HDR_APP_IP_PROTO,
                                                      codec.field(t, HDR_APP_IP_PROTO, app.ipProto().get()),
                                                      codec.field(t, HDR_APP_IP_PROTO, PROTO_MASK)));
        }
        return PiTableEntry.builder().forTable(t).withMatchKey(key.build())
                .withAction(codec.action(HUPF_INGRESS_UPF_SET_APP_ID, APP_ID, app.appId()))
                .withPriority(app.priority() + 1).build();
    }

    UpfApplication toApplication(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        if (!a.id().equals(HUPF_INGRESS_UPF_SET_APP_ID)) {
            throw unknownAction(e);
        }
        int priority = e.priority().orElseThrow(
                () -> new PiCodecException("application entry without priority: " + e));
        UpfApplication.Builder b = UpfApplication.builder()
                .withSliceId((int) PiCodec.exact(e, HDR_SLICE_ID))
                .withAppId((int) PiCodec.param(a, APP_ID))
                .withPriority(priority - 1);
        (ternaryAppPrefix ? ternaryPrefix(e, HDR_APP_IPV4_ADDR) : lpmPrefix(e, HDR_APP_IPV4_ADDR))
                .ifPresent(b::withIp4Prefix);
        Optional<PiFieldMatch> port = PiCodec.match(e, HDR_APP_L4_PORT);
        if (port.isPresent()) {
            PiRangeFieldMatch r = (PiRangeFieldMatch) port.get();
            b.withL4PortRange((int) PiCodec.toLong(r.lowValue(), "app_l4_port low"),
                              (int) PiCodec.toLong(r.highValue(), "app_l4_port high"));
        }
        Optional<PiFieldMatch> proto = PiCodec.match(e, HDR_APP_IP_PROTO);
        if (proto.isPresent()) {
            PiTernaryFieldMatch m = (PiTernaryFieldMatch) proto.get();
            if (PiCodec.toLong(m.mask(), "app_ip_proto mask") != PROTO_MASK) {
                throw new PiCodecException("app_ip_proto mask " + m.mask() + " is not exact (0xff)");
            }
            b.withIpProto((int) PiCodec.toLong(m.value(), "app_ip_proto"));
        }
        return build(b::build);
    }
}

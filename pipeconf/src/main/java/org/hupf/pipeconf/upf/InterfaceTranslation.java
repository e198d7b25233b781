package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.UpfInterface;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates UPF interfaces to {@code interfaces} entries and back.
 */
final class InterfaceTranslation extends EntityTranslation {

    InterfaceTranslation(PiCodec codec) {
        super(codec);
    }

    PiTableEntry interfaceEntry(UpfInterface iface) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_INTERFACES;
        PiMatchKey.Builder key = PiMatchKey.builder()
                .addFieldMatch(new PiExactFieldMatch(HDR_GTPU_IS_VALID,
                                                     codec.field(t, HDR_GTPU_IS_VALID, iface.isAccess() ? 1 : 0)));
        // P4Runtime: a zero-length LPM is a wildcard and must be omitted.
        if (iface.prefix().prefixLength() > 0) {
            key.addFieldMatch(lpm(t, HDR_IPV4_DST_ADDR, iface.prefix()));
        }
        PiActionId action = iface.isAccess() ? HUPF_INGRESS_UPF_IFACE_ACCESS : HUPF_INGRESS_UPF_IFACE_CORE;
        return entry(t, key.build(), codec.action(action, SLICE_ID, iface.sliceId()));
    }

    UpfInterface toInterface(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfInterface.Builder b = UpfInterface.builder()
                .setPrefix(lpmPrefix(e, HDR_IPV4_DST_ADDR).orElse(Ip4Prefix.valueOf(0, 0)))
                .setSliceId((int) PiCodec.param(a, SLICE_ID));
        long gtpu = PiCodec.exact(e, HDR_GTPU_IS_VALID);
        if (a.id().equals(HUPF_INGRESS_UPF_IFACE_ACCESS) && gtpu == 1) {
            b.setAccess();
        } else if (a.id().equals(HUPF_INGRESS_UPF_IFACE_CORE) && gtpu == 0) {
            b.setCore();
        } else {
            throw new PiCodecException("interface entry with action " + a.id() + " and gtpu_is_valid " + gtpu
                                               + " is neither access (1) nor core (0)");
        }
        return build(b::build);
    }
}

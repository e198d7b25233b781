package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates uplink and downlink UPF terminations to {@code uplink_terminations} and
 * {@code downlink_terminations} entries and back.
 */
final class TerminationTranslation extends EntityTranslation {

    TerminationTranslation(PiCodec codec) {
        super(codec);
    }

    private PiMatchKey terminationKey(PiTableId t, Ip4Address ue, int appId) throws PiCodecException {
        return PiMatchKey.builder()
                .addFieldMatch(exact(t, HDR_UE_SESSION_ID, Ip4Bits.of(ue) & 0xFFFFFFFFL))
                .addFieldMatch(exact(t, HDR_APP_ID, appId))
                .build();
    }

    PiTableEntry uplinkTerminationEntry(UpfTerminationUplink term) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_UPLINK_TERMINATIONS;
        requireIndex(UpfEntityType.COUNTER, term.counterId(), "counterId");
        PiAction action;
        if (term.needsDropping()) {
            requireZero(term.trafficClass(), "a dropping uplink termination has no trafficClass");
            requireZero(term.appMeterIdx(), "a dropping uplink termination has no appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_UPLINK_TERM_DROP, CTR_IDX, term.counterId());
        } else {
            requireIndex(UpfEntityType.APPLICATION_METER, term.appMeterIdx(), "appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_UPLINK_TERM_FWD, CTR_IDX, term.counterId(),
                                  TC, term.trafficClass(), APP_METER_IDX, term.appMeterIdx());
        }
        return entry(t, terminationKey(t, term.ueSessionId(), term.applicationId()), action);
    }

    UpfTerminationUplink toUplinkTermination(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfTerminationUplink.Builder b = UpfTerminationUplink.builder()
                .withUeSessionId(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_UE_SESSION_ID)))
                .withApplicationId((int) PiCodec.exact(e, HDR_APP_ID))
                .withCounterId((int) PiCodec.param(a, CTR_IDX));
        if (a.id().equals(HUPF_INGRESS_UPF_UPLINK_TERM_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_UPLINK_TERM_FWD)) {
            b.withTrafficClass((int) PiCodec.param(a, TC))
                    .withAppMeterIdx((int) PiCodec.param(a, APP_METER_IDX));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }

    PiTableEntry downlinkTerminationEntry(UpfTerminationDownlink term) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS;
        requireIndex(UpfEntityType.COUNTER, term.counterId(), "counterId");
        PiAction action;
        if (term.needsDropping()) {
            requireZero(term.teid(), "a dropping downlink termination has no teid");
            requireZero(term.qfi(), "a dropping downlink termination has no qfi");
            requireZero(term.trafficClass(), "a dropping downlink termination has no trafficClass");
            requireZero(term.appMeterIdx(), "a dropping downlink termination has no appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_DOWNLINK_TERM_DROP, CTR_IDX, term.counterId());
        } else {
            requireIndex(UpfEntityType.APPLICATION_METER, term.appMeterIdx(), "appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_DOWNLINK_TERM_FWD, CTR_IDX, term.counterId(),
                                  TEID, term.teid(), QFI, term.qfi(), TC, term.trafficClass(),
                                  APP_METER_IDX, term.appMeterIdx());
        }
        return entry(t, terminationKey(t, term.ueSessionId(), term.applicationId()), action);
    }

    UpfTerminationDownlink toDownlinkTermination(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfTerminationDownlink.Builder b = UpfTerminationDownlink.builder()
                .withUeSessionId(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_UE_SESSION_ID)))
                .withApplicationId((int) PiCodec.exact(e, HDR_APP_ID))
                .withCounterId((int) PiCodec.param(a, CTR_IDX));
        if (a.id().equals(HUPF_INGRESS_UPF_DOWNLINK_TERM_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_DOWNLINK_TERM_FWD)) {
            b.withTeid(PiCodec.param(a, TEID)).withQfi((int) PiCodec.param(a, QFI))
                    .withTrafficClass((int) PiCodec.param(a, TC))
                    .withAppMeterIdx((int) PiCodec.param(a, APP_METER_IDX));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }
}

package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates uplink and downlink UPF sessions to {@code uplink_sessions} and {@code downlink_sessions} entries
 * and back.
 */
final class SessionTranslation extends EntityTranslation {

    SessionTranslation(PiCodec codec) {
        super(codec);
    }

    PiTableEntry uplinkSessionEntry(UpfSessionUplink s) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_UPLINK_SESSIONS;
        PiMatchKey key = PiMatchKey.builder()
                .addFieldMatch(exact(t, HDR_TUNNEL_IPV4_DST, Ip4Bits.of(s.tunDstAddr()) & 0xFFFFFFFFL))
                .addFieldMatch(exact(t, HDR_TEID, s.teid()))
                .build();
        PiAction action;
        if (s.needsDropping()) {
            requireZero(s.sessionMeterIdx(), "a dropping uplink session has no session meter: sessionMeterIdx");
            if (s.ueAddress().isPresent()) {
                throw new PiCodecException("a dropping uplink session carries no ueAddress "
                                                   + "(set_uplink_session_drop has no parameters)");
            }
            action = codec.action(HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP);
        } else {
            requireIndex(UpfEntityType.SESSION_METER, s.sessionMeterIdx(), "sessionMeterIdx");
            Ip4Address ue = s.ueAddress().orElseThrow(() -> new PiCodecException(
                    "a forwarding uplink session needs ueAddress: the pipeline checks the inner source "
                            + "against it (anti-spoofing)"));
            action = codec.action(HUPF_INGRESS_UPF_SET_UPLINK_SESSION, UE_ADDR, Ip4Bits.of(ue) & 0xFFFFFFFFL,
                                  SESSION_METER_IDX, s.sessionMeterIdx());
        }
        return entry(t, key, action);
    }

    UpfSessionUplink toUplinkSession(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfSessionUplink.Builder b = UpfSessionUplink.builder()
                .setTunDstAddr(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_TUNNEL_IPV4_DST)))
                .setTeid(PiCodec.exact(e, HDR_TEID));
        if (a.id().equals(HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_SET_UPLINK_SESSION)) {
            b.setSessionMeterIdx((int) PiCodec.param(a, SESSION_METER_IDX))
                    .withUeAddress(Ip4Address.valueOf((int) PiCodec.param(a, UE_ADDR)));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }

    PiTableEntry downlinkSessionEntry(UpfSessionDownlink s) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_DOWNLINK_SESSIONS;
        PiMatchKey key = PiMatchKey.builder()
                .addFieldMatch(exact(t, HDR_UE_ADDR, Ip4Bits.of(s.ueAddress()) & 0xFFFFFFFFL))
                .build();
        PiAction action;
        if (s.needsDropping()) {
            requireZero(s.sessionMeterIdx(), "a dropping downlink session has no session meter: sessionMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP);
        } else {
            requireIndex(UpfEntityType.SESSION_METER, s.sessionMeterIdx(), "sessionMeterIdx");
            if (s.needsBuffering()) {
                action = codec.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_BUF,
                                      SESSION_METER_IDX, s.sessionMeterIdx());
            } else {
                action = codec.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION, TUN_PEER_ID, s.tunPeerId(),
                                      SESSION_METER_IDX, s.sessionMeterIdx());
            }
        }
        return entry(t, key, action);
    }

    UpfSessionDownlink toDownlinkSession(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder()
                .withUeAddress(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_UE_ADDR)));
        if (a.id().equals(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_BUF)) {
            b.needsBuffering(true).withSessionMeterIdx((int) PiCodec.param(a, SESSION_METER_IDX));
        } else if (a.id().equals(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION)) {
            b.withGtpTunnelPeerId((int) PiCodec.param(a, TUN_PEER_ID))
                    .withSessionMeterIdx((int) PiCodec.param(a, SESSION_METER_IDX));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }
}

package org.hupf.pipeconf.pdrfar;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.behaviour.upf.ForwardingActionRule;
import org.onosproject.net.behaviour.upf.GtpTunnel;
import org.onosproject.net.behaviour.upf.PacketDetectionRule;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.TABLE_EXHAUSTED;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNSUPPORTED_OPERATION;

/**
 * The PDR/FAR model of ONOS 2.7's {@code UpfProgrammable} on hupf's entity model, for one device.
 *
 * <p>Mapping (application id 0 = the default application, one termination per PDR):
 * <ul>
 * <li>uplink PDR (tunnel dst, TEID, counter) + its FAR → {@code UpfSessionUplink(tunnel dst, TEID, UE)}
 *     and {@code UpfTerminationUplink(UE, app 0, counter)}; a dropping FAR makes both drop. ONOS 2.7
 *     uplink PDRs carry no UE address: it is taken from a downlink PDR of the same session, and the
 *     uplink PDR waits for one;</li>
 * <li>downlink PDR (UE, counter, QFI) + its FAR → {@code UpfSessionDownlink(UE)} forwarding to a tunnel
 *     peer (allocated per distinct (src, dst, port) of the FAR's tunnel, shared by PDRs), buffering
 *     (buffer FAR) or dropping, and {@code UpfTerminationDownlink(UE, app 0, counter, FAR TEID, QFI)};</li>
 * <li>PDR QFI: pushed when {@code pushQfi()}, else the default QFI given to {@code enablePscEncap}.</li>
 * </ul>
 * A PDR is installed once its FAR (and, uplink, its UE) is known; PDRs and FARs arrive in any order. The device cannot hold
 * session and FAR ids, so they live here: {@code getPdrs}/{@code getFars} answer from this state.
 */
public final class PdrFarState {

    private static final int MAX_TUNNEL_PEERS = 255;

    private final Map<PdrKey, PacketDetectionRule> pdrs = new HashMap<>();
    private final Map<FarKey, ForwardingActionRule> fars = new HashMap<>();
    private final Map<PdrKey, List<UpfEntity>> installed = new HashMap<>();
    private final Map<PdrKey, GtpTunnel> peerOf = new HashMap<>();
    private final Map<PeerKey, Integer> peerIds = new HashMap<>();
    private final Map<PeerKey, Integer> peerRefs = new HashMap<>();
    private int defaultQfi;

    public synchronized List<PacketDetectionRule> pdrs() {
        return new ArrayList<>(pdrs.values());
    }

    public synchronized List<ForwardingActionRule> fars() {
        return new ArrayList<>(fars.values());
    }

    public synchronized void setDefaultQfi(int qfi) {
        this.defaultQfi = qfi;
    }

    /**
     * Adds or replaces a PDR, installing it if its FAR is known.
     *
     * @param pdr    PDR with action parameters
     * @param device device to write to
     * @throws UpfProgrammableException if the PDR cannot be expressed or the device refuses it
     */
    public synchronized void addPdr(PacketDetectionRule pdr, HupfUpfDevice device) throws UpfProgrammableException {
        if (!pdr.hasActionParameters()) {
            throw new UpfProgrammableException("PDR without action parameters cannot be added: " + pdr);
        }
        if (pdr.matchQfi()) {
            throw new UpfProgrammableException("hupf sessions do not match on QFI: " + pdr, UNSUPPORTED_OPERATION);
        }
        PdrKey key = PdrKey.of(pdr);
        uninstall(key, device);
        pdrs.put(key, pdr);
        install(key, device);
        // A downlink PDR names the session's UE, which its uplink PDRs wait for.
        installPending(pdr.sessionId(), device);
    }

    private void installPending(ImmutableByteSequence session, HupfUpfDevice device)
            throws UpfProgrammableException {
        for (Map.Entry<PdrKey, PacketDetectionRule> e : new ArrayList<>(pdrs.entrySet())) {
            if (e.getValue().sessionId().equals(session) && !installed.containsKey(e.getKey())) {
                install(e.getKey(), device);
            }
        }
    }

    /** ONOS 2.7 uplink PDRs carry no UE address: it is that of a downlink PDR of the same session. */
    private Ip4Address ueOfSession(ImmutableByteSequence session) {
        for (PacketDetectionRule p : pdrs.values()) {
            if (p.sessionId().equals(session) && p.matchesUnencapped()) {
                return p.ueAddress();
            }
        }
        return null;
    }

    public synchronized void removePdr(PacketDetectionRule pdr, HupfUpfDevice device) throws UpfProgrammableException {
        PdrKey key = PdrKey.of(pdr);
        uninstall(key, device);
        pdrs.remove(key);
    }

    /**
     * Adds or replaces a FAR, (re)installing the PDRs that use it.
     *
     * @param far    FAR
     * @param device device to write to
     * @throws UpfProgrammableException if a PDR using it cannot be expressed or the device refuses it
     */
    public synchronized void addFar(ForwardingActionRule far, HupfUpfDevice device) throws UpfProgrammableException {
        if (far.notifies() && !far.buffers()) {
            throw new UpfProgrammableException("hupf notifies only while buffering (DOWNLINK_BUFFER packet-in): "
                                                       + far, UNSUPPORTED_OPERATION);
        }
        FarKey key = FarKey.of(far.sessionId(), far.farId());
        List<PdrKey> users = usersOf(key);
        for (PdrKey p : users) {
            uninstall(p, device);
        }
        fars.put(key, far);
        for (PdrKey p : users) {
            install(p, device);
        }
    }

    public synchronized void removeFar(ForwardingActionRule far, HupfUpfDevice device) throws UpfProgrammableException {
        FarKey key = FarKey.of(far.sessionId(), far.farId());
        for (PdrKey p : usersOf(key)) {
            uninstall(p, device);
        }
        fars.remove(key);
    }

    /** Forgets every PDR and FAR (the device's entries are removed by the caller). */
    public synchronized void clear() {
        pdrs.clear();
        fars.clear();
        installed.clear();
        peerOf.clear();
        peerIds.clear();
        peerRefs.clear();
    }

    private List<PdrKey> usersOf(FarKey far) {
        List<PdrKey> out = new ArrayList<>();
        pdrs.forEach((k, p) -> {
            if (FarKey.of(p.sessionId(), p.farId()).equals(far)) {
                out.add(k);
            }
        });
        return out;
    }

    private void install(PdrKey key, HupfUpfDevice device) throws UpfProgrammableException {
        PacketDetectionRule pdr = pdrs.get(key);
        ForwardingActionRule far = fars.get(FarKey.of(pdr.sessionId(), pdr.farId()));
        Ip4Address ue = pdr.matchesEncapped() ? ueOfSession(pdr.sessionId()) : pdr.ueAddress();
        if (far == null || ue == null) {
            return;
        }
        List<UpfEntity> entities = new ArrayList<>();
        try {
            if (pdr.matchesEncapped()) {
                entities.addAll(uplink(pdr, ue, far));
            } else {
                entities.addAll(downlink(key, pdr, far));
            }
        } catch (IllegalArgumentException e) {
            releasePeer(key, device);
            throw new UpfProgrammableException("PDR " + pdr + " with FAR " + far + " cannot be expressed: "
                                                       + e.getMessage(), UNSUPPORTED_OPERATION);
        }
        installed.put(key, entities);
        for (UpfEntity e : entities) {
            device.apply(e);
        }
    }

    private List<UpfEntity> uplink(PacketDetectionRule pdr, Ip4Address ue, ForwardingActionRule far) {
        if (far.encaps() || far.buffers()) {
            throw new IllegalArgumentException("uplink FARs forward decapsulated or drop");
        }
        UpfSessionUplink.Builder s = UpfSessionUplink.builder().setTunDstAddr(pdr.tunnelDest())
                .setTeid(unsigned(pdr.teid())).needsDropping(far.drops());
        if (!far.drops()) {
            s.withUeAddress(ue);
        }
        UpfTerminationUplink t = UpfTerminationUplink.builder().withUeSessionId(ue)
                .withCounterId(pdr.counterId()).needsDropping(far.drops()).build();
        return List.of(s.build(), t);
    }

    private List<UpfEntity> downlink(PdrKey key, PacketDetectionRule pdr, ForwardingActionRule far)
            throws UpfProgrammableException {
        List<UpfEntity> out = new ArrayList<>();
        UpfSessionDownlink.Builder s = UpfSessionDownlink.builder().withUeAddress(pdr.ueAddress());
        UpfTerminationDownlink.Builder t = UpfTerminationDownlink.builder().withUeSessionId(pdr.ueAddress())
                .withCounterId(pdr.counterId());
        if (far.drops()) {
            s.needsDropping(true);
            t.needsDropping(true);
        } else if (far.buffers()) {
            // Buffering happens before the termination; its TEID is used once the FAR forwards.
            s.needsBuffering(true);
            t.withTeid(far.tunnel() == null ? 0 : unsigned(far.tunnel().teid()));
        } else if (far.encaps()) {
            int peer = acquirePeer(key, far.tunnel());
            s.withGtpTunnelPeerId(peer);
            t.withTeid(unsigned(far.tunnel().teid()))
                    .withQfi(pdr.pushQfi() ? pdr.qfi() : defaultQfi);
            out.add(UpfGtpTunnelPeer.builder().withTunnelPeerId(peer).withSrcAddr(far.tunnel().src())
                            .withDstAddr(far.tunnel().dst()).withSrcPort(port(far.tunnel())).build());
        } else {
            throw new IllegalArgumentException("downlink FARs encapsulate, buffer or drop");
        }
        out.add(s.build());
        out.add(t.build());
        return out;
    }

    private int acquirePeer(PdrKey pdr, GtpTunnel tunnel) throws UpfProgrammableException {
        PeerKey key = PeerKey.of(tunnel);
        Integer id = peerIds.get(key);
        if (id == null) {
            for (int i = 1; i <= MAX_TUNNEL_PEERS; i++) {
                if (!peerIds.containsValue(i)) {
                    id = i;
                    break;
                }
            }
            if (id == null) {
                throw new UpfProgrammableException("all " + MAX_TUNNEL_PEERS + " tunnel peer ids are in use",
                                                   TABLE_EXHAUSTED);
            }
            peerIds.put(key, id);
        }
        peerRefs.merge(key, 1, Integer::sum);
        peerOf.put(pdr, tunnel);
        return id;
    }

    private void releasePeer(PdrKey pdr, HupfUpfDevice device) throws UpfProgrammableException {
        GtpTunnel tunnel = peerOf.remove(pdr);
        if (tunnel == null) {
            return;
        }
        PeerKey key = PeerKey.of(tunnel);
        if (peerRefs.merge(key, -1, Integer::sum) == 0) {
            peerRefs.remove(key);
            int id = peerIds.remove(key);
            device.delete(UpfGtpTunnelPeer.builder().withTunnelPeerId(id).withSrcAddr(tunnel.src())
                                  .withDstAddr(tunnel.dst()).withSrcPort(port(tunnel)).build());
        }
    }

    private void uninstall(PdrKey key, HupfUpfDevice device) throws UpfProgrammableException {
        List<UpfEntity> entities = installed.remove(key);
        if (entities == null) {
            return;
        }
        for (UpfEntity e : entities) {
            // Tunnel peers are shared: they go when their last user goes.
            if (!(e instanceof UpfGtpTunnelPeer)) {
                device.delete(e);
            }
        }
        releasePeer(key, device);
    }

    private static long unsigned(ImmutableByteSequence teid) {
        long v = 0;
        for (byte b : teid.asArray()) {
            v = (v << 8) | (b & 0xFF);
        }
        if ((v >>> 32) != 0) {
            throw new IllegalArgumentException("TEID " + teid + " is wider than 32 bits");
        }
        return v;
    }

    private static int port(GtpTunnel t) {
        return t.srcPort() == null ? UpfGtpTunnelPeer.GTPU_PORT : Short.toUnsignedInt(t.srcPort());
    }

    /** A PDR's identity on the device: (tunnel dst, TEID) uplink, UE address downlink. */
    private static final class PdrKey {
        private final Object a;
        private final Object b;

        private PdrKey(Object a, Object b) {
            this.a = a;
            this.b = b;
        }

        static PdrKey of(PacketDetectionRule pdr) {
            return pdr.matchesEncapped() ? new PdrKey(pdr.tunnelDest(), pdr.teid()) : new PdrKey(pdr.ueAddress(), null);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PdrKey && Objects.equals(a, ((PdrKey) o).a) && Objects.equals(b, ((PdrKey) o).b);
        }

        @Override
        public int hashCode() {
            return Objects.hash(a, b);
        }
    }

    /** FAR ids are local to a PFCP session. */
    private static final class FarKey {
        private final ImmutableByteSequence session;
        private final int farId;

        private FarKey(ImmutableByteSequence session, int farId) {
            this.session = session;
            this.farId = farId;
        }

        static FarKey of(ImmutableByteSequence session, int farId) {
            return new FarKey(session, farId);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FarKey && farId == ((FarKey) o).farId && Objects.equals(session, ((FarKey) o).session);
        }

        @Override
        public int hashCode() {
            return Objects.hash(session, farId);
        }
    }

    /** Tunnel peers are shared by every PDR whose FAR encapsulates with the same outer header. */
    private static final class PeerKey {
        private final Object src;
        private final Object dst;
        private final int port;

        private PeerKey(Object src, Object dst, int port) {
            this.src = src;
            this.dst = dst;
            this.port = port;
        }

        static PeerKey of(GtpTunnel t) {
            return new PeerKey(t.src(), t.dst(), port(t));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PeerKey && port == ((PeerKey) o).port && Objects.equals(src, ((PeerKey) o).src)
                    && Objects.equals(dst, ((PeerKey) o).dst);
        }

        @Override
        public int hashCode() {
            return Objects.hash(src, dst, port);
        }
    }
}

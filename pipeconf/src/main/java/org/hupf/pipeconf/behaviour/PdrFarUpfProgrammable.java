package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.pdrfar.PdrFarState;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.PiUpfDevice;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.ForwardingActionRule;
import org.onosproject.net.behaviour.upf.PacketDetectionRule;
import org.onosproject.net.behaviour.upf.PdrStats;
import org.onosproject.net.behaviour.upf.UpfInterface;
import org.onosproject.net.behaviour.upf.UpfProgrammable;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static org.hupf.pipeconf.HupfConstants.HUPF_EGRESS_UPF_GTPU_ENCAP;
import static org.hupf.pipeconf.HupfConstants.HUPF_EGRESS_UPF_GTPU_ONLY;
import static org.hupf.pipeconf.HupfConstants.HUPF_EGRESS_UPF_GTPU_WITH_PSC;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNSUPPORTED_OPERATION;

/**
 * ONOS 2.7's {@code UpfProgrammable} (PDR/FAR) on hupf devices, so that apps written for that API work
 * here. PDRs and FARs are joined into hupf entities by {@link PdrFarState} (mapping documented there) and
 * written through the same translator as {@link HupfUpfProgrammable}.
 */
public class PdrFarUpfProgrammable extends HupfP4RuntimeBehaviour implements UpfProgrammable {

    /** Behaviour instances are created per call: the PDR/FAR join lives per device. */
    private static final ConcurrentMap<DeviceId, PdrFarState> STATES = new ConcurrentHashMap<>();

    private static final Set<UpfEntityType> FLOW_TYPES = Set.of(
            UpfEntityType.SESSION_UPLINK, UpfEntityType.SESSION_DOWNLINK, UpfEntityType.TERMINATION_UPLINK,
            UpfEntityType.TERMINATION_DOWNLINK, UpfEntityType.TUNNEL_PEER);

    private PdrFarState state() {
        return STATES.computeIfAbsent(handler().data().deviceId(), d -> new PdrFarState());
    }

    @Override
    public boolean init() {
        return setupBehaviour("init()");
    }

    @Override
    public boolean fromThisUpf(FlowRule rule) {
        return rule.appId() == handler().get(CoreService.class).registerApplication(APP_NAME).id();
    }

    @Override
    public void cleanUp() {
        clearFlows();
        clearInterfaces();
    }

    @Override
    public void clearInterfaces() {
        try {
            upfDevice("clearInterfaces").deleteAll(UpfEntityType.INTERFACE);
        } catch (UpfProgrammableException e) {
            log.warn("Cannot clear interfaces of {}: {}", deviceId, e.getMessage());
        }
    }

    @Override
    public void clearFlows() {
        try {
            PiUpfDevice device = upfDevice("clearFlows");
            for (UpfEntityType t : FLOW_TYPES) {
                device.deleteAll(t);
            }
        } catch (UpfProgrammableException e) {
            log.warn("Cannot clear flows of {}: {}", deviceId, e.getMessage());
        }
        state().clear();
    }

    @Override
    public Collection<ForwardingActionRule> getFars() {
        return state().fars();
    }

    @Override
    public Collection<PacketDetectionRule> getPdrs() {
        return state().pdrs();
    }

    @Override
    public Collection<UpfInterface> getInterfaces() throws UpfProgrammableException {
        List<UpfInterface> out = new ArrayList<>();
        for (Object o : upfDevice("getInterfaces").readAll(UpfEntityType.INTERFACE)) {
            org.hupf.pipeconf.api.UpfInterface i = (org.hupf.pipeconf.api.UpfInterface) o;
            UpfInterface.Builder b = UpfInterface.builder().setPrefix(i.prefix());
            out.add(i.isAccess() ? b.setAccess().build() : b.setCore().build());
        }
        return out;
    }

    @Override
    public void addPdr(PacketDetectionRule pdr) throws UpfProgrammableException {
        state().addPdr(pdr, upfDevice("addPdr"));
    }

    @Override
    public void removePdr(PacketDetectionRule pdr) throws UpfProgrammableException {
        state().removePdr(pdr, upfDevice("removePdr"));
    }

    @Override
    public void addFar(ForwardingActionRule far) throws UpfProgrammableException {
        state().addFar(far, upfDevice("addFar"));
    }

    @Override
    public void removeFar(ForwardingActionRule far) throws UpfProgrammableException {
        state().removeFar(far, upfDevice("removeFar"));
    }

    @Override
    public void addInterface(UpfInterface iface) throws UpfProgrammableException {
        upfDevice("addInterface").apply(toHupf(iface));
    }

    @Override
    public void removeInterface(UpfInterface iface) throws UpfProgrammableException {
        upfDevice("removeInterface").delete(toHupf(iface));
    }

    /** ONOS's access/core interfaces are hupf's, in slice 0; hupf buffers in the controller, not in dbuf. */
    static org.hupf.pipeconf.api.UpfInterface toHupf(UpfInterface iface) throws UpfProgrammableException {
        if (iface.isDbufReceiver()) {
            throw new UpfProgrammableException("hupf has no dbuf: buffering is a DOWNLINK_BUFFER packet-in",
                                               UNSUPPORTED_OPERATION);
        }
        return org.hupf.pipeconf.api.UpfInterface.builder().setPrefix(iface.prefix())
                .setType(iface.isAccess() ? org.hupf.pipeconf.api.UpfInterface.Type.ACCESS
                                 : org.hupf.pipeconf.api.UpfInterface.Type.CORE).build();
    }

    @Override
    public PdrStats readCounter(int counterIdx) throws UpfProgrammableException {
        return stats(upfDevice("readCounter").readCounter(counterIdx));
    }

    @Override
    public long pdrCounterSize() {
        return size(UpfEntityType.COUNTER);
    }

    /** Every FAR becomes one termination. */
    @Override
    public long farTableSize() {
        return size(UpfEntityType.TERMINATION_UPLINK) + size(UpfEntityType.TERMINATION_DOWNLINK);
    }

    /** Every PDR becomes one session. */
    @Override
    public long pdrTableSize() {
        return size(UpfEntityType.SESSION_UPLINK) + size(UpfEntityType.SESSION_DOWNLINK);
    }

    private long size(UpfEntityType type) {
        try {
            return upfDevice("tableSize").tableSize(type);
        } catch (UpfProgrammableException e) {
            log.warn("No size of {} on {}: {}", type, deviceId, e.getMessage());
            return 0;
        }
    }

    @Override
    public Collection<PdrStats> readAllCounters(long maxCounterId) throws UpfProgrammableException {
        List<PdrStats> out = new ArrayList<>();
        for (UpfCounter c : upfDevice("readAllCounters").readCounters(maxCounterId)) {
            out.add(stats(c));
        }
        return out;
    }

    private static PdrStats stats(UpfCounter c) {
        return PdrStats.builder().withCellId(c.cellId()).setIngress(c.ingressPkts(), c.ingressBytes())
                .setEgress(c.egressPkts(), c.egressBytes()).build();
    }

    /** The QFI itself is per termination; the default QFI is used for PDRs that push none. */
    @Override
    public void enablePscEncap(int defaultQfi) throws UpfProgrammableException {
        state().setDefaultQfi(defaultQfi);
        setEncap(HUPF_EGRESS_UPF_GTPU_WITH_PSC);
    }

    @Override
    public void disablePscEncap() throws UpfProgrammableException {
        state().setDefaultQfi(0);
        setEncap(HUPF_EGRESS_UPF_GTPU_ONLY);
    }

    private void setEncap(org.onosproject.net.pi.model.PiActionId action) throws UpfProgrammableException {
        PiTableEntry entry = PiTableEntry.builder().forTable(HUPF_EGRESS_UPF_GTPU_ENCAP)
                .withMatchKey(PiMatchKey.EMPTY).withAction(PiAction.builder().withId(action).build()).build();
        try {
            piTarget("setEncap").write(List.of(entry));
        } catch (PiTargetException e) {
            throw new UpfProgrammableException("cannot set " + action + ": " + e.getMessage());
        }
    }

    /**
     * hupf's packet-out leaves by a given port without UPF processing, so a buffered downlink packet
     * cannot be re-injected into the pipeline this way: the app sends it to the core side instead.
     */
    @Override
    public void sendPacketOut(ByteBuffer data) throws UpfProgrammableException {
        throw new UpfProgrammableException("hupf packet-out bypasses the UPF tables: send buffered packets "
                                                   + "to the UE pool through the core port", UNSUPPORTED_OPERATION);
    }
}

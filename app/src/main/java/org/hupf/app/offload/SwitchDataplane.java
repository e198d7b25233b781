package org.hupf.app.offload;

import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the switch needs beyond sessions, from hupf's netcfg, as the lab runner programs it: the ports that
 * lead to backends and the slice's steering of session misses over the live ones (UE-address hash), and the
 * HK-IPG detector's parameters with the tau table for the offload threshold. Every live backend holds every
 * session, so a backend's UEs move to the others when it goes, and share it again when it comes back, by the
 * steering alone.
 */
final class SwitchDataplane {

    private SwitchDataplane() {
    }

    /**
     * Programs a switch's data-plane configuration.
     *
     * @param dp       the switch's data-plane configuration behaviour
     * @param switchId the switch
     * @param cfg      hupf's (valid) netcfg
     * @param live     the backend devices that hold the sessions now
     * @return the backends the slice's misses are steered to
     * @throws UpfProgrammableException if the switch refuses an entry
     */
    static List<Backend> program(HupfDataplaneConfig dp, DeviceId switchId, HupfConfig cfg, Set<DeviceId> live)
            throws UpfProgrammableException {
        List<Backend> backends = new ArrayList<>();
        List<Long> ports = new ArrayList<>();
        for (HupfConfig.BackendPort p : cfg.backendPorts()) {
            if (p.switchId.equals(switchId)) {
                // A backend port stays one while its backend is down: what it sends when back is still its.
                ports.add(p.port);
                if (live.contains(p.backendId)) {
                    backends.add(new Backend(p.port, MacAddress.valueOf(p.mac), p.weight));
                }
            }
        }
        dp.setBackendPorts(ports);
        dp.setBackends(cfg.sliceId(), backends);
        dp.configureHh(cfg.hhConfig());
        return backends;
    }

    /**
     * Writes the netcfg's RPS configuration to a switch. Without an {@code rps} block nothing is written until one
     * was (the pipeline's default is off, and a target that cannot sample is not asked to); once one was, its
     * removal writes RPS off.
     *
     * @param dp      the switch's data-plane configuration behaviour
     * @param cfg     hupf's (valid) netcfg
     * @param written what was written to this switch since it was taken over, null if nothing
     * @return what the switch holds now, null if nothing was written
     * @throws UpfProgrammableException if a value does not fit the pipeline or the switch refuses an entry
     */
    static RpsConfig programRps(HupfDataplaneConfig dp, HupfConfig cfg, RpsConfig written)
            throws UpfProgrammableException {
        RpsConfig wanted = cfg.rps().config();
        if (wanted.equals(RpsConfig.OFF) && written == null) {
            return null;
        }
        dp.setRps(wanted);
        return wanted;
    }

    /**
     * What the netcfg's RPS settings cannot serve on this switch's pipeline ({@link
     * org.hupf.core.rps.RpsSettings#trackerWarnings}: a buffer its tracker cannot follow).
     *
     * @param dp  the switch's data-plane configuration behaviour
     * @param cfg hupf's (valid) netcfg
     * @return warnings; none for a pipeline without RPS
     * @throws UpfProgrammableException if the switch's RPS cannot be read
     */
    static List<String> rpsWarnings(HupfDataplaneConfig dp, HupfConfig cfg) throws UpfProgrammableException {
        return dp.readRps().map(st -> cfg.rps().trackerWarnings(st.bufferSize(), st.trackDepth()))
                .orElse(List.of());
    }
}

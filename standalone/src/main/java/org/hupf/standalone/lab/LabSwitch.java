package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.core.rps.RpsIntake;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.upf.HupfDataplane;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.standalone.p4rt.DeviceState;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The lab's switch beyond its UPF tables: its data-plane configuration (CPU port, HK-IPG, the backends' ports,
 * RPS), the steering of the slice's misses over the backends that are up, and what the status reads of it.
 * Without a switch it steers nothing.
 */
final class LabSwitch {

    private final LabConfig cfg;
    /** The switch, or null when the lab has none. */
    private final P4RuntimeUpfDevice device;
    /** The lab's backends, in the config's order (steered to while UP and not leaving). */
    private final List<LabBackend> backends;
    private final RpsIntake rps;
    /** Told where misses go, once the status exists. */
    private volatile LabStatus status;

    LabSwitch(LabConfig cfg, P4RuntimeUpfDevice device, List<LabBackend> backends, RpsIntake rps) {
        this.cfg = cfg;
        this.device = device;
        this.backends = backends;
        this.rps = rps;
    }

    /** @return true when the lab has a switch */
    boolean present() {
        return device != null;
    }

    /**
     * HH reports reach the CPU (clone session), HK-IPG runs with parameters derived from the lab's threshold
     * (HhConfig: IPG_th, timeslot, tau table), session misses of the slice go to the backends' ports (UE hash, by
     * weight), and what comes back from those ports is routed only.
     */
    void configure() throws Exception {
        HupfDataplane dp = dataplane();
        dp.setCpuPort(cfg.number("switch", "cpu_port"));
        JsonNode hh = cfg.node("hh");
        dp.configureHh(HhConfig.builder().tauTh(hh.get("tau_th").asInt()).decayK(hh.get("decay_k").asLong())
                               .alphaShift(hh.get("alpha_shift").asInt())
                               .keyMode(hh.get("key_mode").asInt()).timeWindowUs(hh.get("tw_us").asLong())
                               .hhThresholdBps(cfg.node("policy", "threshold_bps").asLong())
                               .packetBytes(hh.get("packet_bytes").asInt()).build());
        List<Long> ports = new ArrayList<>();
        backends.forEach(b -> ports.add(b.steering.port()));
        dp.setBackendPorts(ports);
        steer();
        // RPS after the UPF's own configuration, and only when the config asks for it (a switch that cannot sample
        // is not asked to): a value beyond the pipeline stops the lab with its message.
        if (cfg.has("rps")) {
            dp.setRps(rps.settings().config());
            System.out.println("lab runner: switch " + rps.settings().config());
            Optional<RpsState> st = dp.readRps();
            if (st.isPresent()) {
                rps.settings().trackerWarnings(st.get().bufferSize(), st.get().trackDepth())
                        .forEach(w -> System.out.println("lab runner: switch RPS warning: " + w));
            }
        }
    }

    /**
     * Steers the slice's misses over the backends that are UP (all of them hold every session); while none is,
     * the steering stays as it was.
     *
     * @return true when the switch took the steering
     */
    synchronized boolean steer() {
        if (device == null) {
            return false;
        }
        List<Backend> live = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (LabBackend b : backends) {
            if (b.state() == DeviceState.UP && !b.leaving) {
                live.add(b.steering);
                names.add(b.name);
            }
        }
        if (live.isEmpty()) {
            System.err.println("lab runner: no backend up: steering left as it was");
            return false;
        }
        try {
            dataplane().setBackends((int) cfg.number("slice"), live);
            LabStatus s = status;
            if (s != null) {
                s.steeredTo(names);
            }
            System.out.println("lab runner: misses steered to " + names);
            return true;
        } catch (PiCodecException | PiTargetException | RuntimeException e) {
            System.err.println("lab runner: steering to " + names + " failed: " + e);
            return false;
        }
    }

    /**
     * Reports to the status from now on: its health, where misses go, and, as the config asks, its RPS counters
     * and what it counted for each tenant and slice (the lab checks them against what was sent).
     */
    void reportTo(LabStatus labStatus) {
        this.status = labStatus;
        if (device == null) {
            return;
        }
        labStatus.health("switch", device.client());
        if (cfg.has("rps")) {
            labStatus.switchRps(() -> {
                try {
                    return dataplane().readRps();
                } catch (PiCodecException | PiTargetException e) {
                    throw new UpfProgrammableException(e.getMessage());
                }
            });
        }
        if (cfg.has("tenants")) {
            labStatus.switchTenants(Routes.tenants(cfg.node("tenants")), new LabStatus.TenantCounters() {
                @Override
                public Map<Integer, long[]> tenants() throws PiTargetException {
                    return dataplane().tenantCounters();
                }

                @Override
                public Map<Long, long[]> slices(Collection<Long> cells) throws PiTargetException {
                    return dataplane().sliceCounters(cells);
                }
            });
        }
    }

    private HupfDataplane dataplane() {
        return new HupfDataplane(device.model(), device.target());
    }
}

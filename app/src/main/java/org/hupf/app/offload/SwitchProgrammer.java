package org.hupf.app.offload;

import org.hupf.core.offload.Hybrid;
import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Programs the hybrid's switch from the netcfg: steering to the backends that are not being drained, HK-IPG, and
 * RPS. Runs on the ONOS component's thread.
 */
final class SwitchProgrammer {

    private static final Logger log = LoggerFactory.getLogger(SwitchProgrammer.class);

    private final Supplier<HupfConfig> config;
    private final Function<DeviceId, Device> devices;
    private final DistributedBackendDrains drains;
    private final long retryS;

    /**
     * @param config  hupf's netcfg when it is there and valid, else null
     * @param devices ONOS's device of an id
     * @param drains  the backends' drain marks
     * @param retryS  how often a switch that refused its configuration is programmed again (for the log)
     */
    SwitchProgrammer(Supplier<HupfConfig> config, Function<DeviceId, Device> devices,
                     DistributedBackendDrains drains, long retryS) {
        this.config = config;
        this.devices = devices;
        this.drains = drains;
        this.retryS = retryS;
    }

    /**
     * Steering to the backends and HK-IPG from the netcfg onto the hybrid's switch (again on every netcfg
     * change, and every few seconds until it succeeds; the running offload manager keeps the policy it was built
     * with).
     */
    void program(Hybrid h) {
        HupfConfig cfg = config.get();
        if (h == null || cfg == null) {
            return;
        }
        Device sw = h.switchId == null ? null : devices.apply(h.switchId);
        if (sw == null || !sw.is(HupfDataplaneConfig.class)) {
            if (h.switchId != null) {
                log.warn("Switch {} has no hupf data-plane configuration: no steering to backends, P4 HK-IPG "
                                 + "defaults", h.switchId);
            }
            h.switchProgrammed = true;
            return;
        }
        try {
            // A draining backend still holds every session: only the steering leaves it.
            Set<DeviceId> live = h.backendIds.stream()
                    .filter(id -> !drains.is(id.toString(), DistributedBackendDrains.DRAINING))
                    .collect(Collectors.toUnmodifiableSet());
            log.info("Switch {}: misses steered to {}, HK-IPG {}", h.switchId,
                     SwitchDataplane.program(sw.as(HupfDataplaneConfig.class), h.switchId, cfg, live),
                     cfg.hhConfig());
            h.steeredTo = cfg.backendPorts().stream()
                    .filter(p -> p.switchId.equals(h.switchId) && live.contains(p.backendId))
                    .map(p -> p.backendId.toString()).distinct().sorted().collect(Collectors.toList());
            h.switchProgrammed = true;
        } catch (UpfProgrammableException | RuntimeException e) {
            h.switchProgrammed = false;
            log.error("Cannot configure switch {}: {}; trying again in {} s", h.switchId, e.getMessage(), retryS);
        }
        programRps(h, sw, cfg);
    }

    /**
     * The netcfg's RPS configuration onto the switch (or the backend playing it), when the netcfg changes and when
     * the switch is taken over (again): never periodically, and a failure (a flow id or buffer length beyond the
     * pipeline's) leaves the rest of the switch's configuration alone.
     */
    private void programRps(Hybrid h, Device sw, HupfConfig cfg) {
        RpsConfig before = h.rpsWritten;
        HupfDataplaneConfig dp;
        try {
            dp = sw.as(HupfDataplaneConfig.class);
            h.rpsWritten = SwitchDataplane.programRps(dp, cfg, before);
        } catch (UpfProgrammableException | RuntimeException e) {
            log.error("Switch {}: RPS not configured: {}", sw.id(), e.getMessage());
            return;
        }
        if (h.rpsWritten == null || h.rpsWritten.equals(before)) {
            return;
        }
        log.info("Switch {}: {}", sw.id(), h.rpsWritten);
        try {
            for (String w : SwitchDataplane.rpsWarnings(dp, cfg)) {
                log.warn("Switch {}: RPS: {}", sw.id(), w);
            }
        } catch (UpfProgrammableException | RuntimeException e) {
            log.warn("Switch {}: RPS written, its tracker not checked (sizes unreadable): {}", sw.id(), e.getMessage());
        }
    }
}

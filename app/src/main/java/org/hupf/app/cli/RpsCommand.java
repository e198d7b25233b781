package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.RpsService;
import org.hupf.api.RpsStatus;
import org.hupf.pipeconf.dataplane.RpsState;

import java.util.Map;
import java.util.TreeMap;

import static org.hupf.pipeconf.HupfConstants.RPS_EVENTS;
import static org.hupf.pipeconf.HupfConstants.RPS_POINTS;

/**
 * Shows Retroactive Packet Sampling: the settings in force, the export to the monitor, and each device's
 * {@code rps.events} per observation point with its pipeline's sizes and the settings' warnings for it.
 */
@Service
@Command(scope = "hupf", name = "rps",
        description = "Shows RPS: settings, export counts, and each device's events per observation point")
public class RpsCommand extends HupfCommand {

    @Argument(name = "device", description = "only this device's counters (its id)")
    String device;

    /** @return the RPS service (a method so tests can supply one) */
    protected RpsService rps() {
        return get(RpsService.class);
    }

    @Override
    protected void doExecute() {
        RpsStatus s = rps().status();
        if (device != null && !s.devices.containsKey(device)) {
            error("device %s has no RPS counters here (devices: %s)", device,
                  String.join(", ", new TreeMap<>(s.devices).keySet()));
            return;
        }
        print("mode=%s settings=%s", s.mode, s.settings);
        StringBuilder export = new StringBuilder(String.format("export records=%d malformed=%d notExported=%d",
                                                               s.records, s.malformed, s.notExported));
        RpsStatus.Exporter e = s.exporter;
        if (e != null) {
            export.append(String.format(" monitor=%s offered=%d queued=%d sent=%d datagrams=%d dropped=%d sendErrors=%d",
                                        e.monitor, e.offered, e.queued, e.sent, e.datagrams, e.dropped, e.sendErrors));
        }
        print("%s", export);
        Map<String, RpsStatus.Device> shown = device == null ? new TreeMap<>(s.devices)
                : Map.of(device, s.devices.get(device));
        for (Map.Entry<String, RpsStatus.Device> d : shown.entrySet()) {
            RpsStatus.Device dev = d.getValue();
            if (dev.state == null) {
                print("%s error(%s)", d.getKey(), dev.error);
                continue;
            }
            RpsState st = dev.state;
            print("%s bufferSize=%d flows=%d trackDepth=%d", d.getKey(), st.bufferSize(), st.flows(),
                  st.trackDepth());
            for (int p = 0; p < RPS_POINTS; p++) {
                StringBuilder line = new StringBuilder("  ").append(RpsState.POINT_NAMES.get(p));
                for (int ev = 0; ev < RPS_EVENTS; ev++) {
                    line.append(' ').append(RpsState.EVENT_NAMES.get(ev)).append('=').append(st.event(p, ev));
                }
                print("%s", line);
            }
            dev.warnings.forEach(w -> print("  warning: %s", w));
        }
    }
}

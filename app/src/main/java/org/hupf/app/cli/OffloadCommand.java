package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadService;
import org.hupf.pipeconf.api.UpfEntityType;

import java.util.Map;

/**
 * Shows the offload manager: its backends (steered to, draining, drained), sessions on the switch, HH reports,
 * switch table occupancy, bytes per path.
 */
@Service
@Command(scope = "hupf", name = "offload", description = "Shows heavy-hitter offload state and metrics")
public class OffloadCommand extends HupfCommand {

    /** @return the offload service (a method so tests can supply one) */
    protected OffloadService offload() {
        return get(OffloadService.class);
    }

    @Override
    protected void doExecute() {
        OffloadMetrics m = offload().metrics();
        if (m == null) {
            print("no hupf backend available");
            return;
        }
        print("backends %s", String.join(" ", offload().backends()));
        print("steered_to %s", String.join(" ", offload().steeredTo()));
        offload().drains().forEach((backend, state) -> print("%s %s", state.toLowerCase(), backend));
        print("sessions=%d offloaded=%d hh_reports=%d hh_reports_per_sec=%.2f", m.sessions(), m.offloaded(),
              m.hhReports(), m.hhReportsPerSec());
        print("promotions=%d demotions=%d evictions=%d rejections=%d", m.promotions(), m.demotions(),
              m.evictions(), m.rejections());
        print("bytes hardware=%d software=%d hardware_share=%.1f%%", m.hwBytes(), m.swBytes(), 100 * m.hwShare());
        for (Map.Entry<UpfEntityType, long[]> e : m.occupancy().entrySet()) {
            print("switch %s %d/%d", e.getKey().humanReadableName(), e.getValue()[0], e.getValue()[1]);
        }
        offload().offloaded().forEach(ue -> print("offloaded %s", ue));
    }
}

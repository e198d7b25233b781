package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.OffloadBySite;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadService;
import org.hupf.api.SiteStatus;
import org.hupf.pipeconf.api.UpfEntityType;

import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Shows the offload manager: its backends (steered to, draining, drained), sessions on the switch, HH reports,
 * switch table occupancy, bytes per path; summed over the sites, then each site's own lines (prefixed
 * {@code site ID}) where the netcfg names sites, or only one site's with {@code --site}.
 */
@Service
@Command(scope = "hupf", name = "offload", description = "Shows heavy-hitter offload state and metrics, per site")
public class OffloadCommand extends HupfCommand {

    @Option(name = "--site", aliases = "-s", description = "only this site of the netcfg")
    String site;

    /** @return the offload service (a method so tests can supply one) */
    @Override
    protected OffloadService offload() {
        return get(OffloadService.class);
    }

    @Override
    protected void doExecute() {
        List<SiteStatus> sites = service().sites();
        OffloadBySite view;
        try {
            view = OffloadBySite.of(offload(), sites, site);
        } catch (NoSuchElementException e) {
            error("%s", e.getMessage());
            return;
        }
        OffloadMetrics total = view.total();
        if (total == null) {
            print("no hupf backend available%s", site == null ? "" : " at site " + site);
            return;
        }
        if (site == null) {
            show("", total, view.hybrids().values());
        }
        view.backends().stream().filter(b -> b.state.startsWith("DRAIN"))
                .forEach(b -> print("%s %s%s", b.state.toLowerCase(), b.id, b.site == null ? "" : " site=" + b.site));
        if (site != null || !sites.isEmpty()) {
            view.hybrids().forEach((id, h) -> show("site " + id + " ", h.metrics, List.of(h)));
        }
    }

    /** Prints metrics, backends and offloaded UEs, each line after {@code prefix}. */
    private void show(String prefix, OffloadMetrics m, Iterable<OffloadService.SiteHybrid> sites) {
        StringBuilder backends = new StringBuilder();
        StringBuilder steered = new StringBuilder();
        for (OffloadService.SiteHybrid h : sites) {
            h.backendsUp.forEach(b -> backends.append(' ').append(b));
            h.steeredTo.forEach(b -> steered.append(' ').append(b));
        }
        print("%sbackends%s", prefix, backends);
        print("%ssteered_to%s", prefix, steered);
        print("%ssessions=%d offloaded=%d hh_reports=%d hh_reports_per_sec=%.2f", prefix, m.sessions(),
              m.offloaded(), m.hhReports(), m.hhReportsPerSec());
        print("%spromotions=%d demotions=%d evictions=%d rejections=%d", prefix, m.promotions(), m.demotions(),
              m.evictions(), m.rejections());
        print("%sbytes hardware=%d software=%d hardware_share=%.1f%%", prefix, m.hwBytes(), m.swBytes(),
              100 * m.hwShare());
        for (Map.Entry<UpfEntityType, long[]> e : m.occupancy().entrySet()) {
            print("%sswitch %s %d/%d", prefix, e.getKey().humanReadableName(), e.getValue()[0], e.getValue()[1]);
        }
        for (OffloadService.SiteHybrid h : sites) {
            h.offloadedUes.forEach(ue -> print("%soffloaded %s", prefix, ue));
        }
    }
}

package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.SiteStatus;

import java.util.List;

/**
 * Shows the UPF sites of hupf's netcfg: each site's switch and backends, what places a session there, and the
 * sessions placed there now; where this node drives the site's hybrid, the sessions offloaded to its switch and its
 * backends up.
 */
@Service
@Command(scope = "hupf", name = "sites",
        description = "Shows the UPF sites: switch, backends, gNBs, N3 Network Instances and addresses, sessions")
public class SitesCommand extends HupfCommand {

    @Override
    protected void doExecute() {
        List<SiteStatus> sites = SiteStatus.withHybrids(service().sites(), offload());
        if (sites.isEmpty()) {
            print("one implicit site: the netcfg names no sites (every device, every gNB)");
            return;
        }
        for (SiteStatus s : sites) {
            print("site=%s switch=%s backends=%s gnbs=%s n3NetworkInstances=%s n3Addresses=%s sessions=%d%s",
                  s.siteId, s.switchId == null ? "none" : s.switchId, String.join(",", s.backends),
                  String.join(",", s.gnbs), String.join(",", s.n3NetworkInstances),
                  String.join(",", s.n3Addresses), s.sessions, s.offloaded == null ? ""
                          : String.format(" offloaded=%d backendsUp=%s", s.offloaded, String.join(",", s.backendsUp)));
        }
    }
}

package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.pipeconf.api.UpfCounter;

import java.util.Map;

/**
 * Shows a session's counters per PDR, summed over switch and backend.
 */
@Service
@Command(scope = "hupf", name = "counters", description = "Shows a session's counters per PDR")
public class CountersCommand extends HupfCommand {

    @Argument(name = "upSeid", description = "UP SEID of the session", required = true)
    @Completion(SessionIdCompleter.class)
    String upSeid;

    @Override
    protected void doExecute() {
        try {
            long id = seid(upSeid);
            if (service().session(id) == null) {
                error("no session %s", upSeid);
                return;
            }
            for (Map.Entry<Integer, UpfCounter> e : service().sessionCounters(id).entrySet()) {
                UpfCounter c = e.getValue();
                print("pdr=%d cell=%d ingress=%d pkts/%d bytes egress=%d pkts/%d bytes", e.getKey(), c.cellId(),
                      c.ingressPkts(), c.ingressBytes(), c.egressPkts(), c.egressBytes());
            }
        } catch (IllegalArgumentException e) {
            error("%s", e.getMessage());
        }
    }
}

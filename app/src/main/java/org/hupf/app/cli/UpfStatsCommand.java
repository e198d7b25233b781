package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;

/**
 * Shows hupf's activity counters: sessions, entities, device errors, PFCP messages by type and drops.
 */
@Service
@Command(scope = "hupf", name = "upf-stats", description = "Shows hupf's activity counters")
public class UpfStatsCommand extends HupfCommand {

    @Override
    protected void doExecute() {
        service().stats().forEach((k, v) -> print("%s=%d", k, v));
    }
}

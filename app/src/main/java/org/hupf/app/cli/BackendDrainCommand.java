package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.OffloadService;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

/**
 * A backend's planned removal, drained first (as {@code POST /onos/hupf/backends/ID/drain}), or its return.
 */
@Service
@Command(scope = "hupf", name = "backend-drain",
        description = "Drains a backend for a planned removal (its UEs steered to the others, its counts read until "
                + "still, then it leaves: it may stop without loss), or restores a drained one")
public class BackendDrainCommand extends HupfCommand {

    @Argument(name = "backend", description = "the backend's device id", required = true)
    String backend;

    @Option(name = "--restore", aliases = "-r", description = "return a drained backend to service instead")
    boolean restore;

    @Option(name = "--quiet-ms", description = "how long its counts must stay still, ms (default "
            + OffloadService.DRAIN_QUIET_MS + ")")
    long quietMs = OffloadService.DRAIN_QUIET_MS;

    @Option(name = "--max-ms", description = "how long to wait for that at most, ms (default "
            + OffloadService.DRAIN_MAX_MS + ")")
    long maxMs = OffloadService.DRAIN_MAX_MS;

    /** @return the offload service (a method so tests can supply one) */
    protected OffloadService offload() {
        return get(OffloadService.class);
    }

    @Override
    protected void doExecute() {
        try {
            if (restore) {
                if (offload().restore(backend)) {
                    print("%s restored: its sessions reconciled, then steered to", backend);
                } else {
                    error("%s is not drained", backend);
                }
                return;
            }
            print("%s drained: %s; it may stop", backend, offload().drain(backend, quietMs, maxMs).summary());
        } catch (IllegalArgumentException | IllegalStateException | UpfProgrammableException e) {
            error("%s", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error("interrupted: %s is steered to again", backend);
        }
    }
}

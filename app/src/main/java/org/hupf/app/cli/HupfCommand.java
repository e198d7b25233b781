package org.hupf.app.cli;

import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.onlab.osgi.ServiceNotFoundException;
import org.onosproject.cli.AbstractShellCommand;

/**
 * Base of the {@code hupf:} commands: the service lookup is a method so tests can supply the service.
 */
public abstract class HupfCommand extends AbstractShellCommand {

    // Redeclared here so the commands' package (and its tests) can run them without Karaf's audit.
    @Override
    protected abstract void doExecute() throws Exception;

    /** @return the hupf service */
    protected HupfService service() {
        return get(HupfService.class);
    }

    /** @return the offload service, null on a node that has none (a method so tests can supply one) */
    protected OffloadService offload() {
        try {
            return get(OffloadService.class);
        } catch (ServiceNotFoundException e) {
            return null;
        }
    }

    /**
     * Parses a UP SEID argument.
     *
     * @param s argument
     * @return SEID
     * @throws IllegalArgumentException with a message the shell prints
     */
    static long seid(String s) {
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SEID " + s + " is not an unsigned 64-bit number");
        }
    }
}

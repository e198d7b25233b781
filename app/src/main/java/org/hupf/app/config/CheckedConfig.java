package org.hupf.app.config;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;

/**
 * A netcfg block whose validity is whatever its parser says: ONOS asks {@link #isValid()} before it stores a
 * block, and the parser's message is kept for the answer and the log.
 */
abstract class CheckedConfig extends Config<ApplicationId> {

    private String error;

    /** @throws IllegalArgumentException naming what is wrong */
    protected abstract void check();

    @Override
    public final boolean isValid() {
        error = null;
        try {
            check();
            return true;
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
            return false;
        }
    }

    /** @return why the last {@link #isValid()} failed, or null */
    public final String error() {
        return error;
    }
}

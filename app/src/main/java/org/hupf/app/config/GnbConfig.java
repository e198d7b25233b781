package org.hupf.app.config;

import org.hupf.core.config.GnbsParser;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;

import java.util.List;

/**
 * The gNB switches hupf programs ({@code apps.org.hupf.app.gnb}): the RAN control plane's stand-in, parsed by
 * {@link GnbsParser}. Example: docs/GNB.md, "Control from ONOS".
 */
public final class GnbConfig extends Config<ApplicationId> {

    public static final String KEY = "gnb";

    private String error;

    @Override
    public boolean isValid() {
        error = null;
        try {
            gnbs();
            return true;
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
            return false;
        }
    }

    /** @return why the last {@link #isValid()} failed, or null */
    public String error() {
        return error;
    }

    /**
     * @return the gNB switches, in the order given
     * @throws IllegalArgumentException naming the entry and field that is wrong
     */
    public List<GnbsParser.Gnb> gnbs() {
        return GnbsParser.gnbs(object);
    }
}

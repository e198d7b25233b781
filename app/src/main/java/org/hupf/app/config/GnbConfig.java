package org.hupf.app.config;

import org.hupf.core.config.GnbsParser;

import java.util.List;

/**
 * The gNB switches hupf programs ({@code apps.org.hupf.app.gnb}): the RAN control plane's stand-in, parsed by
 * {@link GnbsParser}. Example: docs/GNB.md, "Control from ONOS".
 */
public final class GnbConfig extends CheckedConfig {

    public static final String KEY = "gnb";

    @Override
    protected void check() {
        gnbs();
    }

    /**
     * @return the gNB switches, in the order given
     * @throws IllegalArgumentException naming the entry and field that is wrong
     */
    public List<GnbsParser.Gnb> gnbs() {
        return GnbsParser.gnbs(object);
    }
}

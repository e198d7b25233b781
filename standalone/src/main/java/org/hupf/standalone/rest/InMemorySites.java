package org.hupf.standalone.rest;

import org.hupf.core.device.InMemoryUpfDevice;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The standalone host's in-memory device of each site ({@code --sites}): a site's sessions are written to its own
 * device only, as in ONOS to its own switch and backends. Without sites, the one device under the implicit site.
 */
public final class InMemorySites {

    private final Map<String, InMemoryUpfDevice> bySite;

    /** @param bySite each site's device, in the sites' order */
    public InMemorySites(Map<String, InMemoryUpfDevice> bySite) {
        this.bySite = new LinkedHashMap<>(bySite);
    }

    /** @return each site's device, in the sites' order */
    public Map<String, InMemoryUpfDevice> devices() {
        return bySite;
    }
}

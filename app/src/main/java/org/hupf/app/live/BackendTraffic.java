package org.hupf.app.live;

import java.util.Map;

/** What each backend hupf drives counted, for the live view's traffic by path. */
public interface BackendTraffic {

    /**
     * Returns each backend's counts over the sessions it holds now.
     *
     * @return backend device id to {packets, bytes}, uplink and downlink together; empty while hupf drives none
     */
    Map<String, long[]> backendTotals();
}

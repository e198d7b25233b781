package org.hupf.core.live;

import org.hupf.api.OffloadMetrics;

import java.util.List;
import java.util.Objects;

/** One site's part of what an offload poll left: its offload manager's metrics and the backends it drives. */
public final class LiveSite {

    final OffloadMetrics metrics;
    final List<String> backends;

    /**
     * @param metrics  the site's offload manager's metrics
     * @param backends the ids of the backends its hybrid drives
     */
    public LiveSite(OffloadMetrics metrics, List<String> backends) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.backends = List.copyOf(backends);
    }
}

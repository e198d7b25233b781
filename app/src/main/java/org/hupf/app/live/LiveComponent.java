package org.hupf.app.live;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadService;
import org.hupf.app.device.Shutdowns;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples the offload manager's metrics and each backend's counts every {@link #SAMPLE_MS} into a
 * {@link LiveHistory} of the last {@link #KEPT} samples (10 minutes), for the live view's charts.
 */
@Component(immediate = true, service = LiveService.class)
public class LiveComponent implements LiveService {

    static final long SAMPLE_MS = 2000;
    static final int KEPT = 300;
    private static final Logger log = LoggerFactory.getLogger(LiveComponent.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected OffloadService offloadService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BackendTraffic backendTraffic;

    private final LiveHistory history = new LiveHistory(KEPT);
    /** The clock samples are stamped with (package-private: a test sets it). */
    LongSupplier clock = System::currentTimeMillis;
    private ScheduledExecutorService executor;

    @Activate
    protected void activate() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-live"));
        executor.scheduleAtFixedRate(this::sample, 0, SAMPLE_MS, TimeUnit.MILLISECONDS);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        Shutdowns.interrupt(executor, "hupf-live");
        log.info("Stopped");
    }

    /** Takes one sample now (the periodic task; a test calls it). */
    void sample() {
        // A periodic task that throws is never run again: nothing escapes.
        try {
            history.add(LiveSample.of(clock.getAsLong(), offloadService.metrics(), backendTraffic.backendTotals()));
        } catch (RuntimeException e) {
            log.warn("Sampling hupf's counts for the live view failed: {}", e.toString());
        }
    }

    @Override
    public void history(ObjectNode root, long afterMs) {
        root.put("intervalMs", SAMPLE_MS);
        history.since(root, afterMs);
    }
}

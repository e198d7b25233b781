package org.hupf.core.session;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The device writer settles changes on its own thread, under the manager's lock: a request beyond the changes the
 * writer admits waits to be admitted without that lock, else the writer's next settlement waits for the request
 * and the request for the room only the writer makes; and the writer's queue holds no more than the admitted
 * changes queued.
 */
public class WriterBackpressureTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    /** More than the writer admits at once. */
    private static final int SESSIONS = DeviceChanges.ADMITTED_CHANGES + 104;

    private static PfcpSession draft(int i) {
        Ip4Address ue = Ip4Address.valueOf(0x0a000000 + i + 1);
        Pdr up = new Pdr(1, 1, Pdr.ACCESS, null, null, true, null, ue, List.of(), null, 0, null, 1L, List.of(),
                         List.of());
        return new PfcpSession(0, i + 1, "10.0.0.1", "smf", Map.of(1, up),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null)), Map.of(), Map.of(),
                               Map.of());
    }

    @Test
    public void requestsBeyondTheWritersQueueWaitWithoutTheLockItsSettlementsTake() throws Exception {
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 4 * SESSIONS);
        try (SessionManager manager = new SessionManager(
                new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10),
                new ResourcePool(2 * SESSIONS, 2 * SESSIONS), () -> List.of(device), N3)) {
            List<CompletableFuture<PfcpSession>> established = new ArrayList<>();
            Thread producer = new Thread(() -> {
                for (int i = 0; i < SESSIONS; i++) {
                    established.add(manager.establishAsync(draft(i)));
                }
            }, "test-producer");
            synchronized (device) {
                // The writer's first write waits for the device's monitor: the queue fills behind it.
                producer.start();
                while (producer.getState() != Thread.State.WAITING) {
                    assertTrue("the producer waits to be admitted before it has queued all", producer.isAlive());
                    Thread.onSpinWait();
                }
                assertNotNull("the manager's lock is free while the producer waits", manager.findByCpFseid("10.0.0.1", 1));
                assertTrue("the queue holds the admitted changes at most, but for the one being written",
                           manager.writerQueued() <= DeviceChanges.ADMITTED_CHANGES - 1);
            }
            producer.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse("room came once the writer went on", producer.isAlive());
            for (CompletableFuture<PfcpSession> f : established) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(SESSIONS, device.count(UpfEntityType.SESSION_UPLINK));
        }
    }

    @Test(expected = IllegalStateException.class)
    public void aChangeStartedHoldingTheManagersLockIsRefused() {
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 16);
        try (SessionManager manager = new SessionManager(
                new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10),
                new ResourcePool(16, 16), () -> List.of(device), N3)) {
            synchronized (manager) {
                manager.establishAsync(draft(0));
            }
        }
    }
}

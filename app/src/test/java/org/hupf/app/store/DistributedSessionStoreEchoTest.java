package org.hupf.app.store;

import org.hupf.api.session.PfcpSession;
import org.hupf.core.store.KeptResponse;
import org.junit.Test;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapAdapter;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.MapEventListener;
import org.onosproject.store.service.StorageException;
import org.onosproject.store.service.TestConsistentMap;
import org.onosproject.store.service.Versioned;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * This node's writes wait for their map event; one whose event never comes (a failed commit, an event lost while
 * the map's partition changed leader) is forgotten, so that the writes waiting do not grow with the sessions' churn.
 */
public class DistributedSessionStoreEchoTest {

    /** The session map of one node: a commit can fail, and its events can be lost. */
    private static final class FaultyMap extends ConsistentMapAdapter<Long, String> {
        final ConsistentMap<Long, String> committed = new TestConsistentMap.Builder<Long, String>().build();
        final Map<MapEventListener<Long, String>, MapEventListener<Long, String>> relays = new IdentityHashMap<>();
        final List<Consumer<DistributedPrimitive.Status>> statusListeners = new ArrayList<>();
        volatile boolean failCommits;
        volatile boolean loseEvents;

        @Override
        public Versioned<String> put(Long key, String value) {
            if (failCommits) {
                throw new StorageException.Timeout();
            }
            return committed.put(key, value);
        }

        @Override
        public Versioned<String> remove(Long key) {
            return committed.remove(key);
        }

        @Override
        public void clear() {
            committed.clear();
        }

        @Override
        public Set<Map.Entry<Long, Versioned<String>>> entrySet() {
            return committed.entrySet();
        }

        @Override
        public void addListener(MapEventListener<Long, String> listener) {
            MapEventListener<Long, String> relay = e -> {
                if (!loseEvents) {
                    listener.event(e);
                }
            };
            relays.put(listener, relay);
            committed.addListener(relay);
        }

        @Override
        public void removeListener(MapEventListener<Long, String> listener) {
            committed.removeListener(relays.remove(listener));
        }

        @Override
        public void addStatusChangeListener(Consumer<DistributedPrimitive.Status> listener) {
            statusListeners.add(listener);
        }

        @Override
        public void removeStatusChangeListener(Consumer<DistributedPrimitive.Status> listener) {
            statusListeners.remove(listener);
        }
    }

    private final FaultyMap map = new FaultyMap();
    private final DistributedSessionStore store =
            new DistributedSessionStore(DistributedSessionStoreTest.storage(
                    (name, fresh) -> name.equals(DistributedSessionStore.MAP_NAME) ? map : fresh.get()));

    private static PfcpSession session(long upSeid) {
        PfcpSession d = DistributedSessionStoreTest.draft(1);
        return new PfcpSession(upSeid, 1, "10.0.0.1", "smf", d.pdrs, d.fars, Map.of(), Map.of(), Map.of());
    }

    private static KeptResponse response(int sequence) {
        return new KeptResponse("/10.0.0.1:8805/" + sequence + "/50", new byte[] {1}, sequence);
    }

    @Test
    public void aFailedCommitLeavesNoWriteWaiting() {
        map.failCommits = true;
        try {
            store.putCommitted(session(1), response(1)).join();
            fail("the commit failed");
        } catch (CompletionException e) {
            assertTrue(e.getCause() instanceof StorageException.Timeout);
        }
        assertEquals(0, store.unechoedWrites());
        store.close();
    }

    @Test
    public void writesWhoseEventsWereLostAreForgottenWithTheirSessionsRemoval() {
        map.loseEvents = true;
        for (long seid = 1; seid <= 100; seid++) {
            store.putCommitted(session(seid), response((int) seid)).join();
        }
        assertEquals("their events lost", 100, store.unechoedWrites());
        map.loseEvents = false;
        for (long seid = 1; seid <= 100; seid++) {
            store.removeCommitted(seid, null).join();
        }
        assertEquals(0, store.unechoedWrites());
        assertNull(store.get(1));
        store.close();
    }

    @Test
    public void aStatusChangeOfTheMapForgetsTheWritesWaitingAndTheirLateEventsAreStillFollowed() {
        map.loseEvents = true;
        store.putCommitted(session(1), response(1)).join();
        store.removeCommitted(2, response(2)).join();
        assertEquals(2, store.unechoedWrites());

        map.statusListeners.forEach(l -> l.accept(DistributedPrimitive.Status.SUSPENDED));
        map.statusListeners.forEach(l -> l.accept(DistributedPrimitive.Status.ACTIVE));
        assertEquals(0, store.unechoedWrites());

        map.loseEvents = false;
        PfcpSession later = new PfcpSession(1, 2, "10.0.0.1", "smf", session(1).pdrs, session(1).fars, Map.of(),
                                            Map.of(), Map.of());
        store.putCommitted(later, response(3)).join();
        assertEquals(later, store.get(1));
        assertEquals(0, store.unechoedWrites());
        store.close();
        assertTrue("the store's listeners leave with it", map.statusListeners.isEmpty() && map.relays.isEmpty());
    }

    @Test
    public void clearingTheMapForgetsTheWritesWaiting() {
        map.loseEvents = true;
        store.putCommitted(session(1), response(1)).join();
        map.loseEvents = false;
        assertEquals(1, store.clear());
        assertEquals(0, store.unechoedWrites());
        store.close();
    }
}

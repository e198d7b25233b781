package org.hupf.app.store;

import org.hupf.api.session.PfcpSession;
import org.hupf.core.store.KeptResponse;
import org.junit.Test;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.StorageException;

import java.util.Map;
import java.util.concurrent.CompletionException;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * This node's writes come back as events of revisions it already holds (not decoded again); the removals waiting for
 * their event are forgotten when it comes, or when the multimap's partition changed its session (events may be lost
 * then), so that they do not grow with the sessions' churn.
 */
public class DistributedSessionStoreEchoTest {

    private final SharedMultimap entries = new SharedMultimap();
    private final DistributedSessionStore store = new DistributedSessionStore(
            DistributedSessionStoreTest.storage((name, fresh) -> fresh.get(), name -> entries));

    private static PfcpSession session(long upSeid, long cpSeid) {
        PfcpSession d = DistributedSessionStoreTest.draft(1);
        return new PfcpSession(upSeid, cpSeid, "10.0.0.1", "smf", d.pdrs, d.fars, Map.of(), Map.of(), Map.of());
    }

    private static KeptResponse response(int sequence) {
        return new KeptResponse("/10.0.0.1:8805/" + sequence + "/50", new byte[] {1}, sequence);
    }

    @Test
    public void aFailedCommitFailsItsWriter() {
        entries.failPuts = true;
        try {
            store.putCommitted(session(1, 1), response(1)).join();
            fail("the commit failed");
        } catch (CompletionException e) {
            assertTrue(e.getCause() instanceof StorageException.Timeout);
        }
        store.close();
    }

    @Test
    public void ownWritesAreNotDecodedAgainAndRemovalsWaitOnlyForTheirEvents() {
        PfcpSession first = session(1, 1);
        store.putCommitted(first, response(1)).join();
        assertSame(first, store.get(1));
        PfcpSession second = session(1, 2);
        store.putCommitted(second, response(2)).join();
        assertSame(second, store.get(1));
        assertEquals("the first value replaced", 1, entries.size(1L));
        store.removeCommitted(1, null).join();
        assertNull(store.get(1));
        assertEquals(0, store.unechoedRemovals());

        entries.loseEvents = true;
        for (long seid = 10; seid < 110; seid++) {
            store.putCommitted(session(seid, 1), response((int) seid)).join();
            store.removeCommitted(seid, null).join();
        }
        assertEquals("their events lost", 100, store.unechoedRemovals());
        entries.statusListeners.forEach(l -> l.accept(DistributedPrimitive.Status.SUSPENDED));
        entries.statusListeners.forEach(l -> l.accept(DistributedPrimitive.Status.ACTIVE));
        assertEquals(0, store.unechoedRemovals());
        entries.loseEvents = false;
        PfcpSession again = session(10, 3);
        store.putCommitted(again, response(3)).join();
        assertEquals(again, store.get(10));
        store.close();
        assertTrue("the store's listeners leave with it",
                   entries.statusListeners.isEmpty() && entries.listeners() == 0);
    }

    @Test
    public void aDamagedValueIsAPreciseError() {
        byte[] value = StoreEntry.of(4, session(1, 1), response(1)).bytes;
        StoreEntry back = StoreEntry.decode(value);
        assertEquals(4, back.revision);
        assertEquals(session(1, 1), back.session);
        assertEquals(response(1).key(), back.response.key());
        byte[] cut = java.util.Arrays.copyOf(value, 12);
        try {
            StoreEntry.decode(cut);
            fail("a cut value decoded");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith("length") || e.getMessage().startsWith("stored"));
        }
        value[0] = 9;
        try {
            StoreEntry.decode(value);
            fail("a value of an unknown kind decoded");
        } catch (IllegalArgumentException e) {
            assertEquals("stored session entry of kind 9", e.getMessage());
        }
    }
}

package org.hupf.app.store;

import org.hupf.api.session.PfcpSession;
import org.junit.Test;
import org.onosproject.store.service.StorageException;
import org.onosproject.store.service.StorageService;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The removals of many sessions at once (a CP function's, every session) in the distributed store: one cut off
 * (its node stopped or lost mid-way) stays recorded, and the next leader finishes it, sparing the sessions made
 * since under a SEID it had freed.
 */
public class DistributedSessionStoreRemovalsTest {

    private final ClusterStorage cluster = new ClusterStorage();
    private final StorageService storage = cluster.service;

    private static PfcpSession session(long upSeid, String node) {
        PfcpSession d = DistributedSessionStoreTest.draft((int) upSeid);
        return new PfcpSession(upSeid, upSeid, "10.0.0.1", node, d.pdrs, d.fars, Map.of(), Map.of(), Map.of());
    }

    private static Set<Long> seids(DistributedSessionStore s) {
        return s.all().stream().map(x -> x.upSeid).collect(Collectors.toSet());
    }

    @Test
    public void aCpFunctionsRemovalCutOffIsFinishedByTheNextLeader() {
        DistributedSessionStore leader = new DistributedSessionStore(storage);
        for (long seid = 1; seid <= 4; seid++) {
            leader.put(session(seid, seid <= 3 ? "smf-a" : "smf-b"));
        }
        cluster.failRemovals(true);
        try {
            leader.removeAll(List.of(1L, 2L, 3L));
            fail("the removals' commits timed out");
        } catch (StorageException e) {
            cluster.failRemovals(false);
        }
        // What the store held when the node stopped, and a session made since under a SEID the removal freed.
        DistributedSessionStore next = new DistributedSessionStore(storage);
        assertEquals(Set.of(1L, 2L, 3L, 4L), seids(next));
        next.put(session(2, "smf-c"));
        assertEquals(2, next.finishInterruptedRemovals());
        assertEquals("smf-a's sessions gone, smf-b's and the new one of smf-c kept", Set.of(2L, 4L), seids(next));
        assertEquals("smf-c", next.get(2).nodeId);
        assertEquals("finished once", 0, new DistributedSessionStore(storage).finishInterruptedRemovals());
    }

    @Test
    public void aFinishedRemovalLeavesNoRecord() {
        DistributedSessionStore leader = new DistributedSessionStore(storage);
        leader.put(session(1, "smf-a"));
        leader.put(session(2, "smf-b"));
        leader.removeAll(List.of(1L));
        assertEquals(Set.of(2L), seids(leader));
        DistributedSessionStore next = new DistributedSessionStore(storage);
        assertEquals(0, next.finishInterruptedRemovals());
        assertEquals(Set.of(2L), seids(next));
    }

    /** hupf deactivated, its store's clearing cut off: the node that leads hupf next starts from an empty store. */
    @Test
    public void aClearingCutOffIsFinishedByTheNextLeader() {
        DistributedSessionStore stopping = new DistributedSessionStore(storage);
        stopping.put(session(1, "smf-a"));
        stopping.put(session(2, "smf-b"));
        cluster.failRemovals(true);
        try {
            stopping.clear();
            fail("the clearing timed out");
        } catch (StorageException e) {
            cluster.failRemovals(false);
        }
        DistributedSessionStore next = new DistributedSessionStore(storage);
        assertEquals(2, next.all().size());
        assertEquals(2, next.finishInterruptedRemovals());
        assertTrue(next.all().isEmpty());
        assertTrue(new DistributedSessionStore(storage).all().isEmpty());
    }

    /** A closed store takes no write: none can land after hupf cleared the store on its way out. */
    @Test
    public void aClosedStoreTakesNoWrite() {
        DistributedSessionStore store = new DistributedSessionStore(storage);
        store.put(session(1, "smf-a"));
        store.close();
        try {
            store.put(session(2, "smf-a"));
            fail("a write after close");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("closed"));
        }
        assertEquals(Set.of(1L), seids(new DistributedSessionStore(storage)));
    }
}

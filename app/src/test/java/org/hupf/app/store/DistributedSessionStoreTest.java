package org.hupf.app.store;

import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.AsyncConsistentMultimap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.ConsistentMultimapBuilder;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.TestConsistentMap;
import org.onosproject.store.service.TestConsistentMultimap;
import org.onosproject.store.service.TestStorageService;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The distributed store (ONOS storage mocked: a shared test multimap) and reconciliation against it:
 * a restarted app finds its sessions and puts a wiped device back; entries the store does not know go.
 */
public class DistributedSessionStoreTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");

    static PfcpSession draft(int i) {
        Ip4Address ue = Ip4Address.valueOf(0x0afa0000 + i);
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, null, null, true, null, ue, List.of(), null, 0, null, 1L, List.of(),
                         List.of());
        Pdr dl = new Pdr(2, 100, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, null, 2L, List.of(),
                         List.of());
        return new PfcpSession(0, 1000 + i, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x100L + i,
                                                  Ip4Address.valueOf("192.168.1.10"), null)),
                               Map.of(), Map.of(), Map.of());
    }

    private static SessionManager manager(SessionStore store, HupfUpfDevice device) {
        return new SessionManager(store, new SessionTranslator(N3, 0, Map.of(), 10), new ResourcePool(4096, 4096),
                                  () -> List.of(device), N3);
    }

    private static Set<UpfEntity> all(InMemoryUpfDevice d) {
        Set<UpfEntity> out = new HashSet<>();
        for (UpfEntityType t : UpfEntityType.values()) {
            out.addAll(d.entities(t));
        }
        return out;
    }

    @Test
    public void storeKeepsSessionsByUpSeid() {
        DistributedSessionStore store = new DistributedSessionStore(cluster());
        PfcpSession s = new PfcpSession(7, 1, "10.0.0.1", "smf", draft(1).pdrs, draft(1).fars, Map.of(), Map.of(),
                                        Map.of("ctr:1", 3));
        store.put(s);
        assertEquals(s, store.get(7));
        assertEquals(1, store.all().size());
        assertEquals(s, store.remove(7));
        assertNull(store.get(7));
    }

    /** Storage whose maps and multimaps, by name, are shared by every "node" built on it, like a cluster's. */
    static StorageService cluster() {
        Map<String, ConsistentMap<?, ?>> shared = new ConcurrentHashMap<>();
        Map<String, SharedMultimap> multimaps = new ConcurrentHashMap<>();
        return storage((name, fresh) -> shared.computeIfAbsent(name, n -> fresh.get()),
                       name -> multimaps.computeIfAbsent(name, n -> new SharedMultimap()));
    }

    /**
     * @param maps      the consistent map to use, of its name and a fresh test map of that name
     * @param multimaps the multimap to use, of its name
     * @return storage whose consistent maps and multimaps are those
     */
    static StorageService storage(BiFunction<String, Supplier<ConsistentMap<?, ?>>, ConsistentMap<?, ?>> maps,
                                  Function<String, SharedMultimap> multimaps) {
        return new TestStorageService() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
                return new TestConsistentMap.Builder<K, V>() {
                    @Override
                    public ConsistentMap<K, V> build() {
                        return (ConsistentMap<K, V>) maps.apply(name(), super::build);
                    }
                };
            }

            @Override
            @SuppressWarnings("unchecked")
            public <K, V> ConsistentMultimapBuilder<K, V> consistentMultimapBuilder() {
                return new TestConsistentMultimap.Builder<K, V>() {
                    @Override
                    public AsyncConsistentMultimap<K, V> buildMultimap() {
                        return (AsyncConsistentMultimap<K, V>) (Object) multimaps.apply(name());
                    }
                };
            }
        };
    }

    @Test
    public void storeSeesWhatAnotherNodeWrites() {
        StorageService storage = cluster();
        DistributedSessionStore a = new DistributedSessionStore(storage);
        DistributedSessionStore b = new DistributedSessionStore(storage);
        PfcpSession s = new PfcpSession(9, 1, "10.0.0.1", "smf", draft(1).pdrs, draft(1).fars, Map.of(), Map.of(),
                                        Map.of());
        a.put(s);
        assertEquals(s, b.get(9));
        assertEquals(1, new DistributedSessionStore(storage).all().size());
        a.remove(9);
        assertNull(b.get(9));
    }

    @Test
    public void ownWritesComeBackAsTheirRecordAnotherNodesAreDecoded() {
        StorageService storage = cluster();
        DistributedSessionStore a = new DistributedSessionStore(storage);
        DistributedSessionStore b = new DistributedSessionStore(storage);
        PfcpSession s = new PfcpSession(9, 1, "10.0.0.1", "smf", draft(1).pdrs, draft(1).fars, Map.of(), Map.of(),
                                        Map.of());
        a.putCommitted(s, new KeptResponse("/10.0.0.1:8805/5/50", new byte[] {1}, 1_000)).join();
        assertSame("this node's write is not decoded again from its event", s, a.get(9));
        assertEquals(s, b.get(9));
        assertNotSame(s, b.get(9));
        PfcpSession later = new PfcpSession(9, 2, "10.0.0.1", "smf", draft(2).pdrs, draft(2).fars, Map.of(),
                                            Map.of(), Map.of());
        b.put(later);
        assertEquals("another node's later write is followed", later, a.get(9));
        assertTrue("its entry holds no response", a.keptResponses().isEmpty());
        a.removeCommitted(9, new KeptResponse("/10.0.0.1:8805/6/54", new byte[] {2}, 2_000)).join();
        assertNull(a.get(9));
        assertNull(b.get(9));
        assertEquals(List.of("/10.0.0.1:8805/6/54"), b.keptResponses().stream().map(r -> r.key())
                .collect(Collectors.toList()));
        a.close();
        b.close();
    }

    @Test
    public void aBatchOfWritesIsOneOperationEachSessionsInOrder() {
        SharedMultimap entries = new SharedMultimap();
        StorageService storage = storage((name, fresh) -> fresh.get(), name -> entries);
        List<Runnable> batchEnds = new ArrayList<>();
        DistributedSessionStore a = new DistributedSessionStore(storage, batchEnds::add);
        List<CompletableFuture<Void>> committed = new ArrayList<>();
        for (int i = 1; i <= 24; i++) {
            PfcpSession s = new PfcpSession(i, i, "10.0.0.1", "smf", draft(1).pdrs, draft(1).fars, Map.of(),
                                            Map.of(), Map.of());
            committed.add(a.putCommitted(s, new KeptResponse("/10.0.0.1:8805/" + i + "/50", new byte[] {1}, i)));
            assertEquals("read at once", s, a.get(i));
        }
        committed.add(a.removeCommitted(1, new KeptResponse("/10.0.0.1:8805/99/54", new byte[] {2}, 99)));
        committed.add(a.removeCommitted(2, null));
        assertEquals("nothing sent before the burst ends", 0, entries.writes.get());
        assertTrue(committed.stream().noneMatch(CompletableFuture::isDone));
        batchEnds.forEach(Runnable::run);
        committed.forEach(CompletableFuture::join);
        assertEquals("one put and one removal for the batch", 2, entries.writes.get());
        DistributedSessionStore b = new DistributedSessionStore(storage);
        assertEquals(22, b.all().size());
        assertNull("the deletion committed after the session's establishment", b.get(1));
        assertEquals("a SEID holds its latest value only", 1, entries.size(1L));
        assertEquals(0, entries.size(2L));
        assertEquals(99, b.keptResponses().stream().filter(r -> r.key().contains("/99/")).findFirst()
                .orElseThrow().atMillis);
        a.close();
        b.close();
    }

    @Test
    public void aChangesResponseRidesInItsEntryAndANewLeaderFindsIt() {
        StorageService storage = cluster();
        DistributedSessionStore a = new DistributedSessionStore(storage);
        PfcpSession s = new PfcpSession(9, 1, "10.0.0.1", "smf", draft(1).pdrs, draft(1).fars, Map.of(), Map.of(),
                                        Map.of());
        a.put(s, new KeptResponse("/10.0.0.1:8805/5/50", new byte[] {1, 2}, 1_000));
        a.put(new PfcpSession(10, 2, "10.0.0.1", "smf", draft(2).pdrs, draft(2).fars, Map.of(), Map.of(), Map.of()),
              new KeptResponse("/10.0.0.1:8805/6/50", new byte[] {3}, 1_100));
        assertEquals(10, a.remove(10, new KeptResponse("/10.0.0.1:8805/7/54", new byte[] {4}, 2_000)).upSeid);
        DistributedSessionStore b = new DistributedSessionStore(storage);
        assertEquals(List.of(9L), b.all().stream().map(x -> x.upSeid).collect(Collectors.toList()));
        assertEquals(s, b.get(9));
        assertNull("a deletion's tombstone is no session", b.get(10));
        assertEquals(List.of("/10.0.0.1:8805/5/50", "/10.0.0.1:8805/7/54"),
                     b.keptResponses().stream().map(r -> r.key()).collect(Collectors.toList()));
        assertArrayEquals(new byte[] {4}, b.keptResponses().get(1).bytes);
        b.pruneResponses(3_000, 10);
        assertEquals("a live session keeps its last response", List.of("/10.0.0.1:8805/5/50"),
                     new DistributedSessionStore(storage).keptResponses().stream().map(r -> r.key())
                             .collect(Collectors.toList()));
        assertEquals(s, a.remove(9));
        assertEquals(0, new DistributedSessionStore(storage).keptResponses().size());
    }

    @Test
    public void restartedAppReconcilesAWipedDeviceFromTheStore() throws Exception {
        // The map outlives the app: a restarted app opens the same replicated map.
        StorageService storage = cluster();
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 4096);
        SessionManager first = manager(new DistributedSessionStore(storage), device);
        List<PfcpSession> created = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            created.add(first.establish(draft(i)));
        }
        Set<UpfEntity> installed = all(device);
        assertEquals(20, device.entities(UpfEntityType.SESSION_UPLINK).size());

        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        SessionManager second = manager(new DistributedSessionStore(storage), device);
        assertEquals(installed.size(), second.reconcile());
        assertEquals(installed, all(device));
        assertEquals(0, second.reconcile());

        // A new session after the restart gets fresh SEID, TEID and counter cells.
        PfcpSession next = second.establish(draft(99));
        assertTrue(created.stream().noneMatch(s -> s.upSeid == next.upSeid));
        assertTrue(created.stream().noneMatch(s -> s.pdrs.get(1).teid.equals(next.pdrs.get(1).teid)));
        assertTrue(created.stream().noneMatch(s -> s.allocations.get("ctr:1").equals(next.allocations.get("ctr:1"))));
    }

    @Test
    public void reconciliationRemovesWhatTheStoreDoesNotKnowAndFixesChangedEntries() throws Exception {
        InMemoryUpfDevice device = new InMemoryUpfDevice("switch", 4096);
        SessionManager m = manager(new DistributedSessionStore(cluster()), device);
        PfcpSession s = m.establish(draft(1));
        Set<UpfEntity> wanted = all(device);
        Ip4Address ue = s.pdrs.get(2).ueAddress;
        device.apply(UpfSessionDownlink.builder().withUeAddress(Ip4Address.valueOf("10.99.0.1"))
                             .needsDropping(true).build());
        device.apply(UpfSessionDownlink.builder().withUeAddress(ue).needsBuffering(true).build());
        // One removal (the unknown UE) and one overwrite of the changed entry (its key is still wanted).
        assertEquals(2, m.reconcile());
        assertEquals(wanted, all(device));
    }

    @Test
    public void sharedTunnelPeerStaysUntilItsLastSessionGoes() throws Exception {
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 4096);
        SessionManager m = manager(new InMemorySessionStore(), device);
        PfcpSession a = m.establish(draft(1));
        PfcpSession b = m.establish(draft(2));
        assertEquals(1, device.entities(UpfEntityType.TUNNEL_PEER).size());
        m.delete(a.upSeid);
        assertEquals(1, device.entities(UpfEntityType.TUNNEL_PEER).size());
        m.delete(b.upSeid);
        assertEquals(0, device.entities(UpfEntityType.TUNNEL_PEER).size());
        assertTrue(all(device).isEmpty());
    }

    @Test
    public void unreachableDeviceRefusesTheSessionAndReconciliationRestoresLostEntries() throws Exception {
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 4096);
        SessionManager m = manager(new InMemorySessionStore(), device);
        device.setFailing(true);
        try {
            m.establish(draft(1));
            fail("accepted a session no device holds");
        } catch (RuleException e) {
            assertEquals(Cause.SYSTEM_FAILURE, e.cause());
        }
        assertTrue(m.deviceErrors() > 0);
        assertTrue(m.store().all().isEmpty());
        device.setFailing(false);
        m.establish(draft(1));
        device.deleteAll(UpfEntityType.SESSION_UPLINK);
        assertTrue(m.reconcile() > 0);
        assertEquals(1, device.entities(UpfEntityType.SESSION_UPLINK).size());
    }
}

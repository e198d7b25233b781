package org.hupf.core.session;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Device programming as a pipeline: one batch per change in the contract's order, batches of concurrent
 * changes merged into one device write, and a refused batch undone with the cause to answer.
 */
public class DevicePipelineTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    /** Install order of the contract's write rank: what a hit leads to before the hit (terminations, then sessions). */
    private static final List<UpfEntityType> ORDER = List.of(
            UpfEntityType.INTERFACE, UpfEntityType.TUNNEL_PEER, UpfEntityType.APPLICATION,
            UpfEntityType.SESSION_METER, UpfEntityType.APPLICATION_METER, UpfEntityType.TERMINATION_UPLINK,
            UpfEntityType.TERMINATION_DOWNLINK, UpfEntityType.SESSION_UPLINK, UpfEntityType.SESSION_DOWNLINK);

    private final List<SessionManager> managers = new ArrayList<>();

    /** Records each write it is given; holds the first one until released. */
    private static final class RecordingDevice implements HupfUpfDevice, BatchUpfDevice {
        final InMemoryUpfDevice inner;
        final List<List<DeviceUpdate>> writes = new ArrayList<>();
        final CountDownLatch firstWriteStarted = new CountDownLatch(1);
        final CountDownLatch release;

        RecordingDevice(InMemoryUpfDevice inner, boolean holdFirst) {
            this.inner = inner;
            this.release = new CountDownLatch(holdFirst ? 1 : 0);
        }

        @Override
        public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
            synchronized (this) {
                writes.add(List.copyOf(updates));
            }
            firstWriteStarted.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return inner.write(updates);
        }

        synchronized int writeCount() {
            return writes.size();
        }

        @Override
        public void apply(UpfEntity entity) throws UpfProgrammableException {
            inner.apply(entity);
        }

        @Override
        public void delete(UpfEntity entity) throws UpfProgrammableException {
            inner.delete(entity);
        }

        @Override
        public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
            return inner.readAll(type);
        }

        @Override
        public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
            return inner.readCounter(cellId);
        }

        @Override
        public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
            return inner.readCounters(maxCounterId);
        }

        @Override
        public long tableSize(UpfEntityType type) {
            return inner.tableSize(type);
        }

        @Override
        public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
            inner.deleteAll(type);
        }
    }

    private SessionManager manager(HupfUpfDevice device, ResourcePool pool) {
        SessionManager m = new SessionManager(new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10),
                                              pool, () -> List.of(device), N3);
        managers.add(m);
        return m;
    }

    @After
    public void stopWriters() {
        managers.forEach(SessionManager::close);
    }

    private static Pdr uplink(int id, Ip4Address ue, String sdf) {
        return new Pdr(id, id, Pdr.ACCESS, null, null, true, null, ue, sdf == null ? List.of() : List.of(sdf),
                       null, 0, null, 1L, List.of(), List.of());
    }

    private static Pdr downlink(int id, Ip4Address ue) {
        return new Pdr(id, id, Pdr.CORE, null, null, false, null, ue, List.of(), null, 0, null, 2L, List.of(),
                       List.of());
    }

    private static PfcpSession draft(long cpSeid, Pdr... pdrs) {
        Map<Integer, Pdr> m = new java.util.HashMap<>();
        for (Pdr p : pdrs) {
            m.put(p.pdrId, p);
        }
        return new PfcpSession(0, cpSeid, "10.0.0.1", "smf", m,
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x99L, Ip4Address.valueOf("10.9.9.9"),
                                                  null)),
                               Map.of(), Map.of(), Map.of());
    }

    private static Ip4Address ue(int i) {
        return Ip4Address.valueOf(0x0AFA0000 + i);
    }

    @Test
    public void oneEstablishmentIsOneDeviceWriteInTheContractsOrder() throws Exception {
        RecordingDevice device = new RecordingDevice(new InMemoryUpfDevice("backend", 1024), false);
        SessionManager m = manager(device, new ResourcePool(1024, 1024));
        PfcpSession s = m.establish(draft(1, uplink(1, ue(1), null), downlink(2, ue(1))));
        assertEquals(1, device.writeCount());
        List<DeviceUpdate> write = device.writes.get(0);
        // Its counter cells reset first (one per PDR), then its entities.
        assertEquals(m.entities(s.upSeid).size() + 2, write.size());
        assertEquals(UpfEntityType.COUNTER, write.get(0).entity().type());
        assertEquals(UpfEntityType.COUNTER, write.get(1).entity().type());
        for (int i = 1; i < write.size(); i++) {
            assertTrue(write.get(i - 1) + " before " + write.get(i),
                       ORDER.indexOf(write.get(i - 1).entity().type()) <= ORDER.indexOf(write.get(i).entity().type()));
        }
        assertEquals(m.entities(s.upSeid), collectAll(device.inner));
        m.delete(s.upSeid);
        assertEquals(2, device.writeCount());
        assertTrue(device.writes.get(1).stream().allMatch(u -> u.kind() == DeviceUpdate.Kind.DELETE));
        assertTrue(collectAll(device.inner).isEmpty());
    }

    private static java.util.Set<UpfEntity> collectAll(InMemoryUpfDevice d) {
        java.util.Set<UpfEntity> all = new HashSet<>();
        for (UpfEntityType t : ORDER) {
            all.addAll(d.entities(t));
        }
        return all;
    }

    @Test
    public void aModificationWritesOnlyWhatChangedAndOverwritesEntriesKeptUnderTheirKeys() throws Exception {
        RecordingDevice device = new RecordingDevice(new InMemoryUpfDevice("backend", 1024), false);
        SessionManager m = manager(device, new ResourcePool(1024, 1024));
        PfcpSession s = m.establish(draft(1, uplink(1, ue(1), null), downlink(2, ue(1))));
        java.util.Set<UpfEntity> before = m.entities(s.upSeid);
        Map<Long, Far> fars = new java.util.HashMap<>(s.fars);
        fars.put(2L, new Far(2, Far.FORW, Far.ACCESS, 0x77L, Ip4Address.valueOf("10.9.9.9"), null));
        PfcpSession changed = m.modify(s.with(s.pdrs, fars, s.qers, s.urrs, s.allocations));
        assertEquals(2, device.writeCount());
        List<DeviceUpdate> write = device.writes.get(1);
        java.util.Set<UpfEntity> after = m.entities(changed.upSeid);
        assertTrue("something changed", !write.isEmpty());
        for (DeviceUpdate u : write) {
            assertEquals(DeviceUpdate.Kind.APPLY, u.kind());
            assertTrue("unchanged entity written again: " + u, !before.contains(u.entity()));
            assertTrue("an entry kept under its key is overwritten: " + u, u.overwrites());
        }
        assertEquals(after, collectAll(device.inner));
        assertTrue(device.writes.get(0).stream().noneMatch(DeviceUpdate::overwrites));
    }

    @Test
    public void concurrentChangesAreMergedIntoFewDeviceWrites() throws Exception {
        RecordingDevice device = new RecordingDevice(new InMemoryUpfDevice("backend", 1024), true);
        SessionManager m = manager(device, new ResourcePool(1024, 1024));
        List<CompletableFuture<PfcpSession>> changes = new ArrayList<>();
        changes.add(m.establishAsync(draft(1, uplink(1, ue(1), null))));
        assertTrue(device.firstWriteStarted.await(5, TimeUnit.SECONDS));
        for (int i = 2; i <= 20; i++) {
            changes.add(m.establishAsync(draft(i, uplink(1, ue(i), null))));
        }
        assertTrue("answered before the device acknowledged", changes.stream().noneMatch(CompletableFuture::isDone));
        device.release.countDown();
        for (CompletableFuture<PfcpSession> c : changes) {
            c.get(5, TimeUnit.SECONDS);
        }
        assertEquals(2, device.writeCount());
        assertEquals(20, m.store().all().size());
        assertEquals(20, device.inner.count(UpfEntityType.SESSION_UPLINK));
        assertEquals(2, m.writerCounts()[0]);
        assertEquals(20, m.writerCounts()[1]);
    }

    @Test
    public void partlyRefusedEstablishmentLeavesNothingInstalledOrStored() throws Exception {
        // Room for one uplink session entry: the second PDR's entry is refused after the first landed.
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1, 1024, 1024);
        ResourcePool pool = new ResourcePool(1024, 1024);
        SessionManager m = manager(device, pool);
        try {
            m.establish(draft(1, uplink(1, ue(1), null), uplink(2, ue(1), "permit out udp from 8.8.8.8 to assigned")));
            fail("accepted a session the device holds half of");
        } catch (RuleException e) {
            assertEquals(Cause.NO_RESOURCES_AVAILABLE, e.cause());
        }
        assertTrue(m.store().all().isEmpty());
        assertTrue(collectAll(device).isEmpty());
        assertEquals(0, m.entityCount());
        assertEquals(0, pool.countersInUse());
        assertNull(m.findByCpFseid("10.0.0.1", 1));
        // The UE address and TEIDs are free again.
        assertEquals(1, m.establish(draft(2, uplink(1, ue(1), null))).pdrs.size());
    }

    @Test
    public void refusedModificationPutsTheDeviceBackToTheOldSession() throws Exception {
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1, 1024, 1024);
        SessionManager m = manager(device, new ResourcePool(1024, 1024));
        PfcpSession s = m.establish(draft(1, uplink(1, ue(1), null)));
        java.util.Set<UpfEntity> before = collectAll(device);
        Map<Integer, Pdr> pdrs = new java.util.HashMap<>(s.pdrs);
        pdrs.put(2, uplink(2, ue(1), "permit out udp from 8.8.8.8 to assigned"));
        try {
            m.modify(s.with(pdrs, s.fars, s.qers, s.urrs, s.allocations));
            fail("accepted a modification the device refused");
        } catch (RuleException e) {
            assertEquals(Cause.NO_RESOURCES_AVAILABLE, e.cause());
        }
        assertEquals(s, m.store().get(s.upSeid));
        assertEquals(before, collectAll(device));
    }

    @Test
    public void unreachableDeviceFailsWithSystemFailureAndKeepsTheSession() throws Exception {
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
        SessionManager m = manager(device, new ResourcePool(1024, 1024));
        PfcpSession s = m.establish(draft(1, uplink(1, ue(1), null)));
        device.setFailing(true);
        try {
            m.delete(s.upSeid);
            fail("deleted a session from an unreachable device");
        } catch (RuleException e) {
            assertEquals(Cause.SYSTEM_FAILURE, e.cause());
        }
        try {
            m.establishAsync(draft(2, uplink(1, ue(2), null))).join();
            fail("established on an unreachable device");
        } catch (CompletionException e) {
            assertEquals(Cause.SYSTEM_FAILURE, ((RuleException) e.getCause()).cause());
        }
        device.setFailing(false);
        assertEquals(List.of(s), new ArrayList<>(m.store().all()));
        assertEquals(m.entities(s.upSeid), collectAll(device));
        m.delete(s.upSeid);
        assertTrue(collectAll(device).isEmpty());
    }
}

package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiEntityType;
import org.onosproject.net.pi.runtime.PiHandle;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.Atomicity;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateRequest;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateResponse;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateStatus;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.UpdateType;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteRequest;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteResponse;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A batch of UPF entities becomes one P4Runtime WriteRequest through ONOS's client (plus one of MODIFYs for
 * what already existed); each entity gets the outcome of its own updates, in order.
 */
public class P4RuntimeBatchTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:backend:b1");

    /** A P4Runtime device behind ONOS's write client: entries by handle, every WriteRequest recorded. */
    private static final class FakeDevice {
        final Map<PiHandle, PiEntity> entries = new HashMap<>();
        final List<List<UpdateType>> requests = new ArrayList<>();
        /** Table entries of this many updates into a request the device refuses (a full table). */
        int capacity = Integer.MAX_VALUE;
        boolean unreachable;
        /** The next this many requests are refused whole: another client is primary for the moment. */
        int denied;

        WriteRequest request() {
            return new FakeRequest(this);
        }
    }

    private static final class Update implements EntityUpdateResponse {
        final PiHandle handle;
        final PiEntity entity;
        final UpdateType type;
        EntityUpdateStatus status = EntityUpdateStatus.OK;
        String explanation;
        Throwable throwable;

        Update(PiHandle handle, PiEntity entity, UpdateType type) {
            this.handle = handle;
            this.entity = entity;
            this.type = type;
        }

        @Override
        public PiHandle handle() {
            return handle;
        }

        @Override
        public PiEntity entity() {
            return entity;
        }

        @Override
        public UpdateType updateType() {
            return type;
        }

        @Override
        public PiEntityType entityType() {
            return handle.entityType();
        }

        @Override
        public boolean isSuccess() {
            return status == EntityUpdateStatus.OK;
        }

        @Override
        public EntityUpdateStatus status() {
            return status;
        }

        @Override
        public String explanation() {
            return explanation;
        }

        @Override
        public Throwable throwable() {
            return throwable;
        }
    }

    private static final class FakeRequest implements WriteRequest {
        final FakeDevice device;
        final List<Update> updates = new ArrayList<>();

        FakeRequest(FakeDevice device) {
            this.device = device;
        }

        @Override
        public WriteRequest withAtomicity(Atomicity atomicity) {
            return this;
        }

        @Override
        public WriteRequest insert(PiEntity entity) {
            return entity(entity, UpdateType.INSERT);
        }

        @Override
        public WriteRequest insert(Iterable<? extends PiEntity> entities) {
            return entities(entities, UpdateType.INSERT);
        }

        @Override
        public WriteRequest modify(PiEntity entity) {
            return entity(entity, UpdateType.MODIFY);
        }

        @Override
        public WriteRequest modify(Iterable<? extends PiEntity> entities) {
            return entities(entities, UpdateType.MODIFY);
        }

        @Override
        public WriteRequest delete(PiHandle handle) {
            updates.add(new Update(handle, null, UpdateType.DELETE));
            return this;
        }

        @Override
        public WriteRequest delete(Iterable<? extends PiHandle> handles) {
            handles.forEach(this::delete);
            return this;
        }

        @Override
        public WriteRequest entity(PiEntity entity, UpdateType updateType) {
            updates.add(new Update(entity.handle(DEV), entity, updateType));
            return this;
        }

        @Override
        public WriteRequest entities(Iterable<? extends PiEntity> entities, UpdateType updateType) {
            entities.forEach(e -> entity(e, updateType));
            return this;
        }

        @Override
        public CompletableFuture<WriteResponse> submit() {
            device.requests.add(updates.stream().map(u -> u.type).collect(Collectors.toList()));
            boolean deny = device.denied > 0;
            device.denied -= deny ? 1 : 0;
            for (Update u : updates) {
                if (deny) {
                    u.status = EntityUpdateStatus.OTHER_ERROR;
                    u.throwable = new IllegalStateException("PERMISSION_DENIED: not the primary client");
                } else if (device.unreachable) {
                    u.status = EntityUpdateStatus.OTHER_ERROR;
                    u.throwable = new IllegalStateException("UNAVAILABLE: io exception");
                } else {
                    apply(u);
                }
            }
            List<EntityUpdateResponse> all = new ArrayList<>(updates);
            return CompletableFuture.completedFuture(new WriteResponse() {
                @Override
                public boolean isSuccess() {
                    return all.stream().allMatch(EntityUpdateResponse::isSuccess);
                }

                @Override
                public Collection<EntityUpdateResponse> all() {
                    return all;
                }

                @Override
                public Collection<EntityUpdateResponse> success() {
                    return all.stream().filter(EntityUpdateResponse::isSuccess).collect(Collectors.toList());
                }

                @Override
                public Collection<EntityUpdateResponse> failed() {
                    return all.stream().filter(r -> !r.isSuccess()).collect(Collectors.toList());
                }

                @Override
                public Collection<EntityUpdateResponse> status(EntityUpdateStatus status) {
                    return all.stream().filter(r -> r.status() == status).collect(Collectors.toList());
                }
            });
        }

        private void apply(Update u) {
            boolean meter = u.handle.entityType() == PiEntityType.METER_CELL_CONFIG;
            boolean present = meter || device.entries.containsKey(u.handle);
            switch (u.type) {
                case INSERT:
                    if (present) {
                        u.status = EntityUpdateStatus.ALREADY_EXIST;
                    } else if (device.entries.size() >= device.capacity) {
                        u.status = EntityUpdateStatus.OTHER_ERROR;
                        u.explanation = "RESOURCE_EXHAUSTED table full";
                    } else {
                        device.entries.put(u.handle, u.entity);
                    }
                    break;
                case MODIFY:
                    if (present) {
                        device.entries.put(u.handle, u.entity);
                    } else {
                        u.status = EntityUpdateStatus.NOT_FOUND;
                    }
                    break;
                default:
                    if (device.entries.remove(u.handle) == null) {
                        u.status = EntityUpdateStatus.NOT_FOUND;
                    }
            }
        }

        @Override
        public WriteResponse submitSync() {
            return submit().join();
        }

        @Override
        public Collection<EntityUpdateRequest> pendingUpdates() {
            return List.copyOf(updates);
        }
    }

    private final FakeDevice device = new FakeDevice();
    private final P4RuntimeBatch batch = new P4RuntimeBatch(new UpfTranslator(Pipelines.model("sw")), DEV,
                                                            device::request, 5_000);

    private static UpfInterface iface(String prefix, int slice) {
        return UpfInterface.builder().setPrefix(Ip4Prefix.valueOf(prefix)).setCore().setSliceId(slice).build();
    }

    private List<UpfProgrammableException> write(List<UpfEntity> entities, int... removals) {
        BitSet r = new BitSet();
        for (int i : removals) {
            r.set(i);
        }
        return batch.write(entities, r).join();
    }

    @Test
    public void aBatchIsOneWriteRequestInOrder() {
        List<UpfEntity> all = UpfEntities.all().stream().filter(e -> e.type() != org.hupf.pipeconf.api.UpfEntityType.COUNTER)
                .collect(Collectors.toList());
        List<UpfProgrammableException> failures = write(all);
        assertEquals(all.size(), failures.size());
        failures.forEach(f -> assertNull(String.valueOf(f), f));
        assertEquals("one WriteRequest for the whole batch", 1, device.requests.size());
        assertTrue("meter cells are modified, entries inserted",
                   device.requests.get(0).contains(UpdateType.MODIFY)
                           && device.requests.get(0).contains(UpdateType.INSERT));
    }

    @Test
    public void anExistingEntryIsOverwrittenByASecondRequestOfModifies() {
        assertNull(write(List.of(iface("10.250.0.0/16", 1))).get(0));
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 2), iface("10.251.0.0/16", 1)));
        assertEquals(java.util.Arrays.asList(null, null), failures);
        assertEquals(List.of(List.of(UpdateType.INSERT), List.of(UpdateType.INSERT, UpdateType.INSERT),
                             List.of(UpdateType.MODIFY)), device.requests);
        assertEquals(2, device.entries.size());
        assertTrue("the slice was overwritten", device.entries.values().toString().contains("2"));
    }

    @Test
    public void removalsDeleteEntriesResetMetersAndAMissingEntryIsAlreadyGone() {
        UpfMeter meter = UpfMeter.resetMeter(UpfMeter.Type.SESSION, 5);
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1), meter,
                                                                iface("10.252.0.0/16", 1)), 1, 2);
        assertEquals(java.util.Arrays.asList(null, null, null), failures);
        assertEquals(List.of(List.of(UpdateType.INSERT, UpdateType.MODIFY, UpdateType.DELETE)), device.requests);
        assertEquals("the interface", 1, device.entries.keySet().stream()
                .filter(h -> h.entityType() == PiEntityType.TABLE_ENTRY).count());
    }

    @Test
    public void eachEntityGetsItsOwnRefusal() {
        device.capacity = 1;
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1), iface("10.251.0.0/16", 1)));
        assertNull(failures.get(0));
        assertNotNull("the second did not fit", failures.get(1));
        assertEquals(UpfProgrammableException.Type.TABLE_EXHAUSTED, failures.get(1).getType());
    }

    @Test
    public void anUnreachableDeviceFailsTheBatchNotEachUpdate() {
        device.unreachable = true;
        try {
            write(List.of(iface("10.250.0.0/16", 1), iface("10.251.0.0/16", 1)));
            fail("answered");
        } catch (CompletionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof UpfProgrammableException
                    && e.getCause().getMessage().contains("UNAVAILABLE"));
        }
    }

    @Test
    public void aBatchRefusedForWantOfPrimacyIsWrittenAgain() {
        device.denied = 2;
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1)));
        assertNull(String.valueOf(failures.get(0)), failures.get(0));
        assertEquals("refused twice, then written", 3, device.requests.size());
        assertEquals(1, device.entries.size());
    }

    @Test
    public void withoutPrimacyWithinTheBudgetTheBatchFails() {
        device.denied = Integer.MAX_VALUE;
        P4RuntimeBatch impatient = new P4RuntimeBatch(new UpfTranslator(Pipelines.model("sw")), DEV,
                                                      device::request, 3 * P4RuntimeBatch.RETRY_PAUSE_MS);
        try {
            impatient.write(List.of(iface("10.250.0.0/16", 1)), new BitSet()).join();
            fail("answered");
        } catch (CompletionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof P4RuntimeBatch.NotPrimary);
        }
        assertTrue("written again within the budget: " + device.requests.size(),
                   device.requests.size() >= 2 && device.requests.size() <= 3);
        assertTrue(device.entries.isEmpty());
    }
}

package org.hupf.pipeconf.behaviour;

import org.onosproject.net.DeviceId;
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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/** A P4Runtime device behind ONOS's write client: entries by handle, every WriteRequest recorded. */
final class FakeWriteDevice {
    private final DeviceId id;

    final Map<PiHandle, PiEntity> entries = new HashMap<>();
    final List<List<UpdateType>> requests = new ArrayList<>();
    /** Table entries of this many updates into a request the device refuses (a full table). */
    int capacity = Integer.MAX_VALUE;
    boolean unreachable;
    /** The next this many requests are refused whole: another client is primary for the moment. */
    int denied;
    /** The next this many requests pass ONOS's deadline: the device applies them, too slowly to answer in time. */
    int timeouts;
    /** Whether the device answers a probe; and how many probes it got. */
    boolean alive = true;
    int probes;

    FakeWriteDevice(DeviceId id) {
        this.id = id;
    }

    WriteRequest request() {
        return new FakeRequest(this);
    }

    CompletableFuture<Boolean> probe() {
        probes++;
        return CompletableFuture.completedFuture(alive);
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
        final FakeWriteDevice device;
        final List<Update> updates = new ArrayList<>();

        FakeRequest(FakeWriteDevice device) {
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
            updates.add(new Update(entity.handle(device.id), entity, updateType));
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
            boolean late = !deny && device.timeouts > 0;
            device.timeouts -= late ? 1 : 0;
            for (Update u : updates) {
                if (late) {
                    apply(u);
                    u.status = EntityUpdateStatus.OTHER_ERROR;
                    u.throwable = new IllegalStateException("DEADLINE_EXCEEDED: deadline exceeded after 9.99s");
                } else if (deny) {
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
}

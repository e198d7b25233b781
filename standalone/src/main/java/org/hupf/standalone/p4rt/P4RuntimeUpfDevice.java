package org.hupf.standalone.p4rt;

import io.grpc.Status;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.core.device.CellChanges;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.PiUpfDevice;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.model.PiPipelineModel;

import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;
import p4.v1.P4RuntimeOuterClass.Update;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * A hupf UPF device reached directly over P4Runtime, without ONOS: the lab drives bmv2 and the backend
 * with the same translator the ONOS behaviour uses. A batch of updates is one WriteRequest (plus one of
 * MODIFYs for the entries the device already held).
 */
public final class P4RuntimeUpfDevice implements HupfUpfDevice, BatchUpfDevice, CounterCellReader, AutoCloseable {

    /** gRPC codes of a Write that did not reach the device or got no answer: nothing is known applied. */
    private static final Set<Status.Code> UNREACHABLE = EnumSet.of(
            Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED, Status.Code.CANCELLED);
    /** A first guess of an update's encoded size (the buffer grows past it): a session's entries take 30-60. */
    private static final int BYTES_PER_UPDATE = 64;

    private final P4rtClient client;
    private final PiEncoder encoder;
    private final UpfTranslator translator;
    private final UpfEntityEncoder entityEncoder;
    private final PiUpfDevice device;
    private final P4RuntimeTarget target;
    private final PiPipelineModel model;
    private final CounterCells counterCells;
    /** Set when the device answered that it has no changed-cells read (not hupf-backend): cells are read in full. */
    private volatile boolean noChangedRead;

    /**
     * Wraps a connected client.
     *
     * @param client  primary client of the device
     * @param p4info  P4Info index of the device's pipeline
     * @param model   the same pipeline as ONOS's model (for widths and capacities)
     * @throws P4RuntimeException if the P4Info lacks the UPF counters
     */
    public P4RuntimeUpfDevice(P4rtClient client, P4InfoIndex p4info, PiPipelineModel model)
            throws P4RuntimeException {
        this.client = client;
        this.model = model;
        this.encoder = new PiEncoder(p4info);
        this.translator = new UpfTranslator(model);
        this.entityEncoder = new UpfEntityEncoder(translator, encoder);
        this.target = new P4RuntimeTarget(client, encoder);
        this.device = new PiUpfDevice(translator, target);
        this.counterCells = new CounterCells(client, p4info);
    }

    /**
     * Connects to a device as primary and, if a target configuration is given, pushes the pipeline.
     *
     * @param host         P4Runtime server address
     * @param port         P4Runtime server port
     * @param deviceId     P4Runtime device id
     * @param p4info       P4Info text of the device's profile (e.g. the bundle's p4c-out/hw/bmv2/p4info.txt)
     * @param deviceConfig target configuration to push (bmv2 JSON), or null to use the running pipeline
     * @return the device
     * @throws P4RuntimeException if the connection, arbitration or pipeline push fails
     * @throws IOException        if the P4Info or configuration cannot be read
     */
    public static P4RuntimeUpfDevice open(String host, int port, long deviceId, URL p4info, URL deviceConfig)
            throws P4RuntimeException, IOException {
        P4InfoIndex index = P4InfoIndex.parse(p4info);
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IOException("P4Info " + p4info + " does not parse: " + e.getMessage(), e);
        }
        P4rtClient client = P4rtClient.connect(host, port, deviceId, 1);
        try {
            if (deviceConfig != null) {
                try (InputStream in = deviceConfig.openStream()) {
                    client.setPipeline(index.p4info(), in.readAllBytes());
                }
            }
            return new P4RuntimeUpfDevice(client, index, model);
        } catch (P4RuntimeException | IOException e) {
            client.close();
            throw e;
        }
    }

    /**
     * Returns the PI target, to write non-UPF entities (routes, ACL, HK-IPG configuration) to the device.
     *
     * @return target
     */
    public P4RuntimeTarget target() {
        return target;
    }

    public P4rtClient client() {
        return client;
    }

    public PiPipelineModel model() {
        return model;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        device.apply(entity);
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        device.delete(entity);
    }

    /**
     * Writes the batch as one WriteRequest, in order: a delete becomes DELETE (NOT_FOUND counts as done),
     * an apply INSERT, or MODIFY for what always exists (meter cells, default entries) and for the entries an
     * update {@link DeviceUpdate#overwrites}. The INSERTs the device answers ALREADY_EXISTS are sent again as
     * MODIFYs, and the overwriting MODIFYs it answers NOT_FOUND as INSERTs, in a second WriteRequest ("install
     * or overwrite"). Each update's outcome is that of all the P4Runtime updates it became. The final counts
     * the device answers for the terminations the first request deleted come with the result (none when it
     * refused some of the request's updates: they are read then).
     */
    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        List<UpfProgrammableException> failures = new ArrayList<>(updates.size());
        EncodedUpdates first = new EncodedUpdates(updates.size() * BYTES_PER_UPDATE);
        int[] owner = new int[updates.size()];
        for (int i = 0; i < updates.size(); i++) {
            int from = first.size();
            failures.add(null);
            try {
                DeviceUpdate u = updates.get(i);
                entityEncoder.encode(u.entity(), u.kind() == DeviceUpdate.Kind.DELETE ? Update.Type.DELETE
                        : u.overwrites() ? Update.Type.MODIFY : Update.Type.INSERT, first);
            } catch (UpfProgrammableException e) {
                failures.set(i, e);
            }
            owner = room(owner, first.size());
            Arrays.fill(owner, from, first.size(), i);
        }
        EncodedUpdates retries = new EncodedUpdates(0);
        int[] retryOwner = new int[0];
        CellCounts finalCounts = CellCounts.NONE;
        try {
            finalCounts = counterCells.complete(client.write(first));
        } catch (P4RuntimeException e) {
            if (UNREACHABLE.contains(e.code()) || e.updateCodes().size() != first.size()) {
                return CompletableFuture.completedFuture(WriteResult.unreachable(updates.size(), refusal(e)));
            }
            for (int j = 0; j < first.size(); j++) {
                Status.Code c = e.updateCodes().get(j);
                Update.Type type = first.type(j);
                if (c == Status.Code.ALREADY_EXISTS && type == Update.Type.INSERT) {
                    retries.addRetyped(first, j, Update.Type.MODIFY);
                    retryOwner = room(retryOwner, retries.size());
                    retryOwner[retries.size() - 1] = owner[j];
                } else if (c == Status.Code.NOT_FOUND && type == Update.Type.MODIFY && first.tableEntry(j)
                        && updates.get(owner[j]).overwrites()) {
                    // The entry to overwrite is not there (a refused change rolled back, say): installed instead.
                    retries.addRetyped(first, j, Update.Type.INSERT);
                    retryOwner = room(retryOwner, retries.size());
                    retryOwner[retries.size() - 1] = owner[j];
                } else if (c != Status.Code.OK && !(c == Status.Code.NOT_FOUND && type == Update.Type.DELETE)) {
                    failures.set(owner[j], refusal(e));
                }
            }
        }
        try {
            client.write(retries);
        } catch (P4RuntimeException e) {
            if (UNREACHABLE.contains(e.code()) || e.updateCodes().size() != retries.size()) {
                return CompletableFuture.completedFuture(WriteResult.unreachable(updates.size(), refusal(e)));
            }
            for (int j = 0; j < retries.size(); j++) {
                if (e.updateCodes().get(j) != Status.Code.OK) {
                    failures.set(retryOwner[j], refusal(e));
                }
            }
        }
        boolean failed = false;
        for (UpfProgrammableException f : failures) {
            failed |= f != null;
        }
        return CompletableFuture.completedFuture(
                (failed ? WriteResult.of(failures) : WriteResult.ok(updates.size())).withFinalCells(finalCounts));
    }

    /** @return {@code a}, or a longer copy of it if it is shorter than {@code size} */
    private static int[] room(int[] a, int size) {
        return size <= a.length ? a : Arrays.copyOf(a, Math.max(size, 2 * a.length));
    }

    private static UpfProgrammableException refusal(P4RuntimeException e) {
        return new UpfProgrammableException(e.getMessage(), e.updateCodes().contains(Status.Code.RESOURCE_EXHAUSTED)
                ? UpfProgrammableException.Type.TABLE_EXHAUSTED : UpfProgrammableException.Type.UNKNOWN);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return device.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        return device.readCounter(cellId);
    }

    /** Cells 0 to maxCounterId - 1 by index (every cell with a wildcard read if maxCounterId is negative). */
    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        if (maxCounterId < 0) {
            return device.readCounters(maxCounterId);
        }
        int limit = (int) Math.min(maxCounterId, tableSize(UpfEntityType.COUNTER));
        return readCells(IntStream.range(0, limit).iterator()).values();
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        return readCells(cells.stream().mapToInt(Integer::intValue).distinct().iterator());
    }

    /** The backend's counter changes read (docs/PIPELINE_CONTRACT.md); null (read in full) where it has none. */
    @Override
    public CellChanges readChangedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
        if (noChangedRead) {
            return null;
        }
        try {
            return counterCells.readChanged(since != null && since.token() instanceof long[]
                                                    ? (long[]) since.token() : null, maxCell + 1);
        } catch (P4RuntimeException e) {
            if (e.code() != Status.Code.UNIMPLEMENTED) {
                throw new UpfProgrammableException("cannot read counter changes: " + e.getMessage());
            }
            noChangedRead = true;
            return null;
        }
    }

    private Map<Integer, UpfCounter> readCells(PrimitiveIterator.OfInt cells)
            throws UpfProgrammableException {
        try {
            return counterCells.read(cells);
        } catch (P4RuntimeException e) {
            throw new UpfProgrammableException("cannot read counters: " + e.getMessage());
        }
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        return device.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        device.deleteAll(type);
    }

    @Override
    public void close() {
        client.close();
    }
}

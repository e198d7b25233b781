package org.hupf.standalone.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import org.hupf.core.device.CellChanges;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.net.pi.model.PiCounterId;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ExternEntry;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.ReadResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;

/**
 * UPF counter cells read by index over P4Runtime, decoded straight from the CounterEntry messages: a
 * session's usage counter is the pre-QoS (ingress) and post-QoS (egress) cell of one index. A wildcard read
 * returns every cell of the P4Info (a million in the sw profile) whatever is in use; reading the cells
 * that are asked, in requests of a bounded size, costs what the sessions cost, and hupf-backend's changed-cells
 * read ({@link #readChanged}) what changed.
 */
final class CounterCells {

    /** Counter entries per ReadRequest: ~20 bytes each, a request far below gRPC's 4 MiB message limit. */
    static final int ENTRIES_PER_READ = 32_768;
    /** The backend's changed-cells read (docs/PIPELINE_CONTRACT.md, "Counter changes"). */
    static final int EXTERN_COUNTER_CHANGES = 0x81;
    private static final String CHANGES_URL = "type.googleapis.com/hupf.p4rt.CounterChanges";
    /** Tags of ReadResponse.entities, Entity.counter_entry, CounterEntry's counter_id, index and data, Index.index,
     *  CounterData's byte_count and packet_count. */
    private static final int RESPONSE_ENTITY = 1 << 3 | 2;
    private static final int ENTITY_COUNTER = EncodedUpdates.ENTITY_COUNTER << 3 | 2;
    private static final int ENTRY_ID = 1 << 3;
    private static final int ENTRY_INDEX = 2 << 3 | 2;
    private static final int ENTRY_DATA = 3 << 3 | 2;
    private static final int INDEX_INDEX = 1 << 3;
    private static final int DATA_BYTES = 1 << 3;
    private static final int DATA_PACKETS = 2 << 3;

    private final P4rtClient client;
    private final int ingressId;
    private final int egressId;

    CounterCells(P4rtClient client, P4InfoIndex p4info) throws P4RuntimeException {
        List<? extends Object> ids = UpfTranslator.piIds(UpfEntityType.COUNTER);
        this.client = client;
        this.ingressId = p4info.id(((PiCounterId) ids.get(0)).id());
        this.egressId = p4info.id(((PiCounterId) ids.get(1)).id());
    }

    /**
     * Reads cells.
     *
     * @param cells cell indexes, each once
     * @return cell index to counts
     * @throws P4RuntimeException if a read fails or the device leaves a cell out
     */
    Map<Integer, UpfCounter> read(PrimitiveIterator.OfInt cells) throws P4RuntimeException {
        Map<Integer, long[]> counts = new HashMap<>();
        List<Entity> request = new ArrayList<>(ENTRIES_PER_READ);
        while (cells.hasNext()) {
            int cell = cells.nextInt();
            counts.put(cell, null);
            request.add(entry(ingressId, cell));
            request.add(entry(egressId, cell));
            if (request.size() >= ENTRIES_PER_READ || !cells.hasNext()) {
                for (Entity e : client.read(request)) {
                    collect(e.getCounterEntry(), counts);
                }
                request.clear();
            }
        }
        Map<Integer, UpfCounter> out = new HashMap<>(counts.size() * 2);
        for (Map.Entry<Integer, long[]> c : counts.entrySet()) {
            long[] v = c.getValue();
            if (v == null || v[4] != 3) {
                throw new P4RuntimeException("device returned no ingress and egress counts of cell " + c.getKey());
            }
            out.put(c.getKey(), UpfCounter.builder().withCellId(c.getKey()).setIngress(v[0], v[1])
                    .setEgress(v[2], v[3]).build());
        }
        return out;
    }

    /**
     * The cells a device answered both counts of, from a Write's final counts (a marshalled p4.v1.ReadResponse of
     * counter entries), decoded in place into primitive arrays: no object per entry or per cell.
     *
     * @param finalCounts the answer's bytes
     * @return the cells' counts, in the order of their ids; a cell answered twice on one side has its last answer
     * @throws P4RuntimeException if the bytes are not a ReadResponse
     */
    CellCounts complete(byte[] finalCounts) throws P4RuntimeException {
        // Per counter entry: its cell, its side (0 ingress, 2 egress), packets and bytes.
        long[] entries = new long[64];
        int n = 0;
        try {
            CodedInputStream in = CodedInputStream.newInstance(finalCounts);
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag != RESPONSE_ENTITY) {
                    in.skipField(tag);
                    continue;
                }
                int entity = in.pushLimit(in.readRawVarint32());
                for (int t = in.readTag(); t != 0; t = in.readTag()) {
                    if (t == ENTITY_COUNTER) {
                        int entry = in.pushLimit(in.readRawVarint32());
                        entries = n + 4 <= entries.length ? entries : Arrays.copyOf(entries, 2 * entries.length);
                        n += counterEntry(in, entries, n);
                        in.popLimit(entry);
                    } else {
                        in.skipField(t);
                    }
                }
                in.popLimit(entity);
            }
        } catch (IOException e) {
            throw new P4RuntimeException("Write failed: malformed final counts: " + e.getMessage(),
                                         io.grpc.Status.Code.INTERNAL, e);
        }
        return pairs(entries, n / 4);
    }

    /** The cells whose both sides the entries hold: entries ordered by cell, then by arrival. */
    private static CellCounts pairs(long[] entries, int count) {
        long[] order = new long[count];
        for (int e = 0; e < count; e++) {
            order[e] = entries[4 * e] << 32 | e;
        }
        Arrays.sort(order);
        CellCounts out = new CellCounts(count / 2);
        long[] v = new long[4];
        for (int from = 0; from < count;) {
            long cell = order[from] >>> 32;
            int seen = 0;
            int to = from;
            for (; to < count && order[to] >>> 32 == cell; to++) {
                int e = (int) order[to];
                int at = (int) entries[4 * e + 1];
                v[at] = entries[4 * e + 2];
                v[at + 1] = entries[4 * e + 3];
                seen |= at == 0 ? 1 : 2;
            }
            if (seen == 3) {
                out.add((int) cell, v[0], v[1], v[2], v[3]);
            }
            from = to;
        }
        return out;
    }

    /**
     * Decodes one CounterEntry into {cell, side, packets, bytes} at {@code entries[at]}.
     *
     * @return 4 if it is a count of one of the UPF's two counters, else 0 (nothing kept)
     */
    private int counterEntry(CodedInputStream in, long[] entries, int at) throws IOException {
        long id = 0;
        long index = 0;
        long packets = 0;
        long bytes = 0;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (tag == ENTRY_ID) {
                id = in.readUInt32() & 0xFFFFFFFFL;
            } else if (tag == ENTRY_INDEX || tag == ENTRY_DATA) {
                int limit = in.pushLimit(in.readRawVarint32());
                for (int t = in.readTag(); t != 0; t = in.readTag()) {
                    if (tag == ENTRY_INDEX && t == INDEX_INDEX) {
                        index = in.readInt64();
                    } else if (tag == ENTRY_DATA && t == DATA_BYTES) {
                        bytes = in.readInt64();
                    } else if (tag == ENTRY_DATA && t == DATA_PACKETS) {
                        packets = in.readInt64();
                    } else {
                        in.skipField(t);
                    }
                }
                in.popLimit(limit);
            } else {
                in.skipField(tag);
            }
        }
        int side = id == ingressId ? 0 : id == egressId ? 2 : -1;
        if (side < 0 || index < 0 || index > Integer.MAX_VALUE) {
            return 0;
        }
        entries[at] = index;
        entries[at + 1] = side;
        entries[at + 2] = packets;
        entries[at + 3] = bytes;
        return 4;
    }

    /** @return the entities of a Write's final counts (a marshalled p4.v1.ReadResponse) */
    static List<Entity> entities(byte[] finalCounts) throws P4RuntimeException {
        try {
            return ReadResponse.parseFrom(finalCounts).getEntitiesList();
        } catch (InvalidProtocolBufferException e) {
            throw new P4RuntimeException("Write failed: malformed final counts: " + e.getMessage(),
                                         io.grpc.Status.Code.INTERNAL, e);
        }
    }

    /**
     * Reads the cells whose ingress or egress counts changed since an earlier answer, in one request.
     *
     * @param since the previous answer's {ingress, egress} tokens, or null
     * @param inUse the cells in use, 0 to inUse - 1: the device scans only those
     * @return the changes, whose token is the next {ingress, egress} tokens
     * @throws P4RuntimeException if a read fails or the device has no changed-cells read
     */
    CellChanges readChanged(long[] since, int inUse) throws P4RuntimeException {
        long[] tokens = since == null ? new long[2] : since;
        Map<Integer, long[]> counts = new HashMap<>();
        long[] next = new long[2];
        boolean[] complete = new boolean[2];
        changes(List.of(changesEntry(ingressId, tokens[0], inUse), changesEntry(egressId, tokens[1], inUse)), counts,
                next, complete);
        if (complete[0] != complete[1]) {
            // One counter lost the reader's snapshot: the other read in full too, so that what is left out is zero.
            int at = complete[0] ? 1 : 0;
            changes(List.of(changesEntry(at == 0 ? ingressId : egressId, 0, inUse)), counts, next, complete);
        }
        if (!complete[0]) {
            // A cell changed in one counter only: its other counts too, by index.
            List<Integer> halves = new ArrayList<>();
            counts.forEach((cell, v) -> {
                if (v[4] != 3) {
                    halves.add(cell);
                }
            });
            read(halves.stream().mapToInt(Integer::intValue).iterator()).forEach((cell, c) -> counts.put(cell,
                    new long[]{c.ingressPkts(), c.ingressBytes(), c.egressPkts(), c.egressBytes(), 3}));
        }
        List<UpfCounter> cells = new ArrayList<>(counts.size());
        counts.forEach((cell, v) -> cells.add(UpfCounter.builder().withCellId(cell).setIngress(v[0], v[1])
                .setEgress(v[2], v[3]).build()));
        return new CellChanges(complete[0], cells, next);
    }

    /** One changed-cells request: each counter's token and completeness into next and complete, its cells into counts. */
    private void changes(List<Entity> request, Map<Integer, long[]> counts, long[] next, boolean[] complete)
            throws P4RuntimeException {
        for (Entity e : request) {
            next[e.getExternEntry().getExternId() == ingressId ? 0 : 1] = 0;
        }
        for (Entity e : client.read(request)) {
            if (e.hasExternEntry() && e.getExternEntry().getExternTypeId() == EXTERN_COUNTER_CHANGES) {
                int at = e.getExternEntry().getExternId() == ingressId ? 0 : 1;
                long[] m = decode(e.getExternEntry().getEntry());
                next[at] = m[0];
                complete[at] = m[1] != 0;
            } else if (e.hasCounterEntry()) {
                CounterEntry c = e.getCounterEntry();
                int at = c.getCounterId() == ingressId ? 0 : c.getCounterId() == egressId ? 2 : -1;
                if (at >= 0) {
                    long[] v = counts.computeIfAbsent((int) c.getIndex().getIndex(), k -> new long[5]);
                    v[at] = c.getData().getPacketCount();
                    v[at + 1] = c.getData().getByteCount();
                    v[4] |= at == 0 ? 1 : 2;
                }
            }
        }
        for (Entity e : request) {
            if (next[e.getExternEntry().getExternId() == ingressId ? 0 : 1] == 0) {
                throw new P4RuntimeException("device answered no counter changes token");
            }
        }
    }

    /** A CounterChanges request: the token of the reader's last answer (0: none), the cells to scan. */
    private static Entity changesEntry(int counterId, long token, int cells) {
        ByteString.Output out = ByteString.newOutput();
        try {
            CodedOutputStream c = CodedOutputStream.newInstance(out);
            c.writeUInt64(1, token);
            c.writeUInt64(3, Math.max(1, cells));
            c.flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);  // a ByteString's output does not fail
        }
        return Entity.newBuilder().setExternEntry(ExternEntry.newBuilder().setExternTypeId(EXTERN_COUNTER_CHANGES)
                .setExternId(counterId).setEntry(Any.newBuilder().setTypeUrl(CHANGES_URL).setValue(out.toByteString())))
                .build();
    }

    /** @return an answer's {token, complete} */
    private static long[] decode(Any any) throws P4RuntimeException {
        if (!CHANGES_URL.equals(any.getTypeUrl())) {
            throw new P4RuntimeException("counter changes answered with a " + any.getTypeUrl());
        }
        long[] m = new long[2];
        try {
            CodedInputStream in = any.getValue().newCodedInput();
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag == 8) {
                    m[0] = in.readUInt64();
                } else if (tag == 16) {
                    m[1] = in.readBool() ? 1 : 0;
                } else {
                    in.skipField(tag);
                }
            }
        } catch (IOException e) {
            throw new P4RuntimeException("malformed counter changes answer: " + e.getMessage());
        }
        return m;
    }

    private static Entity entry(int counterId, int cell) {
        return Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(counterId)
                .setIndex(Index.newBuilder().setIndex(cell))).build();
    }

    /** Adds one entry to its cell's {ingress pkts, ingress bytes, egress pkts, egress bytes, which seen}. */
    private void collect(CounterEntry e, Map<Integer, long[]> counts) {
        int cell = (int) e.getIndex().getIndex();
        if (!counts.containsKey(cell)) {
            return;
        }
        // A cell noted with null (asked, nothing yet) counts as absent for computeIfAbsent.
        long[] v = counts.computeIfAbsent(cell, k -> new long[5]);
        int at = e.getCounterId() == ingressId ? 0 : e.getCounterId() == egressId ? 2 : -1;
        if (at >= 0) {
            v[at] = e.getData().getPacketCount();
            v[at + 1] = e.getData().getByteCount();
            v[4] |= at == 0 ? 1 : 2;
        }
    }
}

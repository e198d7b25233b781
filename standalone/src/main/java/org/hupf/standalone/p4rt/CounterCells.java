package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.net.pi.model.PiCounterId;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;

/**
 * UPF counter cells read by index over P4Runtime, decoded straight from the CounterEntry messages: a
 * session's usage counter is the pre-QoS (ingress) and post-QoS (egress) cell of one index. A wildcard read
 * returns every cell of the P4Info (a million in the sw profile) whatever is in use; reading the cells
 * that are asked, in requests of a bounded size, costs what the sessions cost.
 */
final class CounterCells {

    /** Counter entries per ReadRequest: ~20 bytes each, a request far below gRPC's 4 MiB message limit. */
    static final int ENTRIES_PER_READ = 32_768;

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

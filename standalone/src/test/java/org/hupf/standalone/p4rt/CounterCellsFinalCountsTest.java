package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.onosproject.net.pi.model.PiCounterId;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A Write's final counts decoded in place from the answer's bytes: each cell the device answered both counts of,
 * whatever the entries' order, the others left out; entities of other kinds and other counters ignored.
 */
public class CounterCellsFinalCountsTest {

    private final P4InfoIndex p4info = P4InfoIndex.parse(Pipelines.p4infoUrl("sw", "bmv2"));
    private final CounterCells cells = new CounterCells(null, p4info);
    private final int ingress = p4info.id(((PiCounterId) UpfTranslator.piIds(UpfEntityType.COUNTER).get(0)).id());
    private final int egress = p4info.id(((PiCounterId) UpfTranslator.piIds(UpfEntityType.COUNTER).get(1)).id());

    public CounterCellsFinalCountsTest() throws Exception {
    }

    private static Entity counter(int id, long cell, long packets, long bytes) {
        return Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(id)
                .setIndex(Index.newBuilder().setIndex(cell))
                .setData(CounterData.newBuilder().setPacketCount(packets).setByteCount(bytes))).build();
    }

    @Test
    public void cellsAnsweredWholeAreDecoded() throws Exception {
        ReadResponse answer = ReadResponse.newBuilder()
                .addEntities(counter(egress, 7, 2, 200))
                .addEntities(counter(ingress, 0, 0, 0))
                .addEntities(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(1)))
                .addEntities(counter(ingress, 7, 3, 300))
                .addEntities(counter(egress, 0, 0, 0))
                .addEntities(counter(ingress, 1 << 20, Long.MAX_VALUE, 1L << 40))
                .addEntities(counter(egress + ingress, 9, 1, 1))
                .build();
        CellCounts decoded = cells.complete(answer.toByteArray());
        assertEquals("in the order of their ids", List.of(0, 7), List.of(decoded.cell(0), decoded.cell(1)));
        Map<Integer, UpfCounter> got = decoded.toMap();
        assertEquals("cells answered whole", Map.of(
                7, UpfCounter.builder().withCellId(7).setIngress(3, 300).setEgress(2, 200).build(),
                0, UpfCounter.builder().withCellId(0).setIngress(0, 0).setEgress(0, 0).build()), got);
        assertTrue("no final counts", cells.complete(new byte[0]).isEmpty());
    }

    @Test
    public void malformedBytesAreAPreciseError() {
        byte[] truncated = ReadResponse.newBuilder().addEntities(counter(ingress, 7, 3, 300)).build().toByteArray();
        try {
            cells.complete(java.util.Arrays.copyOf(truncated, truncated.length - 2));
            fail("decoded a truncated answer");
        } catch (P4RuntimeException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith("Write failed: malformed final counts"));
        }
    }
}

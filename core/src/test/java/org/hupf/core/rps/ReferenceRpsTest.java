package org.hupf.core.rps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.junit.Test;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.hupf.pipeconf.packet.RpsReceipt.KIND_DELAYED;
import static org.hupf.pipeconf.packet.RpsReceipt.KIND_DIRECT;
import static org.hupf.pipeconf.packet.RpsReceipt.KIND_LATE_WARNING;
import static org.hupf.pipeconf.packet.RpsReceipt.KIND_RECEIPT;
import static org.hupf.pipeconf.packet.RpsReceipt.POINT_IN;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** Algorithm 2 on hand-worked receipt sequences, and against the Python reference model's vectors. */
public class ReferenceRpsTest {

    /** Flows 1 and 2: a digest below 1000 makes a direct disclosure. */
    private static final long DIRECT_BELOW = 1000;
    private static final long SELECT_ALL = 0xFFFFFFFFL;

    private static ReferenceRps rps(int capacity, long quietUs, long selectThreshold) {
        Map<Integer, Long> thresholds = Map.of(1, DIRECT_BELOW, 2, DIRECT_BELOW);
        return new ReferenceRps(capacity, quietUs, selectThreshold, thresholds::get);
    }

    private static RpsReceipt receipt(int flow, long digest, long ts) {
        return new RpsReceipt(POINT_IN, KIND_RECEIPT, flow, digest, ts, 0);
    }

    private static List<RpsReceipt> feed(ReferenceRps rps, RpsReceipt... rs) {
        List<RpsReceipt> out = new ArrayList<>();
        for (RpsReceipt r : rs) {
            out.addAll(rps.observe(r));
        }
        return out;
    }

    @Test
    public void selectionHashIsZlibsCrc32OfTheTwoDigestsBigEndian() {
        // zlib.crc32(b"12345678") == 0x9ae0daaf: the digests 0x31323334 and 0x35363738 are those 8 bytes.
        assertEquals(0x9AE0DAAFL, ReferenceRps.selectionHash(0x31323334L, 0x35363738L));
    }

    @Test
    public void aDirectDisclosureDisclosesItsFlowsReceiptsOlderThanTheQuietTime() {
        ReferenceRps rps = rps(16, 100, SELECT_ALL);
        RpsReceipt r1 = receipt(1, 5000, 0);
        RpsReceipt r2 = receipt(1, 6000, 50);
        RpsReceipt r3 = receipt(1, 7000, 150);   // 50 us before the disclosure: within the quiet time
        RpsReceipt d = receipt(1, 10, 200);
        assertTrue("receipts alone disclose nothing", feed(rps, r1, r2, r3).isEmpty());
        assertEquals(3, rps.size());
        List<RpsReceipt> out = rps.observe(d);
        assertEquals(List.of(d.as(KIND_DIRECT, 0), r1.as(KIND_DELAYED, 0), r2.as(KIND_DELAYED, 0)), out);
        assertEquals("the disclosure emptied its flow's receipts, the quiet one too", 0, rps.size());
        // The next disclosure of the flow has the next number and judges only what came after the first.
        RpsReceipt r4 = receipt(1, 8000, 300);
        assertEquals(List.of(receipt(1, 20, 900).as(KIND_DIRECT, 1), r4.as(KIND_DELAYED, 1)),
                     feed(rps, r4, receipt(1, 20, 900)));
    }

    @Test
    public void aReceiptIsSelectedOnlyWhenTheHashOfTheTwoDigestsIsBelowTheThreshold() {
        RpsReceipt r1 = receipt(1, 5000, 0);
        RpsReceipt r2 = receipt(1, 6000, 1);
        RpsReceipt d = receipt(1, 10, 1000);
        long h1 = ReferenceRps.selectionHash(r1.digest(), d.digest());
        long h2 = ReferenceRps.selectionHash(r2.digest(), d.digest());
        assertTrue(h1 != h2);
        RpsReceipt chosen = h1 < h2 ? r1 : r2;
        // Threshold = the larger hash: the smaller is below it, the larger is not.
        ReferenceRps rps = rps(16, 0, Math.max(h1, h2));
        assertEquals(List.of(d.as(KIND_DIRECT, 0), chosen.as(KIND_DELAYED, 0)), feed(rps, r1, r2, d));
    }

    @Test
    public void ageWrapsWithTheThirtyTwoBitClock() {
        ReferenceRps rps = rps(16, 100, SELECT_ALL);
        RpsReceipt old = receipt(1, 5000, 0xFFFFFF00L);
        RpsReceipt d = receipt(1, 10, 0x100);   // 512 us later, across the wrap
        assertEquals(List.of(d.as(KIND_DIRECT, 0), old.as(KIND_DELAYED, 0)), feed(rps, old, d));
    }

    @Test
    public void aDisclosureRemovesOnlyItsOwnFlowSoTheOthersKeepTheirPlace() {
        ReferenceRps rps = rps(3, 0, SELECT_ALL);
        RpsReceipt a1 = receipt(1, 5000, 0);
        RpsReceipt b1 = receipt(2, 5001, 1);
        RpsReceipt a2 = receipt(1, 5002, 2);
        feed(rps, a1, b1, a2);
        assertEquals(3, feed(rps, receipt(1, 1, 10)).size());
        assertEquals("flow 2's receipt stays", 1, rps.size());
        // Room again: two more receipts evict nothing, and flow 2's disclosure still finds b1.
        assertTrue(feed(rps, receipt(1, 6000, 11), receipt(1, 6001, 12)).isEmpty());
        List<RpsReceipt> out = rps.observe(receipt(2, 2, 20));
        assertEquals(List.of(receipt(2, 2, 20).as(KIND_DIRECT, 0), b1.as(KIND_DELAYED, 0)), out);
    }

    @Test
    public void aReceiptEvictedBeforeItsDisclosureIsOneLateWarningPerFlowAndDisclosureNumber() {
        ReferenceRps rps = rps(2, 0, SELECT_ALL);
        RpsReceipt r1 = receipt(1, 5000, 0);
        RpsReceipt r2 = receipt(1, 5001, 1);
        RpsReceipt r3 = receipt(1, 5002, 2);
        RpsReceipt r4 = receipt(1, 5003, 3);
        assertEquals("r3 evicts r1: warned with r1's fields", List.of(r1.as(KIND_LATE_WARNING, 0)),
                     feed(rps, r1, r2, r3));
        assertTrue("r4 evicts r2: the same disclosure number is not warned twice", feed(rps, r4).isEmpty());
        assertEquals(1, rps.counts().lateWarnings);
        assertEquals(1, rps.counts().lateSuppressed);
        RpsReceipt d = receipt(1, 1, 10);
        assertEquals(List.of(d.as(KIND_DIRECT, 0), r3.as(KIND_DELAYED, 0), r4.as(KIND_DELAYED, 0)), feed(rps, d));
        // The next disclosure number is warned again.
        RpsReceipt r5 = receipt(1, 5004, 11);
        assertEquals(List.of(r5.as(KIND_LATE_WARNING, 1)),
                     feed(rps, r5, receipt(1, 5005, 12), receipt(1, 5006, 13)));
    }

    @Test
    public void receiptsOfAFlowTheConfigurationDoesNotKnowAreCountedNotBuffered() {
        ReferenceRps rps = rps(2, 0, SELECT_ALL);
        assertTrue(feed(rps, receipt(9, 1, 0), receipt(9, 5000, 1)).isEmpty());
        assertEquals(0, rps.size());
        assertEquals(2, rps.counts().unknownFlow);
    }

    /**
     * The Python reference model's Algorithm 2 (tools/hupf_tools/model/rps.py, ReferencePoint) and this one emit
     * the same records for the same receipts (vectors: tests/rps/reference_vectors.py).
     */
    @Test
    public void itEmitsWhatThePythonReferenceModelEmits() throws Exception {
        JsonNode v;
        try (InputStream in = getClass().getResourceAsStream("/rps/reference_vectors.json")) {
            v = new ObjectMapper().readTree(in);
        }
        Map<Integer, Long> thresholds = new HashMap<>();
        v.get("thresholds").fields().forEachRemaining(e -> thresholds.put(Integer.parseInt(e.getKey()),
                                                                          e.getValue().asLong()));
        int point = v.get("point").asInt();
        ReferenceRps rps = new ReferenceRps(v.get("capacity").asInt(), v.get("quietUs").asLong(),
                                            v.get("selectThreshold").asLong(), thresholds::get);
        int step = 0;
        for (JsonNode s : v.get("steps")) {
            JsonNode r = s.get("receipt");
            List<RpsReceipt> want = new ArrayList<>();
            for (JsonNode e : s.get("emitted")) {
                want.add(new RpsReceipt(point, e.get(0).asInt(), e.get(1).asInt(), e.get(2).asLong(), e.get(3).asLong(),
                                        e.get(4).asInt()));
            }
            assertEquals("step " + step, want, rps.observe(new RpsReceipt(point, KIND_RECEIPT, r.get(0).asInt(),
                                                                          r.get(1).asLong(), r.get(2).asLong(), 0)));
            step++;
        }
        assertTrue(step > 1000);
    }
}

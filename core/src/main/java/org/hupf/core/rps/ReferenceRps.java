package org.hupf.core.rps;

import org.hupf.pipeconf.packet.RpsReceipt;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.zip.CRC32;

/**
 * The reference Retroactive Packet Sampling algorithm (seed 003, Algorithm 2) for one observation point, over
 * receipts the data plane sent (mode HYBRID, kind 3), in host memory: a buffer of receipts in arrival order,
 * bounded in number (the oldest goes when a new one does not fit), from which a direct disclosure removes every
 * receipt of its flow, each disclosed (kind 2) when it is older than the quiet time and the CRC-32 of its digest and
 * the disclosure's is below the selection threshold.
 *
 * <p>What it emits reads as the data plane's FIFO RPS does (docs/PIPELINE_CONTRACT.md, "RPS"), so that the monitor
 * sees one format: a direct disclosure (kind 1) takes its flow's next disclosure number, a delayed one (kind 2)
 * carries the number of the disclosure that chose it, and a receipt that leaves the buffer before its flow's next
 * disclosure is a late-disclosure warning (kind 4, the receipt's fields; once per flow and disclosure number, the
 * later ones counted). Not thread-safe: one thread feeds it.
 */
final class ReferenceRps {

    /** A buffered receipt: a node of the arrival-order list, removable anywhere in O(1). */
    private static final class Node {
        final RpsReceipt receipt;
        Node prev;
        Node next;

        Node(RpsReceipt receipt) {
            this.receipt = receipt;
        }
    }

    /** A flow's receipts since its last direct disclosure (oldest first) and its disclosure numbers. */
    private static final class FlowState {
        final ArrayDeque<Node> pending = new ArrayDeque<>();
        int nextDnum;
        boolean warned;
    }

    /** What happened, for the operator (kinds counted as emitted). */
    static final class Counts {
        long observed;
        long direct;
        long delayed;
        long lateWarnings;
        /** Receipts lost to the buffer's size after their flow's warning was emitted. */
        long lateSuppressed;
        /** Receipts of a flow id the configuration does not know (the data plane's flows ahead of the host's). */
        long unknownFlow;
    }

    private final int capacity;
    private final long quietUs;
    private final long selectThreshold;
    /** A flow's direct-disclosure threshold, null for a flow not configured. */
    private final IntFunction<Long> discThreshold;
    private final Map<Integer, FlowState> flows = new HashMap<>();
    private final Counts counts = new Counts();
    private Node oldest;
    private Node newest;
    private int size;

    /**
     * @param capacity        receipts the buffer holds
     * @param quietUs         κ − μ, microseconds
     * @param selectThreshold σ · 2^32
     * @param discThreshold   a flow's direct-disclosure threshold, null for an unknown flow
     */
    ReferenceRps(int capacity, long quietUs, long selectThreshold, IntFunction<Long> discThreshold) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the host buffer needs room for at least one receipt, got " + capacity);
        }
        this.capacity = capacity;
        this.quietUs = quietUs;
        this.selectThreshold = selectThreshold;
        this.discThreshold = discThreshold;
    }

    /**
     * Runs the algorithm for one observed packet.
     *
     * @param r its receipt (the kind is not looked at)
     * @return the records to send to the monitor, in order (often none)
     */
    List<RpsReceipt> observe(RpsReceipt r) {
        Long threshold = discThreshold.apply(r.flowId());
        if (threshold == null) {
            counts.unknownFlow++;
            return List.of();
        }
        counts.observed++;
        FlowState flow = flows.computeIfAbsent(r.flowId(), f -> new FlowState());
        List<RpsReceipt> out = new ArrayList<>();
        if (r.digest() < threshold) {
            int d = flow.nextDnum;
            out.add(r.as(RpsReceipt.KIND_DIRECT, d));
            counts.direct++;
            for (Node n : flow.pending) {
                unlink(n);
                RpsReceipt candidate = n.receipt;
                if (age(r.ts(), candidate.ts()) > quietUs && selected(candidate.digest(), r.digest())) {
                    out.add(candidate.as(RpsReceipt.KIND_DELAYED, d));
                    counts.delayed++;
                }
            }
            flow.pending.clear();
            flow.nextDnum = (d + 1) & 0xFFFF;
            flow.warned = false;
            return out;
        }
        Node n = new Node(r.as(RpsReceipt.KIND_RECEIPT, flow.nextDnum));
        append(n);
        flow.pending.addLast(n);
        if (size > capacity) {
            evictOldest(out);
        }
        return out;
    }

    /** The buffer evicts in arrival order, so the oldest receipt is also the oldest its flow has pending. */
    private void evictOldest(List<RpsReceipt> out) {
        Node n = oldest;
        unlink(n);
        FlowState flow = flows.get(n.receipt.flowId());
        flow.pending.pollFirst();
        if (flow.warned) {
            counts.lateSuppressed++;
        } else {
            flow.warned = true;
            out.add(n.receipt.as(RpsReceipt.KIND_LATE_WARNING, n.receipt.dnum()));
            counts.lateWarnings++;
        }
    }

    /** Microseconds from {@code then} to {@code now} on a 32-bit clock that wraps. */
    static long age(long now, long then) {
        return (now - then) & 0xFFFFFFFFL;
    }

    /** Whether a receipt is chosen by a disclosure: CRC-32 of (receipt digest ‖ disclosure digest) < σ · 2^32. */
    boolean selected(long receiptDigest, long disclosureDigest) {
        return selectionHash(receiptDigest, disclosureDigest) < selectThreshold;
    }

    /** CRC-32 (IEEE, zlib's) of the two digests, 8 bytes big-endian: the contract's selection hash. */
    static long selectionHash(long receiptDigest, long disclosureDigest) {
        CRC32 crc = new CRC32();
        crc.update(ByteBuffer.allocate(8).putInt((int) receiptDigest).putInt((int) disclosureDigest).array());
        return crc.getValue();
    }

    private void append(Node n) {
        n.prev = newest;
        if (newest == null) {
            oldest = n;
        } else {
            newest.next = n;
        }
        newest = n;
        size++;
    }

    private void unlink(Node n) {
        if (n.prev == null) {
            oldest = n.next;
        } else {
            n.prev.next = n.next;
        }
        if (n.next == null) {
            newest = n.prev;
        } else {
            n.next.prev = n.prev;
        }
        n.prev = null;
        n.next = null;
        size--;
    }

    /** @return receipts in the buffer */
    int size() {
        return size;
    }

    Counts counts() {
        return counts;
    }
}

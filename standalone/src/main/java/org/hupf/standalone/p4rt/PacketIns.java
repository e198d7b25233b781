package org.hupf.standalone.p4rt;

import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The packet-ins a device sent on the stream channel, waiting for their consumer. */
public final class PacketIns {

    private static final int CAPACITY = 4096;

    private final BlockingQueue<PacketIn> queue = new LinkedBlockingQueue<>(CAPACITY);
    private volatile long dropped;

    /** Keeps the message if it is a packet-in; a slow consumer loses packet-ins rather than stalling the stream. */
    void offer(StreamMessageResponse msg) {
        if (msg.getUpdateCase() == StreamMessageResponse.UpdateCase.PACKET && !queue.offer(msg.getPacket())) {
            dropped++;
        }
    }

    /**
     * Waits for the next packet-in.
     *
     * @param timeout how long to wait
     * @param unit    unit of timeout
     * @return the packet-in, or null on timeout
     * @throws InterruptedException if interrupted
     */
    public PacketIn next(long timeout, TimeUnit unit) throws InterruptedException {
        return queue.poll(timeout, unit);
    }

    /** @return packet-ins dropped because nobody took them from the queue */
    public long dropped() {
        return dropped;
    }
}

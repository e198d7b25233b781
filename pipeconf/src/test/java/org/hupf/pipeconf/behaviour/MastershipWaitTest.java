package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.upf.PiTargetException;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DeviceId;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** A direct P4Runtime write waits for this node to become the device's master, and gives up naming the master. */
public class MastershipWaitTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:backend:b1");

    /** This node becomes the master after {@code after} questions (never when negative). */
    private static final class Mastership extends MastershipServiceAdapter {
        final AtomicInteger asked = new AtomicInteger();
        final int after;

        Mastership(int after) {
            this.after = after;
        }

        @Override
        public boolean isLocalMaster(DeviceId deviceId) {
            return after >= 0 && asked.incrementAndGet() > after;
        }

        @Override
        public NodeId getMasterFor(DeviceId deviceId) {
            return NodeId.nodeId("onos-3");
        }
    }

    @Test
    public void aWriteWaitsUntilThisNodeIsTheMaster() throws PiTargetException {
        Mastership m = new Mastership(3);
        HupfP4RuntimeBehaviour.awaitMastership(m, DEV, 5_000);
        assertEquals("asked until it was master", 4, m.asked.get());
    }

    @Test
    public void aWriteGivesUpNamingTheMaster() {
        try {
            HupfP4RuntimeBehaviour.awaitMastership(new Mastership(-1), DEV, 300);
            fail("never master: the wait must give up");
        } catch (PiTargetException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("after 300 ms (master: onos-3)"));
        }
    }
}

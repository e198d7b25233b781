package org.hupf.app.impl;

import org.hupf.api.session.SessionJson;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.NodeId;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * How the ONOS component stops: what it hands over in the store, what a deactivated app leaves (nothing), and what
 * a stop cut off in the middle of removing sessions leaves for the next leader to finish.
 */
public class HupfManagerStopTest extends HupfManagerFixture {

    @Test
    public void aNodeThatStopsHandsItsSessionsOverInTheStore() throws Exception {
        manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        HupfManager stopped = manager;
        manager = null;
        stopped.deactivate();
        assertEquals(1, stopped.store().all().size());
    }

    @Test
    public void deactivatingTheAppLeavesNoSessionInTheStore() throws Exception {
        manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        appState = ApplicationState.INSTALLED;
        HupfManager stopped = manager;
        manager = null;
        stopped.deactivate();
        assertEquals(0, stopped.store().all().size());
        assertTrue("no hupf thread after deactivation: " + hupfThreads(), hupfThreads().isEmpty());
        try {
            stopped.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
            fail("a stopped manager took a request");
        } catch (IllegalStateException e) {
            assertEquals("hupf is stopping on this node", e.getMessage());
        }
    }

    /**
     * A CP function's sessions being removed when the store stopped answering (the leader stopped or was lost
     * mid-way): the next term's leader removes them before it serves PFCP, the reconciliation that follows takes
     * their entries off the device, and another CP function's session stays.
     */
    @Test
    public void aReleaseCutOffIsFinishedWhenANewTermBegins() throws Exception {
        createOf("smf-a", 1);
        createOf("smf-a", 2);
        createOf("smf-b", 3);
        cluster.failRemovals(true);
        try {
            manager.manager().deleteByNodeAsync("smf-a");
            fail("the store's removals timed out");
        } catch (RuntimeException e) {
            cluster.failRemovals(false);
        }
        assertEquals(List.of("smf-a", "smf-a", "smf-b"), storedNodes());
        leadership.electAndTell(new NodeId("onos-2"), 2);
        eventually("standing by", () -> manager.uePools().isEmpty());
        leadership.electAndTell(LOCAL, 3);
        eventually("leading, smf-a's entries off the device",
                   () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1);
        assertEquals(List.of("smf-b"), storedNodes());
    }

    /** The test's device as the writer sees it, whose next entry write waits, once armed, until released. */
    private static final class Gate {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean armed;

        HupfUpfDevice over(InMemoryUpfDevice d) {
            return (HupfUpfDevice) Proxy.newProxyInstance(HupfUpfDevice.class.getClassLoader(),
                                                          new Class<?>[]{HupfUpfDevice.class}, (proxy, m, args) -> {
                if (armed && (m.getName().equals("apply") || m.getName().equals("delete"))) {
                    armed = false;
                    entered.countDown();
                    release.await();
                }
                try {
                    return m.invoke(d, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        }
    }

    /**
     * A CP function's bulk deletion queued behind a device write when the node stops: the device writer writes
     * its removals before it stops (failed, they would stay on the device). The write in flight is released only
     * once the deactivation waits in the writer's stop, so a writer that stops at once fails the removals here.
     */
    @Test
    public void aDeactivationWritesTheRemovalsOfABulkDeletionQueuedBeforeIt() throws Exception {
        Gate gate = new Gate();
        HupfUpfDevice gated = gate.over(device);
        manager.deviceSource = new FixedDeviceSource(gated);
        createOf("smf-a", 1);
        createOf("smf-a", 2);
        gate.armed = true;
        Thread creating = new Thread(() -> {
            try {
                createOf("smf-b", 3);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "test-creating");
        creating.start();
        assertTrue(gate.entered.await(60, TimeUnit.SECONDS));
        manager.manager().deleteByNodeAsync("smf-a");
        HupfManager stopped = manager;
        manager = null;
        Thread stopping = new Thread(stopped::deactivate, "test-stopping");
        stopping.start();
        while (!(Arrays.stream(stopping.getStackTrace()).anyMatch(f -> f.getClassName().endsWith("DeviceWriter")
                && f.getMethodName().equals("close")) && stopping.getState() == Thread.State.TIMED_WAITING)) {
            Thread.onSpinWait();
        }
        gate.release.countDown();
        stopping.join();
        creating.join();
        assertEquals("smf-a's entries left the device, smf-b's is there", 1,
                     device.entities(UpfEntityType.SESSION_DOWNLINK).size());
        assertEquals(List.of("smf-b"), storedNodes());
    }

    /**
     * hupf deactivated while the store does not answer its clearing (the reinstall that found 399 sessions
     * of a released association): hupf activated again leads from an empty store and an emptied device.
     */
    @Test
    public void aDeactivationsClearingCutOffIsFinishedByTheNextActivation() throws Exception {
        createOf("smf-a", 1);
        createOf("smf-b", 2);
        appState = ApplicationState.INSTALLED;
        cluster.failRemovals(true);
        HupfManager stopped = manager;
        manager = null;
        stopped.deactivate();
        cluster.failRemovals(false);
        assertEquals(2, storedNodes().size());
        appState = ApplicationState.ACTIVE;
        manager = newManager();
        manager.activate();
        eventually("leading, the device reconciled to an empty store",
                   () -> manager.agent() != null && device.entities(UpfEntityType.SESSION_DOWNLINK).isEmpty());
        assertEquals(List.of(), storedNodes());
        assertTrue(manager.sessions().isEmpty());
    }
}

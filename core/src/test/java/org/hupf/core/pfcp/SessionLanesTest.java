package org.hupf.core.pfcp;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** A session's messages one at a time, in arrival order; other sessions' messages do not wait for them. */
public class SessionLanesTest {

    private final SessionLanes<String> lanes = new SessionLanes<>();

    @Test
    public void aKeysMessagesStartOneAtATimeInArrivalOrder() {
        assertTrue(lanes.enter(7L, "first"));
        assertFalse(lanes.enter(7L, "second"));
        assertFalse(lanes.enter(7L, "third"));
        assertEquals("second", lanes.next(7L));
        assertEquals("third", lanes.next(7L));
        assertNull(lanes.next(7L));
        assertEquals(0, lanes.busyKeys());
        assertTrue("a free key's message starts at once", lanes.enter(7L, "fourth"));
    }

    @Test
    public void otherKeysDoNotWait() {
        assertTrue(lanes.enter(7L, "a"));
        assertFalse(lanes.enter(7L, "b"));
        assertTrue(lanes.enter(8L, "c"));
        assertEquals(2, lanes.busyKeys());
        assertNull(lanes.next(8L));
        assertEquals("b", lanes.next(7L));
        assertEquals(1, lanes.busyKeys());
    }
}

package org.hupf.app;

import org.junit.Test;
import org.onosproject.store.service.StorageException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** A component's storage opened on a node whose storage does not answer yet: again, with doubling waits. */
public class StorageOpeningTest {

    private final List<Long> waits = new ArrayList<>();
    private final AtomicInteger attempts = new AtomicInteger();

    /** Opens "it", timing out the first {@code failures} times. */
    private String open(int failures) {
        return StorageOpening.open("the map", () -> {
            if (attempts.incrementAndGet() <= failures) {
                throw new StorageException.Timeout();
            }
            return "it";
        }, 4, 100, waits::add);
    }

    @Test
    public void aStorageThatAnswersLateIsOpenedOnceItAnswers() {
        assertEquals("it", open(2));
        assertEquals(3, attempts.get());
        assertEquals(List.of(100L, 200L), waits);
    }

    @Test
    public void aStorageThatNeverAnswersFailsTheActivationSayingWhat() {
        try {
            open(10);
            fail("opened without an answer");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith("hupf could not open the map in ONOS's storage in 4"
                                                                         + " attempts"));
        }
        assertEquals(4, attempts.get());
        assertEquals(List.of(100L, 200L, 400L), waits);
    }

    @Test
    public void anotherFailureIsNotRetried() {
        try {
            StorageOpening.open("the map", () -> {
                attempts.incrementAndGet();
                throw new IllegalArgumentException("a bug");
            }, 4, 100, waits::add);
            fail("opened");
        } catch (IllegalArgumentException e) {
            assertEquals(1, attempts.get());
        }
    }
}

package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.OffloadPolicy;
import org.hupf.app.device.InMemoryUpfDevice;
import org.hupf.app.offload.OffloadManager;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

public class LabStatusTest {

    @Rule
    public TemporaryFolder dir = new TemporaryFolder();

    /**
     * The offload manager calls its listeners under its lock; a status write waiting for that lock must not
     * keep an event out (both in opposite orders stalled the lab runner, PFCP and polls included).
     */
    @Test(timeout = 20_000)
    public void anEventArrivingWhileAWriteWaitsForTheManagerIsTakenAndWritten() throws Exception {
        InMemoryUpfDevice backend = new InMemoryUpfDevice("backend", 1000, 2000, 100);
        InMemoryUpfDevice hw = new InMemoryUpfDevice("switch", 10, 20, 10);
        OffloadManager manager = new OffloadManager(backend, hw, OffloadPolicy.builder().build(),
                                                    System::currentTimeMillis);
        Path file = dir.getRoot().toPath().resolve("status.json");
        LabStatus status = new LabStatus(file, manager, backend, hw);
        manager.addListener(status::event);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                status.write(0, null, null);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "status-writer");
        synchronized (manager) {
            writer.start();
            while (writer.getState() != Thread.State.BLOCKED && writer.isAlive()) {
                Thread.sleep(1);
            }
            manager.onHeavyHitter(ScaleSimulation.ue(0));
        }
        writer.join();
        assertNull(failure.get());
        JsonNode events = new ObjectMapper().readTree(file.toFile()).get("events");
        assertEquals(1, events.size());
        assertEquals("HH_REPORT", events.get(0).get("kind").asText());
        assertEquals(ScaleSimulation.ue(0).toString(), events.get(0).get("ue").asText());
    }

    /** The lab takes its final usages from a status whose poll started after the traffic: the status says when. */
    @Test
    public void theStatusSaysWhenTheLastCompletePollStarted() throws Exception {
        InMemoryUpfDevice backend = new InMemoryUpfDevice("backend", 1000, 2000, 100);
        OffloadManager manager = new OffloadManager(backend, null, OffloadPolicy.builder().build(),
                                                    System::currentTimeMillis);
        Path file = dir.getRoot().toPath().resolve("status.json");
        new LabStatus(file, manager, backend, null).write(0, null, null);
        assertEquals("no poll yet", 0, new ObjectMapper().readTree(file.toFile()).get("polled_from_ms").asLong());
        LabStatus status = new LabStatus(file, manager, backend, null);
        status.polled(1_795_000_000_000L);
        status.write(0, null, null);
        assertEquals(1_795_000_000_000L, new ObjectMapper().readTree(file.toFile()).get("polled_from_ms").asLong());
    }
}

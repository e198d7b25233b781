package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiEntityType;
import org.onosproject.net.pi.runtime.PiHandle;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.Atomicity;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateRequest;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateResponse;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateStatus;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.UpdateType;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteRequest;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteResponse;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A batch of UPF entities becomes one P4Runtime WriteRequest through ONOS's client (plus one of MODIFYs for
 * what already existed); each entity gets the outcome of its own updates, in order.
 */
public class P4RuntimeBatchTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:backend:b1");

    private final FakeWriteDevice device = new FakeWriteDevice(DEV);
    private final P4RuntimeBatch batch = batch(5_000, 5_000);

    private P4RuntimeBatch batch(long deniedBudgetMs, long timedOutBudgetMs) {
        return new P4RuntimeBatch(new UpfTranslator(Pipelines.model("sw")), DEV, device::request, device::probe,
                                  deniedBudgetMs, timedOutBudgetMs);
    }

    private static UpfInterface iface(String prefix, int slice) {
        return UpfInterface.builder().setPrefix(Ip4Prefix.valueOf(prefix)).setCore().setSliceId(slice).build();
    }

    private List<UpfProgrammableException> write(List<UpfEntity> entities, int... removals) {
        BitSet r = new BitSet();
        for (int i : removals) {
            r.set(i);
        }
        return batch.write(entities, r).join();
    }

    @Test
    public void aBatchIsOneWriteRequestInOrder() {
        List<UpfEntity> all = UpfEntities.all().stream().filter(e -> e.type() != org.hupf.pipeconf.api.UpfEntityType.COUNTER)
                .collect(Collectors.toList());
        List<UpfProgrammableException> failures = write(all);
        assertEquals(all.size(), failures.size());
        failures.forEach(f -> assertNull(String.valueOf(f), f));
        assertEquals("one WriteRequest for the whole batch", 1, device.requests.size());
        assertTrue("meter cells are modified, entries inserted",
                   device.requests.get(0).contains(UpdateType.MODIFY)
                           && device.requests.get(0).contains(UpdateType.INSERT));
    }

    @Test
    public void anExistingEntryIsOverwrittenByASecondRequestOfModifies() {
        assertNull(write(List.of(iface("10.250.0.0/16", 1))).get(0));
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 2), iface("10.251.0.0/16", 1)));
        assertEquals(java.util.Arrays.asList(null, null), failures);
        assertEquals(List.of(List.of(UpdateType.INSERT), List.of(UpdateType.INSERT, UpdateType.INSERT),
                             List.of(UpdateType.MODIFY)), device.requests);
        assertEquals(2, device.entries.size());
        assertTrue("the slice was overwritten", device.entries.values().toString().contains("2"));
    }

    @Test
    public void removalsDeleteEntriesResetMetersAndAMissingEntryIsAlreadyGone() {
        UpfMeter meter = UpfMeter.resetMeter(UpfMeter.Type.SESSION, 5);
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1), meter,
                                                                iface("10.252.0.0/16", 1)), 1, 2);
        assertEquals(java.util.Arrays.asList(null, null, null), failures);
        assertEquals(List.of(List.of(UpdateType.INSERT, UpdateType.MODIFY, UpdateType.DELETE)), device.requests);
        assertEquals("the interface", 1, device.entries.keySet().stream()
                .filter(h -> h.entityType() == PiEntityType.TABLE_ENTRY).count());
    }

    @Test
    public void eachEntityGetsItsOwnRefusal() {
        device.capacity = 1;
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1), iface("10.251.0.0/16", 1)));
        assertNull(failures.get(0));
        assertNotNull("the second did not fit", failures.get(1));
        assertEquals(UpfProgrammableException.Type.TABLE_EXHAUSTED, failures.get(1).getType());
        assertEquals("a refusal update by update is not written again", 1, device.requests.size());
        assertEquals(0, device.probes);
    }

    @Test
    public void aBatchThatTimedOutOnALiveDeviceIsWrittenAgain() {
        device.timeouts = 1;
        UpfMeter meter = UpfMeter.resetMeter(UpfMeter.Type.SESSION, 5);
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1), meter,
                                                                iface("10.251.0.0/16", 1)), 1);
        assertEquals(java.util.Arrays.asList(null, null, null), failures);
        assertEquals(1, device.probes);
        // The late write was applied: written again, its INSERTs exist and go again as MODIFYs.
        assertEquals(List.of(List.of(UpdateType.INSERT, UpdateType.MODIFY, UpdateType.INSERT),
                             List.of(UpdateType.INSERT, UpdateType.MODIFY, UpdateType.INSERT),
                             List.of(UpdateType.MODIFY, UpdateType.MODIFY)), device.requests);
        assertEquals("the two interfaces", 2, device.entries.keySet().stream()
                .filter(h -> h.entityType() == PiEntityType.TABLE_ENTRY).count());
    }

    @Test
    public void aDeletionThatTimedOutOnALiveDeviceIsDoneWhenWrittenAgain() {
        assertNull(write(List.of(iface("10.250.0.0/16", 1))).get(0));
        device.timeouts = 1;
        assertEquals(java.util.Arrays.asList((Object) null), write(List.of(iface("10.250.0.0/16", 1)), 0));
        assertEquals(List.of(UpdateType.DELETE), device.requests.get(2));
        assertTrue(device.entries.isEmpty());
    }

    @Test
    public void aBatchThatTimedOutOnADeviceThatDoesNotAnswerFailsUnreachable() {
        device.timeouts = 1;
        device.alive = false;
        try {
            write(List.of(iface("10.250.0.0/16", 1)));
            fail("answered");
        } catch (CompletionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof UpfProgrammableException
                    && e.getCause().getMessage().contains("DEADLINE_EXCEEDED")
                    && e.getCause().getMessage().contains("unreachable"));
        }
        assertEquals("not written again", 1, device.requests.size());
        assertEquals(1, device.probes);
    }

    @Test
    public void aBatchStillTimingOutAfterTheBudgetFails() {
        device.timeouts = Integer.MAX_VALUE;
        try {
            batch(5_000, 0).write(List.of(iface("10.250.0.0/16", 1)), new BitSet()).join();
            fail("answered");
        } catch (CompletionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof TimedOut);
        }
        assertEquals(1, device.requests.size());
    }

    @Test
    public void anUnreachableDeviceFailsTheBatchNotEachUpdate() {
        device.unreachable = true;
        try {
            write(List.of(iface("10.250.0.0/16", 1), iface("10.251.0.0/16", 1)));
            fail("answered");
        } catch (CompletionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof UpfProgrammableException
                    && e.getCause().getMessage().contains("UNAVAILABLE"));
        }
    }

    @Test
    public void aBatchRefusedForWantOfPrimacyIsWrittenAgain() {
        device.denied = 2;
        List<UpfProgrammableException> failures = write(List.of(iface("10.250.0.0/16", 1)));
        assertNull(String.valueOf(failures.get(0)), failures.get(0));
        assertEquals("refused twice, then written", 3, device.requests.size());
        assertEquals(1, device.entries.size());
    }

    @Test
    public void withoutPrimacyWithinTheBudgetTheBatchFails() {
        device.denied = Integer.MAX_VALUE;
        P4RuntimeBatch impatient = batch(3 * NotPrimary.RETRY_PAUSE_MS, 0);
        try {
            impatient.write(List.of(iface("10.250.0.0/16", 1)), new BitSet()).join();
            fail("answered");
        } catch (CompletionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof NotPrimary);
        }
        assertTrue("written again within the budget: " + device.requests.size(),
                   device.requests.size() >= 2 && device.requests.size() <= 3);
        assertTrue(device.entries.isEmpty());
    }
}

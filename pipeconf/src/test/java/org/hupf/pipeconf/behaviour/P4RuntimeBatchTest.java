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
    private final P4RuntimeBatch batch = new P4RuntimeBatch(new UpfTranslator(Pipelines.model("sw")), DEV,
                                                            device::request, 5_000);

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
        P4RuntimeBatch impatient = new P4RuntimeBatch(new UpfTranslator(Pipelines.model("sw")), DEV,
                                                      device::request, 3 * NotPrimary.RETRY_PAUSE_MS);
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

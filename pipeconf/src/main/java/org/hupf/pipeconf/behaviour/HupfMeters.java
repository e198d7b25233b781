package org.hupf.pipeconf.behaviour;

import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.meter.Meter;
import org.onosproject.net.meter.MeterFeatures;
import org.onosproject.net.meter.MeterOperation;
import org.onosproject.net.meter.MeterProgrammable;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link MeterProgrammable} of hupf's pipeconfs: the meter cells of their P4 programs (session and
 * application meters) are hupf's, written through the P4Runtime client and reconciled against its session
 * store. ONOS's meter subsystem stays off them: the P4Runtime driver's would read every cell on each meter poll
 * (the backend has a cell per session) and reset each one ONOS did not write, undoing hupf's meters. ONOS
 * meters for these devices are refused.
 */
public class HupfMeters extends AbstractHandlerBehaviour implements MeterProgrammable {

    @Override
    public CompletableFuture<Boolean> performMeterOperation(MeterOperation meterOp) {
        return CompletableFuture.completedFuture(false);
    }

    @Override
    public CompletableFuture<Collection<Meter>> getMeters() {
        return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public CompletableFuture<Collection<MeterFeatures>> getMeterFeatures() {
        return CompletableFuture.completedFuture(List.of());
    }
}

package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.p4runtime.api.P4RuntimeClient;
import org.onosproject.p4runtime.api.P4RuntimeController;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a backend's batch write needs of ONOS, per device, kept between writes: ONOS's driver set-up (the netcfg's
 * management address, the client, the pipeconf, OSGi service look-ups) costs more than the write's own encoding
 * when done per batch. A kept set-up is used only while nothing that could change it happened since it was made:
 * {@link BackendWriteSetupWatch} drops them all on a device's netcfg, device, mastership or pipeconf event, and a
 * set-up whose client is no longer the controller's client of the device (re-created on a reconnection) is not
 * used either.
 */
final class BackendWriteSetups {

    /** Advanced by every drop: a set-up made before it is stale, even when kept after it. */
    private static final AtomicLong EPOCH = new AtomicLong();
    private static final ConcurrentMap<DeviceId, Setup> KEPT = new ConcurrentHashMap<>();

    private BackendWriteSetups() {
    }

    /** One device's write set-up. */
    static final class Setup {
        final long epoch;
        final P4RuntimeController controller;
        final P4RuntimeClient client;
        final long p4DeviceId;
        final PiPipeconf pipeconf;
        final UpfTranslator translator;
        final MastershipService mastership;

        /**
         * @param epoch      {@link #epoch()} read before the set-up was derived
         * @param controller ONOS's P4Runtime controller
         * @param client     the device's client
         * @param p4DeviceId P4Runtime device id
         * @param pipeconf   the device's pipeconf
         * @param mastership mastership service (only the master writes)
         */
        Setup(long epoch, P4RuntimeController controller, P4RuntimeClient client, long p4DeviceId,
              PiPipeconf pipeconf, MastershipService mastership) {
            this.epoch = epoch;
            this.controller = controller;
            this.client = client;
            this.p4DeviceId = p4DeviceId;
            this.pipeconf = pipeconf;
            this.translator = new UpfTranslator(pipeconf.pipelineModel());
            this.mastership = mastership;
        }
    }

    /** @return the current epoch, to be read before deriving a set-up */
    static long epoch() {
        return EPOCH.get();
    }

    /**
     * @param device device
     * @return its kept set-up if still valid, else null (derive one and {@link #keep} it)
     */
    static Setup current(DeviceId device) {
        Setup s = KEPT.get(device);
        return s != null && s.epoch == EPOCH.get() && s.controller.get(device) == s.client ? s : null;
    }

    static void keep(DeviceId device, Setup setup) {
        KEPT.put(device, setup);
    }

    /** Forgets every kept set-up (something they were derived from may have changed). */
    static void dropAll() {
        EPOCH.incrementAndGet();
        KEPT.clear();
    }
}

package org.hupf.core.rps;

import org.hupf.api.RpsStatus;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.packet.HupfPacketIn;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the RPS records of the devices' packet-ins go, in either host (ONOS's packet processor, the lab runner's
 * packet-in thread): each is read from its packet-in (RPS, or riding an HH report) and offered to the exporter of
 * the current settings, never waiting. A packet-in cut short is counted, never thrown; a record while RPS exports
 * nowhere (off, or no monitor) is counted too.
 */
public final class RpsIntake implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RpsIntake.class);

    /** Settings and the exporter serving them; replaced whole when the settings change. */
    private static final class Export {
        final RpsSettings settings;
        final RpsExporter exporter;
        final HostRps host;

        Export(RpsSettings settings, RpsExporter exporter, HostRps host) {
            this.settings = settings;
            this.exporter = exporter;
            this.host = host;
        }
    }

    private volatile Export current = new Export(RpsSettings.OFF, null, null);
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong notExported = new AtomicLong();

    /**
     * Applies settings: a change of what the export does starts a new exporter (and reference algorithm) and stops
     * the old one; the same settings again change nothing.
     *
     * @param settings settings
     * @throws IOException if the exporter's socket cannot be opened (the previous export stays)
     */
    public synchronized void configure(RpsSettings settings) throws IOException {
        Export old = current;
        if (old.settings.equals(settings)) {
            return;
        }
        Export next;
        if (settings.exports()) {
            HostRps host = new HostRps(settings);
            next = new Export(settings, new RpsExporter(settings.monitor(), RpsSettings.EXPORT_QUEUE, host), host);
            log.info("RPS {}: records to {}", settings.config().mode(), settings.monitor());
        } else {
            next = new Export(settings, null, null);
            log.info("RPS {}: no records exported", settings.config().mode());
        }
        current = next;
        if (old.exporter != null) {
            old.exporter.close();
        }
    }

    /**
     * Takes the RPS record of a packet-in, if it has one.
     *
     * @param device     index of the device it came from
     * @param reasonCode packet_in.reason
     * @param payload    what follows packet_in
     * @return whether the packet-in carried a record (well formed or not)
     */
    public boolean onPacketIn(int device, long reasonCode, ByteBuffer payload) {
        HupfPacketIn in;
        try {
            in = HupfPacketIn.parse(reasonCode, payload);
        } catch (IllegalArgumentException e) {
            if (HupfPacketIn.announcesRps(reasonCode, payload)) {
                malformed.incrementAndGet();
                log.debug("RPS packet-in of device {}: {}", device, e.getMessage());
                return true;
            }
            return false;
        }
        return in.rpsReceipt().map(r -> {
            accept(device, r);
            return true;
        }).orElse(false);
    }

    /**
     * Offers a record to the current export.
     *
     * @param device index of the device it came from
     * @param record the record
     */
    public void accept(int device, RpsReceipt record) {
        records.incrementAndGet();
        RpsExporter exporter = current.exporter;
        if (exporter == null) {
            notExported.incrementAndGet();
        } else {
            exporter.offer(device, record);
        }
    }

    /** @return the settings in force */
    public RpsSettings settings() {
        return current.settings;
    }

    /** @return records taken from packet-ins */
    public long records() {
        return records.get();
    }

    /** @return RPS packet-ins (or HH reports with a receipt) cut short or out of the contract */
    public long malformed() {
        return malformed.get();
    }

    /** @return records that arrived while nothing was exported */
    public long notExported() {
        return notExported.get();
    }

    /** @return the current exporter, null when nothing is exported */
    public RpsExporter exporter() {
        return current.exporter;
    }

    /** Reads one device's RPS (its pipeline's sizes and counters). */
    public interface DeviceRead {
        /**
         * @return the device's RPS, empty if its pipeline has none
         * @throws UpfProgrammableException if it cannot be read (why, for the status)
         */
        Optional<RpsState> read() throws UpfProgrammableException;
    }

    /**
     * The status with the settings in force and this intake's counts: each device read now, with the settings'
     * tracker warnings for its pipeline; a device whose pipeline has no RPS is left out, one that cannot be read
     * says why.
     *
     * @param devices the devices to read, by id
     * @return status
     */
    public RpsStatus status(Map<String, DeviceRead> devices) {
        Export now = current;
        Map<String, RpsStatus.Device> out = new HashMap<>();
        devices.forEach((id, read) -> {
            try {
                read.read().ifPresent(st -> out.put(id, RpsStatus.Device.of(
                        st, now.settings.trackerWarnings(st.bufferSize(), st.trackDepth()))));
            } catch (UpfProgrammableException | RuntimeException e) {
                out.put(id, RpsStatus.Device.unreadable(String.valueOf(e.getMessage())));
            }
        });
        RpsExporter e = now.exporter;
        RpsStatus.Exporter exporter = e == null ? null : new RpsStatus.Exporter(
                e.monitor().getHostString() + ":" + e.monitor().getPort(), e.offered(), e.queued(), e.exported(),
                e.datagrams(), e.dropped(), e.sendFailures());
        return new RpsStatus(now.settings.config().mode(), now.settings.toJson(), out, records.get(),
                             malformed.get(), notExported.get(), exporter);
    }

    @Override
    public synchronized void close() {
        Export old = current;
        current = new Export(RpsSettings.OFF, null, null);
        if (old.exporter != null) {
            old.exporter.close();
        }
    }
}

package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static org.hupf.pipeconf.HupfConstants.RPS_EVENTS;
import static org.hupf.pipeconf.HupfConstants.RPS_POINTS;

/**
 * Retroactive Packet Sampling as REST and the CLI show it: the mode and the settings in force (the netcfg's
 * {@code rps} block), each device whose pipeline has RPS with its sizes, its {@code rps.events} counters per
 * observation point and the settings' warnings for it, and what the export to the monitor did.
 */
public final class RpsStatus {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** One device's RPS as read from it, or why it could not be read. */
    public static final class Device {
        /** Null when the device could not be read. */
        public final RpsState state;
        /** What the settings cannot serve on this device (e.g. a buffer its tracker cannot follow). */
        public final List<String> warnings;
        /** Null when the device was read. */
        public final String error;

        private Device(RpsState state, List<String> warnings, String error) {
            this.state = state;
            this.warnings = List.copyOf(warnings);
            this.error = error;
        }

        public static Device of(RpsState state, List<String> warnings) {
            return new Device(Objects.requireNonNull(state), warnings, null);
        }

        public static Device unreadable(String error) {
            return new Device(null, List.of(), Objects.requireNonNull(error));
        }

        /**
         * Encodes the device: {@code bufferSize}, {@code flows}, {@code trackDepth}, then each point's events by
         * name ({@code "in"}, {@code "out"}) and the {@code warnings}; or {@code {"error": why}}.
         *
         * @return JSON object
         */
        public ObjectNode toJson() {
            ObjectNode o = MAPPER.createObjectNode();
            if (state == null) {
                return o.put("error", error);
            }
            o.put("bufferSize", state.bufferSize()).put("flows", state.flows()).put("trackDepth", state.trackDepth());
            for (int p = 0; p < RPS_POINTS; p++) {
                ObjectNode point = o.putObject(RpsState.POINT_NAMES.get(p));
                for (int e = 0; e < RPS_EVENTS; e++) {
                    point.put(RpsState.EVENT_NAMES.get(e), state.event(p, e));
                }
            }
            warnings.forEach(o.putArray("warnings")::add);
            return o;
        }
    }

    /** The exporter's counts since it started (the settings last changed); none while nothing is exported. */
    public static final class Exporter {
        public final String monitor;
        /** Records offered to the queue. */
        public final long offered;
        /** Records waiting in the queue now. */
        public final long queued;
        /** Records sent to the monitor. */
        public final long sent;
        public final long datagrams;
        /** Records dropped for a full queue (the packet-in path never waits). */
        public final long dropped;
        /** Records whose datagram could not be sent. */
        public final long sendErrors;

        public Exporter(String monitor, long offered, long queued, long sent, long datagrams, long dropped,
                        long sendErrors) {
            this.monitor = Objects.requireNonNull(monitor);
            this.offered = offered;
            this.queued = queued;
            this.sent = sent;
            this.datagrams = datagrams;
            this.dropped = dropped;
            this.sendErrors = sendErrors;
        }
    }

    public final RpsConfig.Mode mode;
    /** The settings in force, as the netcfg's {@code rps} block. */
    public final ObjectNode settings;
    /** By device id. */
    public final Map<String, Device> devices;
    /** RPS records taken from packet-ins. */
    public final long records;
    /** RPS packet-ins cut short or out of the contract. */
    public final long malformed;
    /** Records that arrived while nothing was exported. */
    public final long notExported;
    /** Null while nothing is exported. */
    public final Exporter exporter;

    public RpsStatus(RpsConfig.Mode mode, ObjectNode settings, Map<String, Device> devices, long records,
                     long malformed, long notExported, Exporter exporter) {
        this.mode = Objects.requireNonNull(mode);
        this.settings = settings.deepCopy();
        this.devices = Map.copyOf(devices);
        this.records = records;
        this.malformed = malformed;
        this.notExported = notExported;
        this.exporter = exporter;
    }

    /**
     * The same status with one device only.
     *
     * @param device device id, one of {@link #devices}
     * @return status
     */
    public RpsStatus only(String device) {
        return new RpsStatus(mode, settings, Map.of(device, devices.get(device)), records, malformed, notExported,
                             exporter);
    }

    /**
     * Encodes the status: {@code mode}, {@code settings}, {@code export} (the intake's counts and, while records
     * go to a monitor, its {@code exporter}'s) and {@code devices} by id ({@link Device#toJson()}).
     *
     * @return JSON object
     */
    public ObjectNode toJson() {
        ObjectNode o = MAPPER.createObjectNode().put("mode", mode.name());
        o.set("settings", settings.deepCopy());
        ObjectNode export = o.putObject("export").put("records", records).put("malformed", malformed)
                .put("notExported", notExported);
        if (exporter != null) {
            export.putObject("exporter").put("monitor", exporter.monitor).put("offered", exporter.offered)
                    .put("queued", exporter.queued).put("sent", exporter.sent).put("datagrams", exporter.datagrams)
                    .put("dropped", exporter.dropped).put("sendErrors", exporter.sendErrors);
        }
        ObjectNode d = o.putObject("devices");
        new TreeMap<>(devices).forEach((id, dev) -> d.set(id, dev.toJson()));
        return o;
    }
}

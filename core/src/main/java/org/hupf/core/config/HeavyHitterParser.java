package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.dataplane.HhConfig;

import static org.hupf.core.config.JsonFields.intIn;

/**
 * Parses the netcfg's {@code heavyHitter} block: the offload threshold and the switch's HK-IPG parameters.
 */
public final class HeavyHitterParser {

    public static final String HEAVY_HITTER = "heavyHitter";
    /** Offload threshold without {@code heavyHitter.thresholdBps}: the offload policy's default. */
    private static final long DEFAULT_HH_THRESHOLD_BPS = 2_000_000;

    private HeavyHitterParser() {
    }

    /**
     * Returns the offload threshold: a UE above it is a heavy hitter, for the offload manager's policy and for
     * the switch's HK-IPG detector alike ({@code heavyHitter.thresholdBps}).
     *
     * @param root the netcfg's hupf object
     * @return bits per second
     */
    public static long hhThresholdBps(JsonNode root) {
        JsonNode v = root.path(HEAVY_HITTER).get("thresholdBps");
        if (v == null) {
            return DEFAULT_HH_THRESHOLD_BPS;
        }
        if (!v.isIntegralNumber() || v.asLong() <= 0) {
            throw new IllegalArgumentException(HEAVY_HITTER + ".thresholdBps: a positive integer expected, got " + v);
        }
        return v.asLong();
    }

    /**
     * Returns the switch's HK-IPG parameters: {@code heavyHitter.tauThreshold}, {@code alphaShift},
     * {@code timeslotUs} (a power of two), {@code keyMode} (ue or 5tuple), {@code windowUs} and
     * {@code packetBytes} (for the tau table), with the P4 program's defaults where absent, and the offload
     * threshold {@link #hhThresholdBps}.
     *
     * @param root the netcfg's hupf object
     * @return parameters
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public static HhConfig hhConfig(JsonNode root) {
        JsonNode hh = root.path(HEAVY_HITTER);
        HhConfig.Builder b = HhConfig.builder().hhThresholdBps(hhThresholdBps(root));
        if (hh.has("tauThreshold")) {
            b.tauTh(intIn(hh, "tauThreshold", 1, 65535, 0));
        }
        if (hh.has("alphaShift")) {
            b.alphaShift(intIn(hh, "alphaShift", 1, 15, 0));
        }
        if (hh.has("timeslotUs")) {
            b.timeslotUs(intIn(hh, "timeslotUs", 1, Integer.MAX_VALUE, 0));
        }
        if (hh.has("windowUs")) {
            b.timeWindowUs(intIn(hh, "windowUs", 1, Integer.MAX_VALUE, 0));
        }
        if (hh.has("packetBytes")) {
            b.packetBytes(intIn(hh, "packetBytes", 64, 9216, 0));
        }
        String mode = hh.path("keyMode").asText("ue");
        if (!mode.equals("ue") && !mode.equals("5tuple")) {
            throw new IllegalArgumentException(HEAVY_HITTER + ".keyMode: ue or 5tuple, got " + mode);
        }
        b.keyMode(mode.equals("ue") ? HupfConstants.HH_KEY_UE_ADDR : HupfConstants.HH_KEY_5TUPLE);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(HEAVY_HITTER + ": " + e.getMessage());
        }
    }
}

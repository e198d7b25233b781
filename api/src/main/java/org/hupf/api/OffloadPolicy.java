package org.hupf.api;

import com.google.common.collect.ImmutableMap;
import org.onlab.packet.Ip4Address;

import java.util.Collection;
import java.util.Map;

/**
 * Offload thresholds and pins. A pin forces a session to hardware or software regardless of its HH
 * status; the most specific pin wins: UE list, then QFI, then slice. Hardware wins over software when
 * a session's QFIs disagree, since a low-latency flow must not be left on the slow path.
 */
public final class OffloadPolicy {

    /** Where a session is forced to be. */
    public enum Pin {
        NONE, HARDWARE, SOFTWARE
    }

    private final long thresholdBitsPerSec;
    private final long holdMillis;
    private final double hysteresis;
    private final boolean confirmReports;
    private final Map<Integer, Pin> slicePins;
    private final Map<Integer, Pin> qfiPins;
    private final Map<Ip4Address, Pin> uePins;

    private OffloadPolicy(Builder b) {
        this.thresholdBitsPerSec = b.thresholdBitsPerSec;
        this.holdMillis = b.holdMillis;
        this.hysteresis = b.hysteresis;
        this.confirmReports = b.confirmReports;
        this.slicePins = b.slicePins.build();
        this.qfiPins = b.qfiPins.build();
        this.uePins = b.uePins.build();
    }

    /** Rate under which an offloaded session counts as cold, in bits per second. */
    public long thresholdBitsPerSec() {
        return thresholdBitsPerSec;
    }

    /** How long a session stays cold before demotion, and the least time it stays on hardware before eviction. */
    public long holdMillis() {
        return holdMillis;
    }

    /** A hotter session evicts an offloaded one only if its rate exceeds the victim's by this fraction. */
    public double hysteresis() {
        return hysteresis;
    }

    /**
     * Whether an HH report needs the session's own counters to confirm it (rate at or above the
     * threshold, measured before the report or within the hold time after it) before the session moves.
     * HK-IPG estimates a flow's rate from its packet gaps, so a flow just below the threshold can be reported.
     */
    public boolean confirmReports() {
        return confirmReports;
    }

    /**
     * Returns the pin that applies to a session.
     *
     * @param ueAddress the session's UE address
     * @param sliceId   its slice
     * @param qfis      the QFIs of its flows
     * @return its pin, NONE when no pin applies
     */
    public Pin pinOf(Ip4Address ueAddress, int sliceId, Collection<Integer> qfis) {
        Pin ue = uePins.get(ueAddress);
        if (ue != null) {
            return ue;
        }
        Pin byQfi = Pin.NONE;
        for (int qfi : qfis) {
            Pin p = qfiPins.getOrDefault(qfi, Pin.NONE);
            if (p == Pin.HARDWARE) {
                return p;
            }
            if (p == Pin.SOFTWARE) {
                byQfi = p;
            }
        }
        if (byQfi != Pin.NONE) {
            return byQfi;
        }
        return slicePins.getOrDefault(sliceId, Pin.NONE);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; defaults: 2 Mbit/s threshold (the thesis's lowest), 2 s hold, 20 % hysteresis, reports confirmed. */
    public static final class Builder {
        private long thresholdBitsPerSec = 2_000_000;
        private long holdMillis = 2_000;
        private double hysteresis = 0.2;
        private boolean confirmReports = true;
        private final ImmutableMap.Builder<Integer, Pin> slicePins = ImmutableMap.builder();
        private final ImmutableMap.Builder<Integer, Pin> qfiPins = ImmutableMap.builder();
        private final ImmutableMap.Builder<Ip4Address, Pin> uePins = ImmutableMap.builder();

        private Builder() {
        }

        public Builder thresholdBitsPerSec(long bps) {
            if (bps <= 0) {
                throw new IllegalArgumentException("threshold must be positive, got " + bps);
            }
            this.thresholdBitsPerSec = bps;
            return this;
        }

        public Builder holdMillis(long millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("hold time must not be negative, got " + millis);
            }
            this.holdMillis = millis;
            return this;
        }

        public Builder hysteresis(double fraction) {
            if (!(fraction >= 0 && fraction <= 10)) {
                throw new IllegalArgumentException("hysteresis must be in [0, 10], got " + fraction);
            }
            this.hysteresis = fraction;
            return this;
        }

        public Builder confirmReports(boolean confirm) {
            this.confirmReports = confirm;
            return this;
        }

        public Builder pinSlice(int sliceId, Pin pin) {
            slicePins.put(sliceId, pin);
            return this;
        }

        public Builder pinQfi(int qfi, Pin pin) {
            qfiPins.put(qfi, pin);
            return this;
        }

        public Builder pinUe(Ip4Address ue, Pin pin) {
            uePins.put(ue, pin);
            return this;
        }

        public OffloadPolicy build() {
            return new OffloadPolicy(this);
        }
    }
}

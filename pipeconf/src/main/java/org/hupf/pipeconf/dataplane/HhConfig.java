package org.hupf.pipeconf.dataplane;

import com.google.common.base.MoreObjects;

import static org.hupf.pipeconf.HupfConstants.HH_KEY_5TUPLE;
import static org.hupf.pipeconf.HupfConstants.HH_KEY_UE_ADDR;

/**
 * HK-IPG parameters: the {@code hh_config} default action's (Algorithm 1: tau_th, IPG_init, IPG_th, k,
 * timeslot T_wt, α = 1 − 2^−alphaShift, flow key) and those Eq. 4.9 needs to fill {@code tau_table}
 * (time window TW, HH threshold, assumed packet size). Defaults are the thesis' (§4.3.2) with the
 * pipeline's power-of-two timeslot.
 */
public final class HhConfig {

    private static final long MAX_U32 = 0xFFFFFFFFL;

    private final int tauTh;
    private final long ipgInit;
    private final long ipgTh;
    private final long decayK;
    private final long timeslotUs;
    private final int alphaShift;
    private final int keyMode;
    private final long twUs;
    private final long hhBps;
    private final int pktBytes;

    private HhConfig(Builder b) {
        this.tauTh = b.tauTh;
        this.ipgInit = b.ipgInit;
        this.ipgTh = b.ipgTh;
        this.decayK = b.decayK;
        this.timeslotUs = b.timeslotUs;
        this.alphaShift = b.alphaShift;
        this.keyMode = b.keyMode;
        this.twUs = b.twUs;
        this.hhBps = b.hhBps;
        this.pktBytes = b.pktBytes;
    }

    public int tauTh() {
        return tauTh;
    }

    public long ipgInit() {
        return ipgInit;
    }

    public long ipgTh() {
        return ipgTh;
    }

    public long decayK() {
        return decayK;
    }

    public long timeslotUs() {
        return timeslotUs;
    }

    public int alphaShift() {
        return alphaShift;
    }

    public int keyMode() {
        return keyMode;
    }

    public long twUs() {
        return twUs;
    }

    public long hhBps() {
        return hhBps;
    }

    public int pktBytes() {
        return pktBytes;
    }

    /**
     * Returns the tau table for these parameters, over IPG EWMAs 1..IPG_init.
     *
     * @param capacity tau_table size from the P4Info
     * @return entries
     */
    public java.util.List<TauTable.Entry> tauEntries(int capacity) {
        return TauTable.entries(tauTh, timeslotUs, twUs, hhBps, ipgInit, pktBytes, capacity);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("tauTh", tauTh).add("ipgInit", ipgInit).add("ipgTh", ipgTh)
                .add("decayK", decayK).add("timeslotUs", timeslotUs).add("alphaShift", alphaShift)
                .add("keyMode", keyMode).add("twUs", twUs).add("hhBps", hhBps).add("pktBytes", pktBytes)
                .toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; every value is checked against its P4 width and meaning. */
    public static final class Builder {
        private int tauTh = 1850;
        private long ipgInit = 10_000;
        private long ipgTh = 10_000;
        private long decayK = 10;
        private long timeslotUs = 16_384;
        private int alphaShift = 7;
        private int keyMode = HH_KEY_UE_ADDR;
        private long twUs = 1_000_000;
        private long hhBps = 10_000_000;
        private int pktBytes = 1000;

        private Builder() {
        }

        public Builder tauTh(int v) {
            tauTh = v;
            return this;
        }

        public Builder ipgInit(long v) {
            ipgInit = v;
            return this;
        }

        public Builder ipgTh(long v) {
            ipgTh = v;
            return this;
        }

        public Builder decayK(long v) {
            decayK = v;
            return this;
        }

        public Builder timeslotUs(long v) {
            timeslotUs = v;
            return this;
        }

        public Builder alphaShift(int v) {
            alphaShift = v;
            return this;
        }

        /**
         * Sets the flow key: UE address ({@code HH_KEY_UE_ADDR}) or 5-tuple hash ({@code HH_KEY_5TUPLE}).
         *
         * @param v key mode
         * @return this
         */
        public Builder keyMode(int v) {
            keyMode = v;
            return this;
        }

        public Builder timeWindowUs(long v) {
            twUs = v;
            return this;
        }

        public Builder hhThresholdBps(long v) {
            hhBps = v;
            return this;
        }

        public Builder packetBytes(int v) {
            pktBytes = v;
            return this;
        }

        public HhConfig build() {
            check(tauTh >= 1 && tauTh <= 0xFFFF, "tau_th must be in 1..65535, is " + tauTh);
            check(ipgInit >= 1 && ipgInit <= MAX_U32, "ipg_init must be in 1..2^32-1 µs, is " + ipgInit);
            check(ipgTh >= 0 && ipgTh <= MAX_U32, "ipg_th must be in 0..2^32-1 µs, is " + ipgTh);
            check(decayK >= 0 && decayK <= MAX_U32, "decay_k must be in 0..2^32-1, is " + decayK);
            // The pipeline wraps the timestamp by masking with timeslot_us - 1.
            check(timeslotUs > 0 && timeslotUs <= MAX_U32 && Long.bitCount(timeslotUs) == 1,
                  "timeslot_us must be a power of two below 2^32, is " + timeslotUs);
            check(alphaShift >= 0 && alphaShift < Integer.SIZE, "alpha_shift must be in 0..31, is " + alphaShift);
            check(keyMode == HH_KEY_UE_ADDR || keyMode == HH_KEY_5TUPLE,
                  "key_mode must be " + HH_KEY_UE_ADDR + " (UE address) or " + HH_KEY_5TUPLE + " (5-tuple), is "
                          + keyMode);
            check(twUs > 0 && hhBps > 0 && pktBytes > 0, "time window, HH threshold and packet size must be > 0");
            return new HhConfig(this);
        }

        private static void check(boolean ok, String why) {
            if (!ok) {
                throw new IllegalArgumentException(why);
            }
        }
    }
}

package org.hupf.pipeconf.dataplane;

import com.google.common.base.MoreObjects;

import static org.hupf.pipeconf.HupfConstants.HH_KEY_5TUPLE;
import static org.hupf.pipeconf.HupfConstants.HH_KEY_UE_ADDR;

/**
 * HK-IPG parameters: the {@code hh_config} default action's (Algorithm 1: tau_th, IPG_init, IPG_th, k,
 * timeslot T_wt, α = 1 − 2^−alphaShift, flow key) and those Eq. 4.9 needs to fill {@code tau_table}
 * (time window TW, HH threshold, assumed packet size). IPG_init = IPG_th (thesis §4.4.2.1) is derived:
 * the gap between two packets of the assumed size at the threshold rate. The timeslot must be a power of
 * two (the pipeline finds timeslot edges by masking) and at least 4 × IPG_th, so that a flow at the
 * threshold sends several packets per timeslot; unset, it is the smallest such power of two from
 * 16.384 ms up. The collision decay k is, unset, IPG_th / 1000 (at least 1): the thesis's example ratio
 * (k = 10 at IPG_th = 10 ms, §4.4.2.2). Other defaults are the thesis' (§4.3.2). The reference model
 * ({@code tools/hupf_tools/model/hkipg.py configure}) derives the same values.
 */
public final class HhConfig {

    private static final long MAX_U32 = 0xFFFFFFFFL;
    private static final long MIN_TIMESLOT_US = 16_384;

    private final int tauTh;
    private final long ipgTh;
    private final long decayK;
    private final long timeslotUs;
    private final int alphaShift;
    private final int keyMode;
    private final long twUs;
    private final long hhBps;
    private final int pktBytes;

    private HhConfig(Builder b, long ipgTh, long decayK, long timeslotUs) {
        this.tauTh = b.tauTh;
        this.ipgTh = ipgTh;
        this.decayK = decayK;
        this.timeslotUs = timeslotUs;
        this.alphaShift = b.alphaShift;
        this.keyMode = b.keyMode;
        this.twUs = b.twUs;
        this.hhBps = b.hhBps;
        this.pktBytes = b.pktBytes;
    }

    public int tauTh() {
        return tauTh;
    }

    /**
     * Returns IPG_th, which is also IPG_init: the gap in µs between two packets of {@link #pktBytes()}
     * bytes at {@link #hhBps()}.
     *
     * @return IPG_th in µs
     */
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
        return TauTable.entries(tauTh, timeslotUs, twUs, hhBps, ipgTh, pktBytes, capacity);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("tauTh", tauTh).add("ipgTh", ipgTh)
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
        private Long decayK;
        private long timeslotUs;
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

        /**
         * Sets the collision decay k; unset, it is derived from IPG_th (see the class comment).
         *
         * @param v k in µs, 0..2^32-1
         * @return this
         */
        public Builder decayK(long v) {
            decayK = v;
            return this;
        }

        /**
         * Sets the timeslot; unset, it is derived from IPG_th (see the class comment).
         *
         * @param v timeslot in µs: a power of two, at least 4 × IPG_th
         * @return this
         */
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

        /**
         * Derives IPG_th (and the timeslot when unset) and checks every value.
         *
         * @return the configuration
         * @throws IllegalArgumentException naming the first value that is out of range
         */
        public HhConfig build() {
            check(tauTh >= 1 && tauTh <= 0xFFFF, "tau_th must be in 1..65535, is " + tauTh);
            check(twUs > 0 && hhBps > 0 && pktBytes > 0, "time window, HH threshold and packet size must be > 0");
            long ipgTh = pktBytes * 8L * 1_000_000L / hhBps;
            check(ipgTh >= 1 && ipgTh <= MAX_U32, "IPG_th of a " + pktBytes + "-byte packet at " + hhBps
                    + " bit/s is " + ipgTh + " us, outside 1..2^32-1");
            long k = decayK != null ? decayK : Math.max(1, ipgTh / 1000);
            check(k >= 0 && k <= MAX_U32, "decay_k must be in 0..2^32-1, is " + k);
            long timeslot = timeslotUs != 0 ? timeslotUs : powerOfTwoAtLeast(Math.max(4 * ipgTh, MIN_TIMESLOT_US));
            // The pipeline finds timeslot edges by masking with ~(timeslot_us - 1).
            check(timeslot > 0 && timeslot <= MAX_U32 && Long.bitCount(timeslot) == 1,
                  "timeslot_us must be a power of two below 2^32, is " + timeslot);
            check(timeslot >= 4 * ipgTh, "timeslot_us " + timeslot + " is shorter than 4 x IPG_th = " + 4 * ipgTh
                    + " us (IPG_th " + ipgTh + " us: one " + pktBytes + "-byte packet at " + hhBps
                    + " bit/s); use " + powerOfTwoAtLeast(4 * ipgTh) + " or more");
            check(alphaShift >= 0 && alphaShift < Integer.SIZE, "alpha_shift must be in 0..31, is " + alphaShift);
            check(keyMode == HH_KEY_UE_ADDR || keyMode == HH_KEY_5TUPLE,
                  "key_mode must be " + HH_KEY_UE_ADDR + " (UE address) or " + HH_KEY_5TUPLE + " (5-tuple), is "
                          + keyMode);
            return new HhConfig(this, ipgTh, k, timeslot);
        }

        private static long powerOfTwoAtLeast(long v) {
            return Long.highestOneBit(v - 1) << 1;
        }

        private static void check(boolean ok, String why) {
            if (!ok) {
                throw new IllegalArgumentException(why);
            }
        }
    }
}

package org.hupf.pipeconf.dataplane;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The HK-IPG {@code tau_table} the controller pre-computes (thesis §4.3.2, Eq. 4.9):
 * <pre>
 *   tau_f = tau_th · T_wt · PacketSize · 8 / (TW · HH_th · IPG_f^w)     (HH_th in bit/s)
 * </pre>
 * for every IPG EWMA from 1 µs up to {@code ipgMax}, capped at {@code tau_th / 2} (a flow needs at least
 * two timeslots, {@code num_wt ≥ 2}), integer-truncated; one range entry per run of equal tau, none where
 * tau is 0 (the table's default). When the runs exceed the table, the pair of neighbours spanning the
 * fewest IPG values is merged keeping the smaller tau, so the table never reports earlier than Eq. 4.9.
 * The reference model {@code tools/hupf_tools/model/hkipg.py} computes the same entries.
 */
public final class TauTable {

    private static final long US_PER_S = 1_000_000L;
    private static final long MAX_TAU = 0xFFFF;

    private TauTable() {
    }

    /** One range entry: IPG EWMA in [lo, hi] µs adds {@code tau} per timeslot. */
    public static final class Entry {
        private final long lo;
        private final long hi;
        private final int tau;

        public Entry(long lo, long hi, int tau) {
            this.lo = lo;
            this.hi = hi;
            this.tau = tau;
        }

        public long lo() {
            return lo;
        }

        public long hi() {
            return hi;
        }

        public int tau() {
            return tau;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry && lo == ((Entry) o).lo && hi == ((Entry) o).hi && tau == ((Entry) o).tau;
        }

        @Override
        public int hashCode() {
            return Objects.hash(lo, hi, tau);
        }

        @Override
        public String toString() {
            return "[" + lo + ", " + hi + "] -> " + tau;
        }
    }

    /**
     * Eq. 4.9 for one IPG, capped at tau_th / 2.
     *
     * @param ipgUs      IPG EWMA, µs (≥ 1)
     * @param tauTh      tau threshold
     * @param timeslotUs timeslot T_wt, µs
     * @param twUs       time window TW, µs
     * @param hhBps      heavy-hitter threshold HH_th, bit/s
     * @param pktBytes   assumed packet size, bytes
     * @return tau per timeslot
     */
    public static long tauPerTimeslot(long ipgUs, int tauTh, long timeslotUs, long twUs, long hhBps,
                                      int pktBytes) {
        BigInteger num = BigInteger.valueOf(tauTh).multiply(BigInteger.valueOf(timeslotUs))
                .multiply(BigInteger.valueOf(pktBytes * 8L)).multiply(BigInteger.valueOf(US_PER_S));
        BigInteger den = BigInteger.valueOf(twUs).multiply(BigInteger.valueOf(hhBps))
                .multiply(BigInteger.valueOf(ipgUs));
        return Math.min(num.divide(den).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue(), tauTh / 2);
    }

    /**
     * Computes the range entries.
     *
     * @param tauTh      tau threshold (1..65535)
     * @param timeslotUs timeslot, µs
     * @param twUs       time window, µs
     * @param hhBps      HH threshold, bit/s
     * @param ipgMax     largest IPG EWMA considered (IPG_init), µs
     * @param pktBytes   assumed packet size, bytes
     * @param maxEntries table capacity
     * @return entries sorted by IPG
     * @throws IllegalArgumentException if a parameter is out of range
     */
    public static List<Entry> entries(int tauTh, long timeslotUs, long twUs, long hhBps, long ipgMax,
                                      int pktBytes, int maxEntries) {
        if (tauTh < 1 || tauTh > MAX_TAU) {
            throw new IllegalArgumentException("tau_th must be in 1..65535, is " + tauTh);
        }
        if (timeslotUs < 1 || twUs < 1 || hhBps < 1 || ipgMax < 1 || pktBytes < 1 || maxEntries < 1) {
            throw new IllegalArgumentException("timeslot, TW, HH threshold, IPG max, packet size and table size "
                                                       + "must be positive");
        }
        List<long[]> runs = new ArrayList<>();
        for (long ipg = 1; ipg <= ipgMax; ipg++) {
            long tau = tauPerTimeslot(ipg, tauTh, timeslotUs, twUs, hhBps, pktBytes);
            if (tau == 0) {
                break;
            }
            long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last[2] == tau) {
                last[1] = ipg;
            } else {
                runs.add(new long[]{ipg, ipg, tau});
            }
        }
        while (runs.size() > maxEntries) {
            int best = 0;
            for (int j = 1; j < runs.size() - 1; j++) {
                if (runs.get(j + 1)[1] - runs.get(j)[0] < runs.get(best + 1)[1] - runs.get(best)[0]) {
                    best = j;
                }
            }
            long lo = runs.get(best)[0];
            long[] next = runs.remove(best + 1);
            runs.set(best, new long[]{lo, next[1], next[2]});
        }
        List<Entry> out = new ArrayList<>();
        runs.forEach(r -> out.add(new Entry(r[0], r[1], (int) r[2])));
        return out;
    }
}

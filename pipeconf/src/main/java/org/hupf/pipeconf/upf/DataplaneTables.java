package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.hupf.pipeconf.HupfConstants.ALPHA_SHIFT;

/**
 * The table operations the data-plane feature writers share: one pipeline's codec and target, make-before-break
 * replacement of a feature's tables, size checks and range entries in the key's view.
 */
final class DataplaneTables {

    /** One priority for range tables whose ranges never overlap (P4Runtime needs one). */
    private static final int RANGE_PRIORITY = 1;
    static final long MAX_U32 = 0xFFFFFFFFL;

    private final PiCodec codec;
    private final PiTarget target;

    DataplaneTables(PiCodec codec, PiTarget target) {
        this.codec = codec;
        this.target = target;
    }

    PiCodec codec() {
        return codec;
    }

    PiTarget target() {
        return target;
    }

    /**
     * Makes the tables hold these entries (and writes the default entries among them). Make before break: an
     * entry already held as wanted is left alone, the others are written (inserted, or modified in place)
     * before the entries no longer wanted are deleted, so that what stays never goes missing (a backend port
     * unmarked for a moment turns the traffic coming back from the backends into misses); only when a table
     * has no room for both are the stale entries deleted first.
     *
     * @return entries written plus deleted
     */
    int replace(List<PiTableId> tables, List<? extends PiEntity> entries)
            throws PiCodecException, PiTargetException {
        Map<String, PiTableEntry> wanted = new LinkedHashMap<>();
        List<PiEntity> write = new ArrayList<>();
        for (PiEntity e : entries) {
            if (e instanceof PiTableEntry && !((PiTableEntry) e).isDefaultAction()) {
                wanted.put(CanonicalEntries.key((PiTableEntry) e), (PiTableEntry) e);
            } else {
                write.add(e);
            }
        }
        List<PiEntity> stale = new ArrayList<>();
        Set<String> held = new HashSet<>();
        boolean room = true;
        for (PiTableId t : tables) {
            int staleHere = 0;
            for (PiTableEntry e : target.readTable(t)) {
                String k = CanonicalEntries.key(e);
                PiTableEntry w = wanted.get(k);
                if (w == null) {
                    stale.add(e);
                    staleHere++;
                } else if (CanonicalEntries.sameAction(e, w)) {
                    held.add(k);
                }
            }
            long wantedHere = wanted.values().stream().filter(e -> e.table().equals(t)).count();
            room &= wantedHere + staleHere <= codec.table(t).maxSize();
        }
        wanted.forEach((k, e) -> {
            if (!held.contains(k)) {
                write.add(e);
            }
        });
        if (!room && !stale.isEmpty()) {
            target.delete(stale);
        }
        if (!write.isEmpty()) {
            target.write(write);
        }
        if (room && !stale.isEmpty()) {
            target.delete(stale);
        }
        return write.size() + stale.size();
    }

    /**
     * An action's parameters, with alpha_shift where the P4Info's action has it: the v1model EWMAs shift by
     * it, the TNA program's are Tofino low-pass filters whose time constant the control plane sets, so
     * its actions have no alpha_shift (docs/TOFINO.md).
     */
    Object[] withAlphaShift(PiActionId action, int alphaShift, Object... params) {
        if (!codec.hasParam(action, ALPHA_SHIFT)) {
            return params;
        }
        Object[] all = Arrays.copyOf(params, params.length + 2);
        all[params.length] = ALPHA_SHIFT;
        all[params.length + 1] = alphaShift;
        return all;
    }

    void requireFits(PiTableId t, int n) throws PiCodecException {
        long size = codec.table(t).maxSize();
        if (n > size) {
            throw new PiCodecException(n + " entries exceed " + t + " (size " + size + ")");
        }
    }

    /**
     * The largest value of a range key, from its width in the P4Info: 2^32 - 1 in the v1model program,
     * 2^20 - 1 in the TNA program, which range-matches a saturated 20-bit view of the value
     * ({@code min(v, 0xFFFFF)}: p4c-barefoot takes range keys of at most 20 bits, docs/TOFINO.md).
     */
    long rangeKeyMax(PiTableId t, PiMatchFieldId f) throws PiCodecException {
        int width = codec.table(t).matchField(f).orElseThrow(
                () -> new PiCodecException("table " + t + " has no match field " + f)).bitWidth();
        return width >= 63 ? Long.MAX_VALUE : (1L << width) - 1;
    }

    /**
     * A range entry in the key's view of the value. Where the key is narrower than the value (the TNA
     * program's saturated view), a high bound above the key's maximum becomes the maximum, and a range whose
     * low bound is above it is dropped (empty result): the switch then looks up {@code min(v, max)}, and these
     * clipped entries give it exactly the action the unclipped table gives that value. Merging a dropped
     * range into the one holding the maximum would change the action of the values up to the maximum,
     * which the key still tells apart; the values above it cannot be told apart and take the maximum's.
     */
    Optional<PiTableEntry> rangeEntry(PiTableId t, PiMatchFieldId f, long lo, long hi, PiAction a)
            throws PiCodecException {
        long max = Math.min(rangeKeyMax(t, f), MAX_U32);
        if (lo > max) {
            return Optional.empty();
        }
        return Optional.of(PiTableEntry.builder().forTable(t)
                .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiRangeFieldMatch(
                        f, codec.field(t, f, lo), codec.field(t, f, Math.min(hi, max)))).build())
                .withAction(a).withPriority(RANGE_PRIORITY).build());
    }

    static PiTableEntry defaultEntry(PiTableId t, PiAction a) {
        return PiTableEntry.builder().forTable(t).withMatchKey(PiMatchKey.EMPTY).withAction(a).build();
    }
}

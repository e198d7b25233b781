package org.hupf.pipeconf.upf;

import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiOptionalFieldMatch;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;

import java.math.BigInteger;
import java.util.Comparator;
import java.util.stream.Collectors;

/**
 * Table entries compared as a device holds them: every value as a number, because a device may answer a read
 * with shorter (canonical) byte strings than were written, so PI objects read back are not equal to those
 * written though they are the same entry.
 */
final class CanonicalEntries {

    private CanonicalEntries() {
    }

    /**
     * What identifies an entry in its table: the table, the match fields and the priority.
     *
     * @param e entry
     * @return a key equal for the same entry however its values are encoded
     */
    static String key(PiTableEntry e) {
        String match = e.matchKey().fieldMatches().stream()
                .sorted(Comparator.comparing(m -> m.fieldId().id()))
                .map(CanonicalEntries::match).collect(Collectors.joining(","));
        return e.table().id() + "[" + match + "]/" + e.priority().orElse(0);
    }

    /**
     * Whether two entries do the same (same action and parameter values, or the same group or member).
     *
     * @param a entry
     * @param b entry
     * @return true if their actions are the same
     */
    static boolean sameAction(PiTableEntry a, PiTableEntry b) {
        return action(a.action()).equals(action(b.action()));
    }

    private static String match(PiFieldMatch m) {
        String id = m.fieldId().id() + "=";
        switch (m.type()) {
            case EXACT:
                return id + number(((PiExactFieldMatch) m).value());
            case LPM:
                PiLpmFieldMatch lpm = (PiLpmFieldMatch) m;
                return id + number(lpm.value()) + "/" + lpm.prefixLength();
            case TERNARY:
                PiTernaryFieldMatch t = (PiTernaryFieldMatch) m;
                return id + number(t.value()) + "&" + number(t.mask());
            case RANGE:
                PiRangeFieldMatch r = (PiRangeFieldMatch) m;
                return id + number(r.lowValue()) + ".." + number(r.highValue());
            case OPTIONAL:
                return id + number(((PiOptionalFieldMatch) m).value()) + "?";
            default:
                return id + m;
        }
    }

    private static String action(PiTableAction a) {
        if (!(a instanceof PiAction)) {
            return String.valueOf(a);
        }
        PiAction p = (PiAction) a;
        return p.id().id() + "(" + p.parameters().stream()
                .sorted(Comparator.comparing(x -> x.id().id()))
                .map(CanonicalEntries::param).collect(Collectors.joining(",")) + ")";
    }

    private static String param(PiActionParam p) {
        return p.id().id() + "=" + number(p.value());
    }

    private static String number(ImmutableByteSequence v) {
        return new BigInteger(1, v.asArray()).toString(16);
    }
}

package org.hupf.pipeconf.upf;

import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionModel;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.model.PiTableModel;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Values to and from PI byte strings, with bit widths taken from the pipeline model, so that a value that
 * does not fit the P4 field is refused here rather than by the device.
 */
public final class PiCodec {

    private final PiPipelineModel model;
    private final Map<PiActionId, PiActionModel> actions = new HashMap<>();

    public PiCodec(PiPipelineModel model) {
        this.model = model;
        model.tables().forEach(t -> t.actions().forEach(a -> actions.put(a.id(), a)));
    }

    public PiPipelineModel model() {
        return model;
    }

    /**
     * Returns the model of a table.
     *
     * @param table table id
     * @return table model
     * @throws PiCodecException if the pipeline has no such table
     */
    public PiTableModel table(PiTableId table) throws PiCodecException {
        return model.table(table).orElseThrow(
                () -> new PiCodecException("pipeline has no table " + table));
    }

    public boolean hasTable(PiTableId table) {
        return model.table(table).isPresent();
    }

    /**
     * Whether an action of this pipeline takes a parameter (the TNA program's EWMA actions take no
     * alpha_shift: their filters' time constants are set by the control plane).
     *
     * @param action action id
     * @param param  parameter id
     * @return true if the action exists and has the parameter
     */
    public boolean hasParam(PiActionId action, PiActionParamId param) {
        PiActionModel am = actions.get(action);
        return am != null && am.param(param).isPresent();
    }

    /**
     * Encodes a match field value of a table.
     *
     * @param table table
     * @param field match field
     * @param value unsigned value
     * @return bytes of the field's width
     * @throws PiCodecException if the field is unknown or the value does not fit
     */
    public ImmutableByteSequence field(PiTableId table, PiMatchFieldId field, long value) throws PiCodecException {
        int width = table(table).matchField(field).orElseThrow(
                () -> new PiCodecException("table " + table + " has no match field " + field)).bitWidth();
        return fit(value, width, table + "." + field);
    }

    /**
     * Builds an action, each parameter encoded to its width.
     *
     * @param action action id
     * @param params parameter ids and values, alternating
     * @return the action
     * @throws PiCodecException if the action or a parameter is unknown or a value does not fit
     */
    public PiAction action(PiActionId action, Object... params) throws PiCodecException {
        PiActionModel am = actionModel(action);
        PiAction.Builder b = PiAction.builder().withId(action);
        for (int i = 0; i < params.length; i += 2) {
            PiActionParamId pid = (PiActionParamId) params[i];
            long value = ((Number) params[i + 1]).longValue();
            int width = am.param(pid).orElseThrow(
                    () -> new PiCodecException("action " + action + " has no parameter " + pid)).bitWidth();
            b.withParameter(new PiActionParam(pid, fit(value, width, action + "." + pid)));
        }
        if (am.params().size() != params.length / 2) {
            throw new PiCodecException("action " + action + " takes " + am.params().size()
                                               + " parameters, got " + params.length / 2);
        }
        return b.build();
    }

    private PiActionModel actionModel(PiActionId action) throws PiCodecException {
        PiActionModel am = actions.get(action);
        if (am == null) {
            throw new PiCodecException("pipeline has no action " + action);
        }
        return am;
    }

    /**
     * Encodes an unsigned value into the fewest bytes holding {@code width} bits.
     *
     * @param value unsigned value
     * @param width bit width
     * @param what  name for the error message
     * @return bytes
     * @throws PiCodecException if the value is negative or needs more bits
     */
    public static ImmutableByteSequence fit(long value, int width, String what) throws PiCodecException {
        if (value < 0 || (width < 64 && (value >>> width) != 0)) {
            throw new PiCodecException(what + " = " + value + " does not fit in " + width + " bits");
        }
        try {
            return ImmutableByteSequence.copyFrom(value).fit(width);
        } catch (ImmutableByteSequence.ByteSequenceTrimException e) {
            throw new PiCodecException(what + " = " + value + " does not fit in " + width + " bits");
        }
    }

    /**
     * Decodes bytes as an unsigned big-endian number.
     *
     * @param bytes value
     * @param what  name for the error message
     * @return value
     * @throws PiCodecException if more than 63 bits are significant
     */
    public static long toLong(ImmutableByteSequence bytes, String what) throws PiCodecException {
        long v = 0;
        for (byte b : bytes.asArray()) {
            if ((v >>> 55) != 0) {
                throw new PiCodecException(what + " has more than 63 significant bits");
            }
            v = (v << 8) | (b & 0xFF);
        }
        return v;
    }

    /**
     * Reads a parameter of an action.
     *
     * @param action action
     * @param param  parameter id
     * @return value
     * @throws PiCodecException if the parameter is absent
     */
    public static long param(PiAction action, PiActionParamId param) throws PiCodecException {
        for (PiActionParam p : action.parameters()) {
            if (p.id().equals(param)) {
                return toLong(p.value(), action.id() + "." + param);
            }
        }
        throw new PiCodecException("action " + action.id() + " lacks parameter " + param);
    }

    /**
     * Returns a field match of an entry, if present (absent = don't care).
     *
     * @param entry table entry
     * @param field field id
     * @return the match
     */
    public static Optional<PiFieldMatch> match(PiTableEntry entry, PiMatchFieldId field) {
        return entry.matchKey().fieldMatch(field);
    }

    /**
     * Reads an exact match field, required present.
     *
     * @param entry table entry
     * @param field field id
     * @return value
     * @throws PiCodecException if absent or not exact
     */
    public static long exact(PiTableEntry entry, PiMatchFieldId field) throws PiCodecException {
        PiFieldMatch m = match(entry, field).orElseThrow(
                () -> new PiCodecException(entry.table() + " entry lacks exact field " + field));
        if (!(m instanceof PiExactFieldMatch)) {
            throw new PiCodecException(entry.table() + "." + field + " is not an exact match: " + m);
        }
        return toLong(((PiExactFieldMatch) m).value(), entry.table() + "." + field);
    }
}

package org.hupf.standalone.p4rt;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onlab.packet.Ip4Prefix;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import p4.config.v1.P4InfoOuterClass;
import p4.config.v1.P4InfoOuterClass.MatchField.MatchType;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.util.List;

/**
 * Tables, actions and cell arrays of one P4Info resolved to their ids and widths, for {@link UpfEntityEncoder}.
 * What the P4Info lacks resolves to an absent descriptor: encoding with it throws {@link Declined}, which sends
 * the entity down the PI path, where it is refused with the reason.
 */
final class P4InfoDescriptors {

    private static final Declined DECLINED = new Declined();

    private final P4InfoIndex p4info;

    P4InfoDescriptors(P4InfoIndex p4info) {
        this.p4info = p4info;
    }

    static void require(boolean expressible) throws Declined {
        if (!expressible) {
            throw DECLINED;
        }
    }

    private Integer id(String name) {
        try {
            return p4info.id(name);
        } catch (P4RuntimeException e) {
            return null;
        }
    }

    private Value member(Integer scope, String name) {
        try {
            return scope == null ? null : new Value(p4info.memberId(scope, name), p4info.memberWidth(scope, name));
        } catch (P4RuntimeException e) {
            return null;
        }
    }

    /**
     * Resolves a table and the key fields an entry of it may match, in the order the translator matches them.
     *
     * @param table table
     * @param key   key fields
     * @return descriptor
     */
    Table table(PiTableId table, PiMatchFieldId... key) {
        Integer id = id(table.id());
        Value[] fields = new Value[key.length];
        for (int i = 0; i < key.length; i++) {
            fields[i] = member(id, key[i].id());
        }
        return new Table(id, fields);
    }

    /**
     * Returns the match type of a key field.
     *
     * @param table table
     * @param field key field
     * @return its match type, UNSPECIFIED if the P4Info lacks it
     */
    MatchType matchType(PiTableId table, PiMatchFieldId field) {
        return p4info.p4info().getTablesList().stream()
                .filter(t -> t.getPreamble().getName().equals(table.id()))
                .flatMap(t -> t.getMatchFieldsList().stream())
                .filter(f -> f.getName().equals(field.id()))
                .map(P4InfoOuterClass.MatchField::getMatchType).findFirst().orElse(MatchType.UNSPECIFIED);
    }

    /**
     * Resolves an action given its parameters in the translator's order. ONOS's PiAction keeps its parameters
     * in a hash map's order, and the PI path sends them in that order: they are sent in the same order here,
     * so that the bytes are the same (P4Runtime itself ignores the order).
     *
     * @param action action
     * @param params every parameter of the action
     * @return descriptor, absent if the P4Info lacks the action or it has other parameters (as the translator
     *         refuses it)
     */
    Act action(PiActionId action, PiActionParamId... params) {
        Integer id = id(action.id());
        int declared = p4info.p4info().getActionsList().stream()
                .filter(a -> a.getPreamble().getName().equals(action.id()))
                .mapToInt(P4InfoOuterClass.Action::getParamsCount).findFirst().orElse(-1);
        PiAction.Builder hashOrder = PiAction.builder().withId(action);
        for (PiActionParamId p : params) {
            hashOrder.withParameter(new PiActionParam(p, ImmutableByteSequence.copyFrom(0)));
        }
        Value[] values = new Value[params.length];
        int[] argument = new int[params.length];
        int i = 0;
        for (PiActionParam p : hashOrder.build().parameters()) {
            argument[i] = List.of(params).indexOf(p.id());
            values[i] = member(id, p.id().id());
            if (values[i++] == null) {
                id = null;
            }
        }
        return new Act(declared == params.length ? id : null, values, argument);
    }

    /**
     * Resolves a meter or counter array with the capacity the translator checks its indices against.
     *
     * @param name       P4Info name
     * @param translator the PI path's translator
     * @param type       entity type whose capacity the translator checks
     * @return descriptor
     */
    Cells cells(String name, UpfTranslator translator, UpfEntityType type) {
        try {
            return new Cells(id(name), translator.capacity(type));
        } catch (PiCodecException e) {
            return new Cells(null, 0);
        }
    }

    /**
     * A value of a match field or action parameter: its id and width. Sent padded to the width's bytes, as
     * {@link PiEncoder} sends it; declined, as the translator refuses it, if negative or wider.
     */
    static final class Value {
        final int id;
        private final int width;
        private final int length;
        /** Shared: zero is the most frequent value (application 0, meter 0, traffic class 0). */
        private final ByteString zero;

        Value(int id, int width) {
            this.id = id;
            this.width = width;
            this.length = (width + 7) / 8;
            this.zero = ByteString.copyFrom(new byte[length]);
        }

        ByteString bytes(long v) throws Declined {
            require(v >= 0 && (width >= Long.SIZE || v >>> width == 0));
            if (v == 0) {
                return zero;
            }
            byte[] b = new byte[length];
            for (int i = length - 1; i >= 0 && v != 0; i--, v >>>= Byte.SIZE) {
                b[i] = (byte) v;
            }
            // b is never written again: no copy.
            return UnsafeByteOperations.unsafeWrap(b);
        }
    }

    /** A table and its key fields; a null id or field is absent from the P4Info. */
    static final class Table {
        private final Integer id;
        private final Value[] fields;

        private Table(Integer id, Value[] fields) {
            this.id = id;
            this.fields = fields;
        }

        TableEntry.Builder entry() throws Declined {
            require(id != null);
            return TableEntry.newBuilder().setTableId(id);
        }

        private Value field(int i) throws Declined {
            require(fields[i] != null);
            return fields[i];
        }

        FieldMatch exact(int field, long v) throws Declined {
            Value f = field(field);
            return FieldMatch.newBuilder().setFieldId(f.id)
                    .setExact(FieldMatch.Exact.newBuilder().setValue(f.bytes(v))).build();
        }

        FieldMatch lpm(int field, Ip4Prefix p) throws Declined {
            Value f = field(field);
            return FieldMatch.newBuilder().setFieldId(f.id).setLpm(
                    FieldMatch.LPM.newBuilder().setValue(f.bytes(p.address().toInt() & 0xFFFFFFFFL))
                            .setPrefixLen(p.prefixLength())).build();
        }

        FieldMatch ternary(int field, long v, long mask) throws Declined {
            Value f = field(field);
            return FieldMatch.newBuilder().setFieldId(f.id).setTernary(
                    FieldMatch.Ternary.newBuilder().setValue(f.bytes(v)).setMask(f.bytes(mask))).build();
        }

        FieldMatch range(int field, long low, long high) throws Declined {
            Value f = field(field);
            return FieldMatch.newBuilder().setFieldId(f.id).setRange(
                    FieldMatch.Range.newBuilder().setLow(f.bytes(low)).setHigh(f.bytes(high))).build();
        }
    }

    /** An action and its parameters in PiAction's order; a null id is absent or unlike the translator's. */
    static final class Act {
        private final Integer id;
        private final Value[] params;
        /** For each parameter sent, the index of its value among {@link #encode}'s arguments. */
        private final int[] argument;

        private Act(Integer id, Value[] params, int[] argument) {
            this.id = id;
            this.params = params;
            this.argument = argument;
        }

        /**
         * Encodes the action.
         *
         * @param values parameter values in the order given to {@link P4InfoDescriptors#action}
         * @return action
         * @throws Declined if the action is absent or a value does not fit
         */
        Action encode(long... values) throws Declined {
            require(id != null);
            Action.Builder b = Action.newBuilder().setActionId(id);
            for (int i = 0; i < params.length; i++) {
                b.addParams(Action.Param.newBuilder().setParamId(params[i].id)
                                    .setValue(params[i].bytes(values[argument[i]])));
            }
            return b.build();
        }
    }

    /** A meter or counter array: its id (null if absent) and the capacity the translator checks. */
    static final class Cells {
        final Integer id;
        private final long capacity;

        private Cells(Integer id, long capacity) {
            this.id = id;
            this.capacity = capacity;
        }

        boolean holds(long index) {
            return id != null && index < capacity;
        }

        Entity counter(int index, long packets, long bytes) throws Declined {
            require(holds(index));
            return Entity.newBuilder().setCounterEntry(
                    CounterEntry.newBuilder().setCounterId(id).setIndex(Index.newBuilder().setIndex(index))
                            .setData(CounterData.newBuilder().setPacketCount(packets).setByteCount(bytes))).build();
        }
    }

    /**
     * An entity the direct encoder does not express: one shared instance without a stack trace, as it only
     * routes the entity to the PI path.
     */
    static final class Declined extends Exception {
        private static final long serialVersionUID = 1L;

        private Declined() {
            super("declined: the PI path encodes it or says why it cannot", null, false, false);
        }
    }
}

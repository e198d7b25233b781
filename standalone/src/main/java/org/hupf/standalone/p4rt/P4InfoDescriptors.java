package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.Ip4Bits;
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
import p4.v1.P4RuntimeOuterClass.Update;

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

        Value(int id, int width) {
            this.id = id;
            this.width = width;
            this.length = (width + 7) / 8;
        }

        void write(EncodedUpdates out, int field, long v) throws Declined {
            require(v >= 0 && (width >= Long.SIZE || v >>> width == 0));
            out.bytes(field, v, length);
        }
    }

    /**
     * A table and its key fields; a null id or field is absent from the P4Info. An entry is written as
     * {@code begin}, its matches in the translator's order, its action, its priority, then
     * {@link EncodedUpdates#endUpdate}.
     */
    static final class Table {
        /** TableEntry's fields; FieldMatch's and its match kinds'. */
        private static final int TABLE_ID = 1;
        private static final int MATCH = 2;
        private static final int PRIORITY = 4;
        private static final int FIELD_ID = 1;
        private static final int EXACT = 2;
        private static final int TERNARY = 3;
        private static final int LPM = 4;
        private static final int RANGE = 6;
        private static final int FIRST = 1;
        private static final int SECOND = 2;

        private final Integer id;
        private final Value[] fields;

        private Table(Integer id, Value[] fields) {
            this.id = id;
            this.fields = fields;
        }

        void begin(EncodedUpdates out, Update.Type type) throws Declined {
            require(id != null);
            out.beginUpdate(type, EncodedUpdates.ENTITY_TABLE);
            out.varint(TABLE_ID, id);
        }

        private Value field(int i) throws Declined {
            require(fields[i] != null);
            return fields[i];
        }

        void exact(EncodedUpdates out, int field, long v) throws Declined {
            Value f = field(field);
            long match = matchOf(out, f, EXACT);
            f.write(out, FIRST, v);
            closeMatch(out, match);
        }

        void lpm(EncodedUpdates out, int field, Ip4Prefix p) throws Declined {
            Value f = field(field);
            long match = matchOf(out, f, LPM);
            f.write(out, FIRST, Ip4Bits.of(p.address()) & 0xFFFFFFFFL);
            out.varint(SECOND, p.prefixLength());
            closeMatch(out, match);
        }

        void ternary(EncodedUpdates out, int field, long v, long mask) throws Declined {
            Value f = field(field);
            long match = matchOf(out, f, TERNARY);
            f.write(out, FIRST, v);
            f.write(out, SECOND, mask);
            closeMatch(out, match);
        }

        void range(EncodedUpdates out, int field, long low, long high) throws Declined {
            Value f = field(field);
            long match = matchOf(out, f, RANGE);
            f.write(out, FIRST, low);
            f.write(out, SECOND, high);
            closeMatch(out, match);
        }

        void priority(EncodedUpdates out, int priority) {
            out.varint(PRIORITY, priority);
        }

        /** Opens a FieldMatch and its match kind's message. @return both marks, the FieldMatch's high */
        private static long matchOf(EncodedUpdates out, Value f, int kind) {
            int match = out.open(MATCH);
            out.varint(FIELD_ID, f.id);
            return (long) match << 32 | out.open(kind);
        }

        private static void closeMatch(EncodedUpdates out, long marks) {
            out.close((int) marks);
            out.close((int) (marks >>> 32));
        }
    }

    /** An action and its parameters in PiAction's order; a null id is absent or unlike the translator's. */
    static final class Act {
        /** TableEntry.action; TableAction.action; Action's and Param's fields. */
        private static final int TABLE_ACTION = 3;
        private static final int ACTION = 1;
        private static final int ACTION_ID = 1;
        private static final int PARAMS = 4;
        private static final int PARAM_ID = 2;
        private static final int PARAM_VALUE = 3;

        private final Integer id;
        private final Value[] params;
        /** For each parameter sent, the index of its value among {@link #write}'s arguments. */
        private final int[] argument;

        private Act(Integer id, Value[] params, int[] argument) {
            this.id = id;
            this.params = params;
            this.argument = argument;
        }

        /**
         * Writes the action as a table entry's action.
         *
         * @param out    the entry's update
         * @param values parameter values in the order given to {@link P4InfoDescriptors#action}
         * @throws Declined if the action is absent or a value does not fit
         */
        void write(EncodedUpdates out, long... values) throws Declined {
            require(id != null);
            int tableAction = out.open(TABLE_ACTION);
            int action = out.open(ACTION);
            out.varint(ACTION_ID, id);
            for (int i = 0; i < params.length; i++) {
                int param = out.open(PARAMS);
                out.varint(PARAM_ID, params[i].id);
                params[i].write(out, PARAM_VALUE, values[argument[i]]);
                out.close(param);
            }
            out.close(action);
            out.close(tableAction);
        }
    }

    /** A meter or counter array: its id (null if absent) and the capacity the translator checks. */
    static final class Cells {
        /** MeterEntry's and CounterEntry's fields (the same numbers), CounterData's and MeterConfig's. */
        private static final int CELLS_ID = 1;
        private static final int INDEX = 2;
        private static final int DATA = 3;
        private static final int INDEX_VALUE = 1;
        private static final int BYTE_COUNT = 1;
        private static final int PACKET_COUNT = 2;
        private static final int CIR = 1;
        private static final int CBURST = 2;
        private static final int PIR = 3;
        private static final int PBURST = 4;

        final Integer id;
        private final long capacity;

        private Cells(Integer id, long capacity) {
            this.id = id;
            this.capacity = capacity;
        }

        boolean holds(long index) {
            return id != null && index < capacity;
        }

        void counter(EncodedUpdates out, Update.Type type, int index, long packets, long bytes) throws Declined {
            require(holds(index));
            begin(out, type, EncodedUpdates.ENTITY_COUNTER, index);
            int data = out.open(DATA);
            out.varint(BYTE_COUNT, bytes);
            out.varint(PACKET_COUNT, packets);
            out.close(data);
            out.endUpdate();
        }

        /** A meter cell's update; without a configuration (reset) when {@code config} is false. */
        void meter(EncodedUpdates out, Update.Type type, int index, boolean config, long cir, long cburst, long pir,
                   long pburst) throws Declined {
            require(holds(index));
            begin(out, type, EncodedUpdates.ENTITY_METER, index);
            if (config) {
                int c = out.open(DATA);
                out.varint(CIR, cir);
                out.varint(CBURST, cburst);
                out.varint(PIR, pir);
                out.varint(PBURST, pburst);
                out.close(c);
            }
            out.endUpdate();
        }

        private void begin(EncodedUpdates out, Update.Type type, int entity, int index) {
            out.beginUpdate(type, entity);
            out.varint(CELLS_ID, id);
            int i = out.open(INDEX);
            out.varint(INDEX_VALUE, index);
            out.close(i);
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

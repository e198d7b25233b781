package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.GateStatus;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;

/** The {@link IeFields} table by IE type, read by reflection, for tests that go over every descriptor. */
final class FieldTable {

    /** IE type to its descriptor and the descriptor's value type. */
    static final Map<Integer, Map.Entry<IeField<Object>, Type>> BY_TYPE = new HashMap<>();

    static {
        for (Field f : IeFields.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == IeField.class) {
                try {
                    @SuppressWarnings("unchecked")
                    IeField<Object> field = (IeField<Object>) f.get(null);
                    Type valueType = ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
                    if (BY_TYPE.put(field.type, Map.entry(field, valueType)) != null) {
                        throw new IllegalStateException("two descriptors for IE type " + field.type);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private FieldTable() {
    }

    /**
     * Encodes a number (or a Gate Status octet) with the table's descriptor of an IE type.
     *
     * @param type IE type
     * @param v    value
     * @return IE, or null if the table has no descriptor of a numeric value for the type
     */
    static Ie encodeNumber(int type, long v) {
        Map.Entry<IeField<Object>, Type> e = BY_TYPE.get(type);
        if (e == null) {
            return null;
        }
        Object value = e.getValue() == Integer.class ? (Object) (int) v
                : e.getValue() == Long.class ? (Object) v
                : e.getValue() == GateStatus.class ? new GateStatus(((v >> 2) & 3) != 0, (v & 3) != 0) : null;
        return value == null ? null : e.getKey().encode(value);
    }

    /**
     * Decodes a number (or a Gate Status as its octet) with the table's descriptor of an IE type.
     *
     * @param ie IE
     * @return value, or null if the table has no descriptor of a numeric value for the type
     * @throws DecodeException if malformed
     */
    static Long decodeNumber(Ie ie) throws DecodeException {
        Map.Entry<IeField<Object>, Type> e = BY_TYPE.get(ie.type());
        if (e == null) {
            return null;
        }
        Object v = e.getKey().decode(ie);
        if (v instanceof GateStatus) {
            GateStatus g = (GateStatus) v;
            return (long) ((g.uplinkClosed ? 1 << 2 : 0) | (g.downlinkClosed ? 1 : 0));
        }
        return v instanceof Number ? ((Number) v).longValue() : null;
    }
}

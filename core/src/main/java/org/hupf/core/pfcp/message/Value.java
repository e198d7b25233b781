package org.hupf.core.pfcp.message;

import java.util.List;

/**
 * An immutable value compared by its fields: equals, hashCode and toString come from {@link #fields()}, so
 * each typed IE value and request states its fields once instead of repeating the three methods.
 */
public abstract class Value {

    /** @return the fields that make up this value, in declaration order (null where a field is absent) */
    protected abstract List<Object> fields();

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((Value) o).fields().equals(fields());
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode() * 31 + fields().hashCode();
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + fields();
    }
}

package org.hupf.api.session;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A session's rules by id ({@link PfcpSession#pdrs} and the others), immutable: its few keys and values side by side
 * in one array, scanned. A {@code Map.copyOf} of two rules held a hash table of eight slots, and each map kept the
 * {@code values()} view it was once asked for; here a view is made when asked and not kept. Past
 * {@link #SCANNED} rules a session gets a {@code Map.copyOf}, whose lookups do not scan.
 */
final class RuleMap<K, V> extends AbstractMap<K, V> {

    private static final int SCANNED = 8;

    /** Key i at 2i, its value at 2i + 1. */
    private final Object[] keysAndValues;

    private RuleMap(Object[] keysAndValues) {
        this.keysAndValues = keysAndValues;
    }

    /**
     * @return an immutable copy of {@code m} ({@code m} itself when it is one)
     * @throws NullPointerException for a null key or value, as {@code Map.copyOf}
     */
    static <K, V> Map<K, V> copyOf(Map<K, V> m) {
        if (m instanceof RuleMap || m.size() > SCANNED) {
            return m instanceof RuleMap ? m : Map.copyOf(m);
        }
        if (m.isEmpty()) {
            return Map.of();
        }
        Object[] kv = new Object[2 * m.size()];
        int i = 0;
        for (Entry<K, V> e : m.entrySet()) {
            kv[i++] = Objects.requireNonNull(e.getKey(), "null key");
            kv[i++] = Objects.requireNonNull(e.getValue(), "null value");
        }
        return new RuleMap<>(kv);
    }

    private int indexOf(Object key) {
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int at = indexOf(key);
        return at < 0 ? null : (V) keysAndValues[at + 1];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public int size() {
        return keysAndValues.length / 2;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super K, ? super V> action) {
        for (int i = 0; i < keysAndValues.length; i += 2) {
            action.accept((K) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
    }

    /** The elements at {@code from}, {@code from} + 2, ...: the keys (0) or the values (1), as a fresh view. */
    private <T> Iterator<T> every2nd(int from) {
        return new Iterator<>() {
            private int next = from;

            @Override
            public boolean hasNext() {
                return next < keysAndValues.length;
            }

            @Override
            @SuppressWarnings("unchecked")
            public T next() {
                if (next >= keysAndValues.length) {
                    throw new NoSuchElementException();
                }
                next += 2;
                return (T) keysAndValues[next - 2];
            }
        };
    }

    @Override
    public Set<K> keySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<K> iterator() {
                return every2nd(0);
            }

            @Override
            public int size() {
                return RuleMap.this.size();
            }

            @Override
            public boolean contains(Object o) {
                return containsKey(o);
            }
        };
    }

    @Override
    public Collection<V> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<V> iterator() {
                return every2nd(1);
            }

            @Override
            public int size() {
                return RuleMap.this.size();
            }
        };
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<K, V>> iterator() {
                Iterator<K> keys = every2nd(0);
                Iterator<V> values = every2nd(1);
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return keys.hasNext();
                    }

                    @Override
                    public Entry<K, V> next() {
                        return new SimpleImmutableEntry<>(keys.next(), values.next());
                    }
                };
            }

            @Override
            public int size() {
                return RuleMap.this.size();
            }
        };
    }
}

package org.hupf.core.pfcp;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of the PFCP agent (messages in and out, drops and rejections by reason).
 */
public final class PfcpStats {

    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

    /**
     * Increments a counter.
     *
     * @param name counter name
     */
    public void inc(String name) {
        counters.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    }

    /**
     * Returns a counter's value.
     *
     * @param name counter name
     * @return value, 0 if never incremented
     */
    public long get(String name) {
        AtomicLong v = counters.get(name);
        return v == null ? 0 : v.get();
    }

    /** @return a sorted copy of every counter */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }
}

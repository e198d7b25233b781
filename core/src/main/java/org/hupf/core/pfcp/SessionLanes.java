package org.hupf.core.pfcp;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One session message at a time per ordering key, for a single thread (no locking): a message whose key has one
 * under way waits in its key's lane until that one is answered; messages of other keys do not wait for it.
 *
 * @param <M> a message
 */
final class SessionLanes<M> {

    /** Keys with a message under way, each to the messages waiting behind it. */
    private final Map<Object, ArrayDeque<M>> busy = new HashMap<>();

    /**
     * Takes a message of a key.
     *
     * @return true if it starts now; false if it waits behind its key's message under way (see {@link #next})
     */
    boolean enter(Object key, M message) {
        ArrayDeque<M> waiting = busy.get(key);
        if (waiting != null) {
            waiting.add(message);
            return false;
        }
        busy.put(key, new ArrayDeque<>(2));
        return true;
    }

    /**
     * Ends the key's message under way.
     *
     * @return the key's next message, which starts now, or null: the key is free
     */
    M next(Object key) {
        ArrayDeque<M> waiting = busy.get(key);
        M m = waiting == null ? null : waiting.poll();
        if (m == null) {
            busy.remove(key);
        }
        return m;
    }

    /** @return whether the key has a message under way */
    boolean busy(Object key) {
        return busy.containsKey(key);
    }

    /** @return keys with a message under way */
    int busyKeys() {
        return busy.size();
    }
}

package org.hupf.app.store;

import org.onosproject.store.service.AsyncConsistentMultimapAdapter;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.MultimapEvent;
import org.onosproject.store.service.MultimapEventListener;
import org.onosproject.store.service.StorageException;
import org.onosproject.store.service.Versioned;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The session multimap as the nodes of one cluster share it: byte values compared by content as Atomix's are, an
 * event per value inserted or removed, to every node's listener in commit order. Its operations can fail (a commit
 * timing out) and its events be lost while a test says so; it counts the operations that change it.
 */
final class SharedMultimap extends AsyncConsistentMultimapAdapter<Long, byte[]> {

    private final Map<Long, List<byte[]>> values = new TreeMap<>();
    private final List<MultimapEventListener<Long, byte[]>> listeners = new CopyOnWriteArrayList<>();
    final List<Consumer<DistributedPrimitive.Status>> statusListeners = new CopyOnWriteArrayList<>();
    /** Operations that changed (or would have changed) the multimap. */
    final AtomicInteger writes = new AtomicInteger();
    volatile boolean failPuts;
    volatile boolean failRemovals;
    volatile boolean loseEvents;
    /** The events of the change being made. */
    private List<MultimapEvent<Long, byte[]>> pending;

    private CompletableFuture<Boolean> change(boolean failing, Runnable change) {
        writes.incrementAndGet();
        if (failing) {
            return CompletableFuture.failedFuture(new StorageException.Timeout());
        }
        List<MultimapEvent<Long, byte[]>> events = new ArrayList<>();
        synchronized (this) {
            pending = events;
            change.run();
            pending = null;
        }
        if (!loseEvents) {
            events.forEach(e -> listeners.forEach(l -> l.event(e)));
        }
        return CompletableFuture.completedFuture(!events.isEmpty());
    }

    private void insert(Long key, byte[] value) {
        List<byte[]> held = values.computeIfAbsent(key, k -> new ArrayList<>());
        if (held.stream().noneMatch(v -> Arrays.equals(v, value))) {
            held.add(value);
            pending.add(new MultimapEvent<>(name(), key, value, null));
        }
    }

    private void delete(Long key, byte[] value) {
        List<byte[]> held = values.getOrDefault(key, List.of());
        for (byte[] v : held) {
            if (Arrays.equals(v, value)) {
                held.remove(v);
                pending.add(new MultimapEvent<>(name(), key, null, v));
                break;
            }
        }
        if (held.isEmpty()) {
            values.remove(key);
        }
    }

    @Override
    public CompletableFuture<Boolean> putAll(Map<Long, Collection<? extends byte[]>> mapping) {
        return change(failPuts, () -> mapping.forEach((k, vs) -> vs.forEach(v -> insert(k, v))));
    }

    @Override
    public CompletableFuture<Boolean> removeAll(Map<Long, Collection<? extends byte[]>> mapping) {
        return change(failRemovals, () -> mapping.forEach((k, vs) -> vs.forEach(v -> delete(k, v))));
    }

    @Override
    public CompletableFuture<Versioned<Collection<? extends byte[]>>> removeAll(Long key) {
        Versioned<Collection<? extends byte[]>> had = versioned(key);
        return change(failRemovals, () -> List.copyOf(values.getOrDefault(key, List.of())).forEach(v -> delete(key, v)))
                .thenApply(x -> had);
    }

    @Override
    public CompletableFuture<Void> clear() {
        return change(failRemovals, () -> List.copyOf(values.keySet()).forEach(
                k -> List.copyOf(values.get(k)).forEach(v -> delete(k, v)))).thenApply(x -> null);
    }

    private synchronized Versioned<Collection<? extends byte[]>> versioned(Long key) {
        List<byte[]> held = values.get(key);
        return held == null ? null : new Versioned<>(List.copyOf(held), 1);
    }

    @Override
    public CompletableFuture<Versioned<Collection<? extends byte[]>>> get(Long key) {
        return CompletableFuture.completedFuture(versioned(key));
    }

    @Override
    public synchronized CompletableFuture<Collection<Map.Entry<Long, byte[]>>> entries() {
        List<Map.Entry<Long, byte[]>> out = new ArrayList<>();
        values.forEach((k, vs) -> vs.forEach(v -> out.add(new AbstractMap.SimpleEntry<>(k, v))));
        return CompletableFuture.completedFuture(out);
    }

    /** @return how many values the multimap holds */
    synchronized int size(Long key) {
        return values.getOrDefault(key, List.of()).size();
    }

    @Override
    public CompletableFuture<Void> addListener(MultimapEventListener<Long, byte[]> listener, Executor executor) {
        listeners.add(listener);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> addListener(MultimapEventListener<Long, byte[]> listener) {
        return addListener(listener, Runnable::run);
    }

    @Override
    public CompletableFuture<Void> removeListener(MultimapEventListener<Long, byte[]> listener) {
        listeners.remove(listener);
        return CompletableFuture.completedFuture(null);
    }

    /** @return how many listeners follow it */
    int listeners() {
        return listeners.size();
    }

    @Override
    public void addStatusChangeListener(Consumer<DistributedPrimitive.Status> listener) {
        statusListeners.add(listener);
    }

    @Override
    public void removeStatusChangeListener(Consumer<DistributedPrimitive.Status> listener) {
        statusListeners.remove(listener);
    }
}

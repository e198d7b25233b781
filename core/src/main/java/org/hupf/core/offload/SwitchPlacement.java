package org.hupf.core.offload;

import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Which sessions the {@link OffloadManager} puts on the switch: promotion within the switch's table sizes
 * (evicting the coldest offloaded session when a hotter one needs room, with rate hysteresis and a least
 * residence time), demotion of a session that stayed below the threshold for the hold time; pins override both.
 * Writes are ordered make-before-break by the switch's {@link DeviceTable}. Called under the manager's lock.
 */
final class SwitchPlacement {

    private static final Logger log = LoggerFactory.getLogger(SwitchPlacement.class);
    /** Switch tables whose size bounds how many sessions it holds. */
    private static final UpfEntityType[] SWITCH_TABLES = {
        UpfEntityType.SESSION_UPLINK, UpfEntityType.SESSION_DOWNLINK, UpfEntityType.TERMINATION_UPLINK,
        UpfEntityType.TERMINATION_DOWNLINK, UpfEntityType.TUNNEL_PEER,
    };

    private final DeviceTable hardware;
    private final OffloadPolicy policy;
    private final OffloadEvents events;
    private final SwitchCounts counts;
    private final OffloadPoll poller;
    private final Collection<OffloadEntry> entries;
    private final Map<UpfEntityType, Long> sizes = new EnumMap<>(UpfEntityType.class);
    private final SwitchCells.Pools pools;

    /**
     * @param device the switch, or null when there is none (nothing is offloaded)
     * @param hardware its table
     * @param entries every tracked session (a live view), among which to find one to evict
     * @throws UpfProgrammableException if the switch's table sizes cannot be read
     */
    SwitchPlacement(HupfUpfDevice device, DeviceTable hardware, OffloadPolicy policy, OffloadEvents events,
                    SwitchCounts counts, OffloadPoll poller, Collection<OffloadEntry> entries)
            throws UpfProgrammableException {
        this.hardware = hardware;
        this.policy = policy;
        this.events = events;
        this.counts = counts;
        this.poller = poller;
        this.entries = entries;
        if (device == null) {
            pools = null;
            return;
        }
        for (UpfEntityType t : SWITCH_TABLES) {
            sizes.put(t, device.tableSize(t));
        }
        for (UpfEntityType t : List.of(UpfEntityType.COUNTER, UpfEntityType.SESSION_METER,
                                       UpfEntityType.APPLICATION_METER)) {
            sizes.put(t, device.tableSize(t));
        }
        pools = new SwitchCells.Pools(intSize(UpfEntityType.COUNTER), intSize(UpfEntityType.SESSION_METER),
                                      intSize(UpfEntityType.APPLICATION_METER));
    }

    private int intSize(UpfEntityType t) {
        return (int) Math.min(Integer.MAX_VALUE, sizes.get(t));
    }

    /** Decides where a session goes after a poll applied its usage and rate. */
    void decide(OffloadEntry e, long now) {
        if (e.reportedAt != null && !e.offloaded()) {
            if (e.rateBps >= policy.thresholdBitsPerSec()) {
                e.reportedAt = null;
                promote(e, now, e.rateBps);
                return;
            }
            if (now - e.reportedAt > policy.holdMillis()) {
                e.reportedAt = null;
                events.unconfirmed();
            }
        }
        if (e.offloaded() && e.pin != OffloadPolicy.Pin.HARDWARE) {
            if (e.rateBps >= policy.thresholdBitsPerSec()) {
                e.coldSince = null;
            } else if (e.coldSince == null) {
                e.coldSince = now;
            } else if (now - e.coldSince >= policy.holdMillis()) {
                demote(e, now, OffloadEvent.Kind.DEMOTED);
            }
        } else if (!e.offloaded() && e.pin == OffloadPolicy.Pin.HARDWARE) {
            promote(e, now, Double.POSITIVE_INFINITY);
        }
    }

    /** Puts a session on the switch if it fits, evicting colder ones than candidateRate; else rejects it. */
    void promote(OffloadEntry e, long now, double candidateRate) {
        if (hardware == null || e.changing) {
            return;
        }
        SwitchCells cells = new SwitchCells(pools);
        while (!fitsOnSwitch(e.session.entities(), cells)) {
            OffloadEntry victim = coldestEvictable(now, candidateRate);
            if (victim == null) {
                reject(e, now, "switch full");
                return;
            }
            demote(victim, now, OffloadEvent.Kind.EVICTED);
        }
        List<UpfEntity> mapped = cells.remap(e.session.entities());
        long t0 = System.nanoTime();
        try {
            counts.baseline(e, cells.counterMap());
            hardware.acquire(mapped);
        } catch (UpfProgrammableException ex) {
            cells.releaseAll();
            reject(e, now, ex.getMessage());
            return;
        }
        log.info("Offloaded UE {} to the switch: {} entities written in {} ms", e.session.ueAddress(), mapped.size(),
                 String.format("%.1f", (System.nanoTime() - t0) / 1e6));
        e.cells = cells;
        e.switchEntities = mapped;
        poller.wake(e);
        poller.counts(e);
        e.offloadedAt = now;
        e.coldSince = null;
        e.reportedAt = null;
        counts.persist(e);
        events.emit(OffloadEvent.Kind.PROMOTED, e.session.ueAddress(), now);
    }

    /** Rewrites an offloaded session after a change; false if it no longer fits or a write failed. */
    boolean updateOnSwitch(OffloadEntry e) {
        if (!fitsOnSwitch(e.session.entities(), e.cells)) {
            // The old entries still count against capacity; demote and let the next report retry.
            return false;
        }
        List<UpfEntity> mapped = e.cells.remap(e.session.entities());
        try {
            counts.baseline(e, e.cells.counterMap());
            hardware.acquire(mapped);
            hardware.release(e.switchEntities);
        } catch (UpfProgrammableException ex) {
            events.switchError();
            log.warn("Cannot update UE {} on the switch: {}", e.session.ueAddress(), ex.getMessage());
            return false;
        }
        e.switchEntities = mapped;
        e.cells.retainOnly(e.session.entities());
        counts.persist(e);
        return true;
    }

    /** Removes a session from the switch; kind null means the session itself is going away. */
    void demote(OffloadEntry e, long now, OffloadEvent.Kind kind) {
        long t0 = System.nanoTime();
        try {
            hardware.release(e.switchEntities);
            log.info("Took UE {} off the switch ({}): {} entities removed in {} ms", e.session.ueAddress(),
                     kind == null ? "session gone" : kind.name().toLowerCase(), e.switchEntities.size(),
                     String.format("%.1f", (System.nanoTime() - t0) / 1e6));
        } catch (UpfProgrammableException ex) {
            events.switchError();
            log.warn("Cannot remove UE {} from the switch: {}", e.session.ueAddress(), ex.getMessage());
        }
        try {
            counts.fold(e);
        } catch (UpfProgrammableException ex) {
            events.switchError();
            log.warn("Lost the last switch counts of UE {}: {}", e.session.ueAddress(), ex.getMessage());
        }
        e.cells.releaseAll();
        e.cells = null;
        e.switchEntities = null;
        e.hwLast = null;
        e.coldSince = null;
        counts.persist(e);
        if (kind != null) {
            events.emit(kind, e.session.ueAddress(), now);
        }
    }

    /** @return each switch table bounding the sessions, and the counters: {occupancy, size}; empty without one */
    Map<UpfEntityType, long[]> occupancy() {
        Map<UpfEntityType, long[]> occ = new EnumMap<>(UpfEntityType.class);
        if (hardware != null) {
            for (UpfEntityType t : SWITCH_TABLES) {
                occ.put(t, new long[]{hardware.occupancy(t), sizes.get(t)});
            }
            occ.put(UpfEntityType.COUNTER, new long[]{sizes.get(UpfEntityType.COUNTER) - pools.counters.free(),
                                                      sizes.get(UpfEntityType.COUNTER)});
        }
        return occ;
    }

    private void reject(OffloadEntry e, long now, String why) {
        log.info("Not offloading UE {}: {}", e.session.ueAddress(), why);
        events.emit(OffloadEvent.Kind.REJECTED, e.session.ueAddress(), now);
    }

    private boolean fitsOnSwitch(List<UpfEntity> entities, SwitchCells cells) {
        if (!cells.fits(entities)) {
            return false;
        }
        Map<UpfEntityType, Integer> extra = hardware.newEntries(entities);
        for (UpfEntityType t : SWITCH_TABLES) {
            if (hardware.occupancy(t) + extra.getOrDefault(t, 0) > sizes.get(t)) {
                return false;
            }
        }
        return true;
    }

    private OffloadEntry coldestEvictable(long now, double candidateRate) {
        OffloadEntry coldest = null;
        for (OffloadEntry o : entries) {
            if (!o.offloaded() || o.pin == OffloadPolicy.Pin.HARDWARE) {
                continue;
            }
            boolean settled = now - o.offloadedAt >= policy.holdMillis();
            boolean colder = o.rateBps * (1 + policy.hysteresis()) < candidateRate;
            if ((settled || candidateRate == Double.POSITIVE_INFINITY) && colder
                    && (coldest == null || o.rateBps < coldest.rateBps)) {
                coldest = o;
            }
        }
        return coldest;
    }
}

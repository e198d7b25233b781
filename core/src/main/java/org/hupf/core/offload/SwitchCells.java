package org.hupf.core.offload;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One offloaded session's switch cells: its backend counter and meter indices, which address arrays of
 * millions of cells, mapped to cells of the switch's small arrays. Meter index 0 is the shared
 * unmetered cell on both targets and is kept as is.
 */
final class SwitchCells {

    /** The switch's counter, session-meter and application-meter pools, shared by all sessions. */
    static final class Pools {
        final IndexPool counters;
        final IndexPool sessionMeters;
        final IndexPool appMeters;

        Pools(int counters, int sessionMeters, int appMeters) {
            this.counters = new IndexPool(0, counters);
            this.sessionMeters = new IndexPool(1, sessionMeters);
            this.appMeters = new IndexPool(1, appMeters);
        }
    }

    private final Pools pools;
    private final Map<Integer, Integer> counters = new HashMap<>();
    private final Map<Integer, Integer> sessionMeters = new HashMap<>();
    private final Map<Integer, Integer> appMeters = new HashMap<>();

    SwitchCells(Pools pools) {
        this.pools = pools;
    }

    /** Backend counter index to switch counter cell, for every counter of the session. */
    Map<Integer, Integer> counterMap() {
        return counters;
    }

    /**
     * Tells whether the pools can hold the cells that these entities need beyond the ones already mapped.
     */
    boolean fits(List<UpfEntity> entities) {
        Set<Integer> c = new HashSet<>();
        Set<Integer> sm = new HashSet<>();
        Set<Integer> am = new HashSet<>();
        for (UpfEntity e : entities) {
            for (int[] ref : references(e)) {
                Map<Integer, Integer> map = mapOf(ref[0]);
                Set<Integer> need = ref[0] == 0 ? c : ref[0] == 1 ? sm : am;
                if (!map.containsKey(ref[1]) && (ref[0] == 0 || ref[1] != 0)) {
                    need.add(ref[1]);
                }
            }
        }
        return c.size() <= pools.counters.free() && sm.size() <= pools.sessionMeters.free()
                && am.size() <= pools.appMeters.free();
    }

    /**
     * Returns the entities as written to the switch, allocating cells for indices not mapped yet.
     * Call {@link #fits} first.
     */
    List<UpfEntity> remap(List<UpfEntity> entities) {
        List<UpfEntity> out = new ArrayList<>(entities.size());
        for (UpfEntity e : entities) {
            out.add(remapOne(e));
        }
        return out;
    }

    /** Frees the cells of indices that these (the session's current) entities no longer use. */
    void retainOnly(List<UpfEntity> entities) {
        Set<Integer> c = new HashSet<>();
        Set<Integer> sm = new HashSet<>();
        Set<Integer> am = new HashSet<>();
        for (UpfEntity e : entities) {
            for (int[] ref : references(e)) {
                (ref[0] == 0 ? c : ref[0] == 1 ? sm : am).add(ref[1]);
            }
        }
        drop(counters, c, pools.counters);
        drop(sessionMeters, sm, pools.sessionMeters);
        drop(appMeters, am, pools.appMeters);
    }

    void releaseAll() {
        retainOnly(List.of());
    }

    private static void drop(Map<Integer, Integer> map, Set<Integer> keep, IndexPool pool) {
        map.entrySet().removeIf(en -> {
            if (keep.contains(en.getKey())) {
                return false;
            }
            pool.release(en.getValue());
            return true;
        });
    }

    // Each reference is {array: 0 counter, 1 session meter, 2 app meter; backend index}.
    private static List<int[]> references(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                return List.of(new int[]{1, ((UpfSessionUplink) e).sessionMeterIdx()});
            case SESSION_DOWNLINK:
                return List.of(new int[]{1, ((UpfSessionDownlink) e).sessionMeterIdx()});
            case TERMINATION_UPLINK:
                UpfTerminationUplink tu = (UpfTerminationUplink) e;
                return List.of(new int[]{0, tu.counterId()}, new int[]{2, tu.appMeterIdx()});
            case TERMINATION_DOWNLINK:
                UpfTerminationDownlink td = (UpfTerminationDownlink) e;
                return List.of(new int[]{0, td.counterId()}, new int[]{2, td.appMeterIdx()});
            case SESSION_METER:
                return List.of(new int[]{1, ((UpfMeter) e).cellId()});
            case APPLICATION_METER:
                return List.of(new int[]{2, ((UpfMeter) e).cellId()});
            default:
                return List.of();
        }
    }

    private Map<Integer, Integer> mapOf(int array) {
        return array == 0 ? counters : array == 1 ? sessionMeters : appMeters;
    }

    private int cell(int array, int backendIdx) {
        if (array != 0 && backendIdx == 0) {
            return 0;
        }
        IndexPool pool = array == 0 ? pools.counters : array == 1 ? pools.sessionMeters : pools.appMeters;
        return mapOf(array).computeIfAbsent(backendIdx, k -> pool.allocate());
    }

    private UpfEntity remapOne(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK: {
                UpfSessionUplink s = (UpfSessionUplink) e;
                return UpfSessionUplink.builder().setTunDstAddr(s.tunDstAddr()).setTeid(s.teid())
                        .withUeAddress(s.ueAddress().orElse(null)).needsDropping(s.needsDropping())
                        .setSessionMeterIdx(cell(1, s.sessionMeterIdx())).build();
            }
            case SESSION_DOWNLINK: {
                UpfSessionDownlink s = (UpfSessionDownlink) e;
                UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(s.ueAddress())
                        .needsBuffering(s.needsBuffering()).needsDropping(s.needsDropping())
                        .withSessionMeterIdx(cell(1, s.sessionMeterIdx()));
                if (!s.needsBuffering() && !s.needsDropping()) {
                    b.withGtpTunnelPeerId(s.tunPeerId());
                }
                return b.build();
            }
            case TERMINATION_UPLINK: {
                UpfTerminationUplink t = (UpfTerminationUplink) e;
                return UpfTerminationUplink.builder().withUeSessionId(t.ueSessionId())
                        .withApplicationId(t.applicationId()).withCounterId(cell(0, t.counterId()))
                        .withTrafficClass(t.trafficClass()).withAppMeterIdx(cell(2, t.appMeterIdx()))
                        .needsDropping(t.needsDropping()).build();
            }
            case TERMINATION_DOWNLINK: {
                UpfTerminationDownlink t = (UpfTerminationDownlink) e;
                return UpfTerminationDownlink.builder().withUeSessionId(t.ueSessionId())
                        .withApplicationId(t.applicationId()).withCounterId(cell(0, t.counterId()))
                        .withTeid(t.teid()).withQfi(t.qfi()).withTrafficClass(t.trafficClass())
                        .withAppMeterIdx(cell(2, t.appMeterIdx())).needsDropping(t.needsDropping()).build();
            }
            case SESSION_METER:
            case APPLICATION_METER: {
                UpfMeter m = (UpfMeter) e;
                int array = m.meterType() == UpfMeter.Type.SESSION ? 1 : 2;
                int c = cell(array, m.cellId());
                if (m.isReset()) {
                    return UpfMeter.resetMeter(m.meterType(), c);
                }
                UpfMeter.Builder b = UpfMeter.builder().setCellId(c)
                        .setCommittedBand(m.committedRate(), m.committedBurst())
                        .setPeakBand(m.peakRate(), m.peakBurst());
                return (array == 1 ? b.setSession() : b.setApplication()).build();
            }
            default:
                return e;
        }
    }
}

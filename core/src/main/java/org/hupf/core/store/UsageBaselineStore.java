package org.hupf.core.store;

import java.util.Map;
import java.util.Set;

/**
 * The URRs' measurement baselines that have been reported at least once, by session: kept beside the
 * sessions so that a new hupf leader (or a restarted host) reports only what the old one had not.
 */
public interface UsageBaselineStore {

    /** @return every baseline: local SEID to URR id to baseline (read once, when a reporter starts) */
    Map<Long, Map<Long, UsageBaseline>> all();

    /**
     * Records a URR's baseline after a report.
     *
     * @param upSeid   local SEID
     * @param urrId    URR id
     * @param baseline the new interval's start
     */
    void put(long upSeid, long urrId, UsageBaseline baseline);

    /**
     * Keeps only the baselines of the URRs a session still has.
     *
     * @param upSeid local SEID
     * @param urrIds its URRs
     */
    void retain(long upSeid, Set<Long> urrIds);

    /**
     * Drops a deleted session's baselines.
     *
     * @param upSeid local SEID
     */
    void remove(long upSeid);
}

package org.hupf.app;

import org.hupf.core.HupfApp;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Whether this node leads hupf, as ONOS's leader elector answers when asked rather than as its last event
 * said. A node whose Atomix session expired under load can be replaced as leader without hearing of it (the
 * change event goes to the expired session): it would go on serving PFCP and writing the devices next to the
 * new leader. A component acting as the leader therefore keeps the term it started under, asks again every
 * {@link #CHECK_MS}, and stands down when the answer is another term or another leader, when the elector's
 * service is disrupted, or when the elector has not answered {@link #UNANSWERED_LIMIT} times in a row.
 */
public final class LeaderLease {

    /** How often a component confirms the term it acts under (and notices a leadership nobody told it of). */
    public static final long CHECK_MS = 2000;
    /** The elector's term when it answered that this node does not lead hupf. */
    public static final long NOT_LEADER = 0;
    /** The elector did not answer (timeout, no partition) or its service is disrupted. */
    public static final long UNKNOWN = -1;
    /** Unanswered checks in a row after which a leader stands down: a read can time out under load once. */
    static final int UNANSWERED_LIMIT = 2;

    private static final Logger log = LoggerFactory.getLogger(LeaderLease.class);

    private final Supplier<LeadershipService> leadership;
    private final Supplier<NodeId> local;
    private volatile boolean disrupted;
    private int unanswered;

    /**
     * @param leadership ONOS's leadership service (a supplier: a component's services are bound after it is made)
     * @param local      this node's id
     */
    public LeaderLease(Supplier<LeadershipService> leadership, Supplier<NodeId> local) {
        this.leadership = leadership;
        this.local = local;
    }

    /**
     * Asks the elector now.
     *
     * @return the term of hupf's leadership this node holds, {@link #NOT_LEADER} or {@link #UNKNOWN}
     */
    public long term() {
        if (disrupted) {
            return UNKNOWN;
        }
        try {
            Leadership l = leadership.get().getLeadership(HupfApp.APP_NAME);
            return l != null && l.leader() != null && local.get().equals(l.leaderNodeId())
                    ? l.leader().term() : NOT_LEADER;
        } catch (RuntimeException e) {
            // StorageException (timeout, unavailable partition): the elector cannot say.
            return UNKNOWN;
        }
    }

    /**
     * Who leads hupf as the elector says now, for a log line: a component that stands by says why in its
     * own words. A node that is no candidate any more withdrew: hupf is stopping there (deactivated, uninstalled or
     * the node shutting down), whoever leads after it.
     *
     * @return "node X leads hupf", "no node leads hupf", that this node withdrew, or that the elector does not
     *         answer
     */
    public String leaderNow() {
        try {
            Leadership l = leadership.get().getLeadership(HupfApp.APP_NAME);
            NodeId leader = l == null ? null : l.leaderNodeId();
            String leads = leader == null ? "no node leads hupf"
                    : (local.get().equals(leader) ? "this node (" + leader + ")" : "node " + leader) + " leads hupf";
            return withdrew(l) ? "this node withdrew from hupf's leadership, hupf stopping here (" + leads + ")"
                    : leads;
        } catch (RuntimeException e) {
            return "the leader elector does not answer (" + e + ")";
        }
    }

    /** Whether this node withdrew from hupf's leadership: it is no candidate any more. */
    private boolean withdrew(Leadership l) {
        return l == null || !l.candidates().contains(local.get());
    }

    /**
     * @return whether this node withdrew from hupf's leadership (hupf is stopping here), as the elector says now;
     *         false when it does not answer
     */
    public boolean withdrawn() {
        try {
            return withdrew(leadership.get().getLeadership(HupfApp.APP_NAME));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The periodic check of a component that acts under {@code held} ({@link #NOT_LEADER} while it stands by).
     *
     * @param held the term the component acts under
     * @return the term it should act under from now on: {@code held} while the elector confirms it or has not
     *         answered fewer than {@link #UNANSWERED_LIMIT} times in a row; else what the elector says, or
     *         {@link #NOT_LEADER} when it cannot say
     */
    public synchronized long check(long held) {
        long now = term();
        if (now == UNKNOWN) {
            return ++unanswered < UNANSWERED_LIMIT ? held : NOT_LEADER;
        }
        unanswered = 0;
        return now;
    }

    /**
     * Checks, every {@link #CHECK_MS} on {@code executor}, the term a component acts under, and hands it the
     * term to act under from now on when that differs (see {@link #check}).
     *
     * @param executor the component's executor
     * @param held     the term the component acts under ({@link #NOT_LEADER} while it stands by)
     * @param apply    makes the component act under the new term (stand by for {@link #NOT_LEADER})
     */
    public void watch(ScheduledExecutorService executor, LongSupplier held, LongConsumer apply) {
        executor.scheduleWithFixedDelay(() -> {
            // A periodic task that throws is never run again: nothing escapes.
            try {
                long was = held.getAsLong();
                long now = check(was);
                if (now != was) {
                    if (was != NOT_LEADER && withdrawn()) {
                        log.info("hupf's leadership term {} given up: {}", was, leaderNow());
                    } else if (was != NOT_LEADER) {
                        log.warn("hupf's leadership term {} is no longer this node's ({}), though no event said so",
                                 was, leaderNow());
                    }
                    apply.accept(now);
                }
            } catch (RuntimeException e) {
                log.warn("Checking hupf's leadership failed: {}", e.toString());
            }
        }, CHECK_MS, CHECK_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * A listener of hupf's leadership topic that keeps track of the elector's service and runs
     * {@code onChange} on {@code executor}, off ONOS's event thread.
     *
     * @param executor where the reaction runs
     * @param onChange what a change of hupf's leadership (or of the elector's service) triggers
     * @return the listener to add to ONOS's LeadershipService
     */
    public LeadershipEventListener listener(Executor executor, Runnable onChange) {
        return new LeadershipEventListener() {
            @Override
            public boolean isRelevant(LeadershipEvent event) {
                return HupfApp.APP_NAME.equals(event.subject().topic());
            }

            @Override
            public void event(LeadershipEvent event) {
                // ONOS sends SERVICE_DISRUPTED when this node's Atomix session is suspended: whoever leads
                // then, it cannot know, so it stops acting as the leader until the service is back.
                disrupted = event.type() == LeadershipEvent.Type.SERVICE_DISRUPTED;
                executor.execute(onChange);
            }
        };
    }
}

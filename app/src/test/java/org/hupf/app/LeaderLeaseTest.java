package org.hupf.app;

import org.hupf.core.HupfApp;
import org.junit.Test;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.NodeId;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** What a component acting as hupf's leader concludes from the elector's answers. */
public class LeaderLeaseTest {

    private static final NodeId LOCAL = NodeId.nodeId("onos-1");
    private static final NodeId OTHER = NodeId.nodeId("onos-2");

    private final FakeLeadership elector = new FakeLeadership(LOCAL, 4);
    private final LeaderLease lease = new LeaderLease(() -> elector, () -> LOCAL);

    @Test
    public void theTermIsTheElectorsAnswerNotTheLastEvent() {
        assertEquals(4, lease.term());
        elector.elect(OTHER, 5);
        assertEquals(LeaderLease.NOT_LEADER, lease.term());
        elector.elect(LOCAL, 6);
        assertEquals(6, lease.term());
        elector.elect(null, 7);
        assertEquals(LeaderLease.NOT_LEADER, lease.term());
    }

    @Test
    public void aCheckKeepsTheHeldTermOnlyWhileTheElectorConfirmsIt() {
        assertEquals(4, lease.check(4));
        elector.elect(LOCAL, 9);
        assertEquals("a new term of this node's is a change too", 9, lease.check(4));
        elector.elect(OTHER, 10);
        assertEquals(LeaderLease.NOT_LEADER, lease.check(9));
    }

    @Test
    public void oneUnansweredCheckIsToleratedTheSecondStandsDown() {
        elector.unanswered(true);
        assertEquals(LeaderLease.UNKNOWN, lease.term());
        assertEquals(4, lease.check(4));
        assertEquals(LeaderLease.NOT_LEADER, lease.check(4));
        // An answer in between starts the count again.
        elector.unanswered(false);
        assertEquals(4, lease.check(4));
        elector.unanswered(true);
        assertEquals(4, lease.check(4));
    }

    @Test
    public void aDisruptedServiceAnswersNothingUntilRestoredOrANewLeader() {
        AtomicInteger reactions = new AtomicInteger();
        elector.addListener(lease.listener(Runnable::run, reactions::incrementAndGet));
        elector.tell(LeadershipEvent.Type.SERVICE_DISRUPTED);
        assertEquals(LeaderLease.UNKNOWN, lease.term());
        elector.tell(LeadershipEvent.Type.SERVICE_RESTORED);
        assertEquals(4, lease.term());
        elector.tell(LeadershipEvent.Type.SERVICE_DISRUPTED);
        elector.electAndTell(OTHER, 5);
        assertEquals(LeaderLease.NOT_LEADER, lease.term());
        assertEquals(4, reactions.get());
    }

    /**
     * A single node that withdraws (hupf deactivated) gave its term up itself: no other node leads, and nothing
     * says one does.
     */
    @Test
    public void aTermGivenUpByThisNodesWithdrawalIsSaidAsSuch() {
        assertFalse(lease.withdrawn());
        assertEquals("this node (onos-1) leads hupf", lease.leaderNow());
        elector.withdraw(HupfApp.APP_NAME);
        assertEquals(LeaderLease.NOT_LEADER, lease.term());
        assertTrue(lease.withdrawn());
        assertEquals("this node withdrew from hupf's leadership, hupf stopping here (no node leads hupf)",
                     lease.leaderNow());
    }

    /** A node replaced as leader while still a candidate lost its term to another node, and says which. */
    @Test
    public void aTermLostToAnotherNodeNamesIt() {
        elector.elect(OTHER, 5);
        assertFalse(lease.withdrawn());
        assertEquals("node onos-2 leads hupf", lease.leaderNow());
        elector.withdraw(HupfApp.APP_NAME);
        assertTrue(lease.withdrawn());
        assertEquals("this node withdrew from hupf's leadership, hupf stopping here (node onos-2 leads hupf)",
                     lease.leaderNow());
    }
}

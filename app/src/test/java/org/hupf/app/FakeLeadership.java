package org.hupf.app;

import org.hupf.core.HupfApp;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipServiceAdapter;
import org.onosproject.cluster.NodeId;
import org.onosproject.store.service.StorageException;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * ONOS's leader elector for hupf's topic, as a test sets it: a leader and its term, an elector that does not
 * answer, and events delivered (or not) to the listeners. The node it is made with is the node under test: a
 * candidate until it withdraws, as every leader elected since.
 */
public class FakeLeadership extends LeadershipServiceAdapter {

    private final List<LeadershipEventListener> listeners = new CopyOnWriteArrayList<>();
    private volatile NodeId leader;
    private volatile long term;
    private volatile boolean unanswered;
    private final NodeId self;
    private final List<NodeId> candidates = new CopyOnWriteArrayList<>();

    public FakeLeadership(NodeId leader, long term) {
        this.leader = leader;
        this.term = term;
        this.self = leader;
        candidates.add(leader);
    }

    /** The elector elects another leader (or the same in a new term) without telling anyone. */
    public void elect(NodeId node, long newTerm) {
        leader = node;
        term = newTerm;
        if (node != null && !candidates.contains(node)) {
            candidates.add(node);
        }
    }

    /** The node under test runs (again): it leads, in a new term, if nobody does. */
    @Override
    public Leadership runForLeadership(String topic) {
        if (!candidates.contains(self)) {
            candidates.add(self);
        }
        if (leader == null) {
            leader = self;
            term++;
            tell(LeadershipEvent.Type.LEADER_AND_CANDIDATES_CHANGED);
        }
        return leadership();
    }

    /** The node under test withdraws: another candidate leads if there is one (in a new term), and all are told. */
    @Override
    public void withdraw(String topic) {
        candidates.remove(self);
        if (self.equals(leader)) {
            leader = candidates.isEmpty() ? null : candidates.get(0);
            term++;
        }
        tell(LeadershipEvent.Type.LEADER_AND_CANDIDATES_CHANGED);
    }

    /** The elector elects and tells every listener. */
    public void electAndTell(NodeId node, long newTerm) {
        elect(node, newTerm);
        tell(LeadershipEvent.Type.LEADER_CHANGED);
    }

    public void tell(LeadershipEvent.Type type) {
        LeadershipEvent e = new LeadershipEvent(type, leadership());
        listeners.forEach(l -> {
            if (l.isRelevant(e)) {
                l.event(e);
            }
        });
    }

    /** Reads of the elector time out from now on (or answer again). */
    public void unanswered(boolean on) {
        unanswered = on;
    }

    private Leadership leadership() {
        return new Leadership(HupfApp.APP_NAME, leader == null ? null : new Leader(leader, term, 0),
                              List.copyOf(candidates));
    }

    @Override
    public Leadership getLeadership(String topic) {
        if (unanswered) {
            throw new StorageException.Timeout();
        }
        return HupfApp.APP_NAME.equals(topic) ? leadership() : null;
    }

    @Override
    public NodeId getLeader(String topic) {
        Leadership l = getLeadership(topic);
        return l == null ? null : l.leaderNodeId();
    }

    @Override
    public void addListener(LeadershipEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(LeadershipEventListener listener) {
        listeners.remove(listener);
    }
}

package org.hupf.app;

import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;

import java.util.concurrent.Executor;

/**
 * Names shared by the hupf application's components.
 */
public final class HupfApp {

    /** ONOS application name, as in the .oar's app.xml; also the topic of hupf's cluster leadership. */
    public static final String APP_NAME = "org.hupf.app";

    private HupfApp() {
    }

    /**
     * A listener of hupf's leadership topic that runs {@code onChange} on {@code executor}, off ONOS's
     * event thread.
     *
     * @param executor where the reaction runs
     * @param onChange what a change of hupf's leadership triggers
     * @return the listener to add to ONOS's LeadershipService
     */
    public static LeadershipEventListener onLeadershipChange(Executor executor, Runnable onChange) {
        return new LeadershipEventListener() {
            @Override
            public boolean isRelevant(LeadershipEvent event) {
                return APP_NAME.equals(event.subject().topic());
            }

            @Override
            public void event(LeadershipEvent event) {
                executor.execute(onChange);
            }
        };
    }
}

package org.hupf.app.config;

import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;

import java.util.function.Consumer;

/**
 * A netcfg listener for hupf's block ({@link HupfConfig}) alone: what each hupf component reacts to. It runs on
 * ONOS's event thread, so the reaction should hand its work to the component's executor.
 */
public final class HupfConfigListener implements NetworkConfigListener {

    private final Consumer<NetworkConfigEvent> reaction;

    /**
     * @param reaction what to do on each event about hupf's config (added, updated, removed)
     */
    public HupfConfigListener(Consumer<NetworkConfigEvent> reaction) {
        this.reaction = reaction;
    }

    @Override
    public boolean isRelevant(NetworkConfigEvent event) {
        return event.configClass() == HupfConfig.class;
    }

    @Override
    public void event(NetworkConfigEvent event) {
        reaction.accept(event);
    }
}

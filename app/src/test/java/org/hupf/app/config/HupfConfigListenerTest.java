package org.hupf.app.config;

import org.hupf.core.HupfApp;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.basics.BasicDeviceConfig;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class HupfConfigListenerTest {

    private static final DefaultApplicationId APP = new DefaultApplicationId(7, HupfApp.APP_NAME);

    @Test
    public void hearsHupfsBlockOnlyAndHandsEachEventToTheReaction() {
        List<NetworkConfigEvent> heard = new ArrayList<>();
        HupfConfigListener listener = new HupfConfigListener(heard::add);
        NetworkConfigEvent ours = new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_REMOVED, APP, HupfConfig.class);

        assertTrue(listener.isRelevant(ours));
        assertFalse(listener.isRelevant(
                new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP, BasicDeviceConfig.class)));
        listener.event(ours);
        assertEquals(List.of(ours), heard);
    }
}

package org.hupf.app.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.LiveService;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadService;
import org.hupf.core.live.LiveRecorder;
import org.hupf.core.live.LiveSite;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Test;
import org.onlab.osgi.ServiceDirectory;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.ui.UiConnection;
import org.onosproject.ui.model.topo.UiTopoLayout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/**
 * What the view is pushed while it is open: the samples it does not have, the switch's packets and bytes in each
 * beside each backend's, every site's summed and each site's own.
 */
public class HupfUiMessageHandlerTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SITE = "edge-a";
    private static final String B1 = "device:backend:b1";

    /** The site's offload metrics with the switch's totals. */
    private static Map<String, LiveSite> site(long switchPackets, long switchBytes) {
        OffloadMetrics m = new OffloadMetrics(2, 1, new long[8], 0, Map.of(), switchPackets, switchBytes, 600);
        return Map.of(SITE, new LiveSite(m, List.of(B1)));
    }

    @Test
    public void eachPushCarriesTheSwitchsPacketsBesideTheBackends() throws Exception {
        LiveRecorder live = new LiveRecorder(1000, 10, 10);
        live.sample(1000, site(5, 5000), Map.of(B1, new long[]{3, 600}), Map.of());
        List<JsonNode> pushed = new ArrayList<>();
        HupfUiMessageHandler handler = new HupfUiMessageHandler(Runnable::run);
        handler.init(connection(pushed), directory(live, TestOffloadService.withSessions(2)));

        handler.process(MAPPER.createObjectNode().put("event", HupfUiMessageHandler.LIVE_START)
                                .set("payload", MAPPER.createObjectNode().put("after", 0).put("afterEvent", 0)));
        assertEquals("what was kept, at once", 1, pushed.size());
        JsonNode first = pushed.get(0).get("samples").get(0);
        assertEquals(5, first.get("switchPackets").asLong());
        assertEquals(5000, first.get("switchBytes").asLong());
        assertEquals(5, first.get("sites").get(SITE).get("switchPackets").asLong());
        assertEquals(3, first.get("backends").get(B1).get("packets").asLong());

        live.sample(2000, site(9, 9000), Map.of(B1, new long[]{4, 800}), Map.of());
        assertEquals("pushed after the next sample", 2, pushed.size());
        JsonNode next = pushed.get(1).get("samples");
        assertEquals("only the sample the view does not have", 1, next.size());
        assertEquals(9, next.get(0).get("switchPackets").asLong());
        assertEquals(9, next.get(0).get("sites").get(SITE).get("switchPackets").asLong());

        handler.process(MAPPER.createObjectNode().put("event", HupfUiMessageHandler.LIVE_STOP)
                                .set("payload", MAPPER.createObjectNode()));
        live.sample(3000, site(9, 9000), Map.of(B1, new long[]{4, 800}), Map.of());
        assertEquals("nothing once the view stopped", 2, pushed.size());
        assertEquals(0, live.listeners());
    }

    private static UiConnection connection(List<JsonNode> pushed) {
        return new UiConnection() {
            @Override
            public String userName() {
                return "onos";
            }

            @Override
            public UiTopoLayout currentLayout() {
                return null;
            }

            @Override
            public void setCurrentLayout(UiTopoLayout layout) {
            }

            @Override
            public String currentView() {
                return "hupf";
            }

            @Override
            public void setCurrentView(String viewId) {
            }

            @Override
            public void sendMessage(ObjectNode message) {
            }

            @Override
            public void sendMessage(String type, ObjectNode payload) {
                if (HupfUiMessageHandler.LIVE_PUSH.equals(type)) {
                    pushed.add(payload);
                }
            }
        };
    }

    private static ServiceDirectory directory(LiveService live, OffloadService offload) {
        Map<Class<?>, Object> services = Map.of(LiveService.class, live, OffloadService.class, offload,
                                                DeviceService.class, new DeviceServiceAdapter(),
                                                PiPipeconfService.class, new PiPipeconfServiceAdapter());
        return new ServiceDirectory() {
            @Override
            public <T> T get(Class<T> serviceClass) {
                return serviceClass.cast(services.get(serviceClass));
            }
        };
    }
}

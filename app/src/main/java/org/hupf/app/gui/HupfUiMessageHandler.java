package org.hupf.app.gui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.hupf.app.live.LiveService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.ui.RequestHandler;
import org.onosproject.ui.UiMessageHandler;

import java.util.Collection;
import java.util.List;

/**
 * The hupf view's server side (legacy GUI web socket): one page of the sessions, filtered (never all of them),
 * the samples for the charts since the view's last one, and the summary panels.
 */
final class HupfUiMessageHandler extends UiMessageHandler {

    static final String PAGE_REQ = "hupfSessionsPageRequest";
    static final String PAGE_RESP = "hupfSessionsPageResponse";
    static final String LIVE_REQ = "hupfLiveRequest";
    static final String LIVE_RESP = "hupfLiveResponse";
    static final String SUMMARY_REQ = "hupfSummaryRequest";
    static final String SUMMARY_RESP = "hupfSummaryResponse";

    @Override
    protected Collection<RequestHandler> createRequestHandlers() {
        return List.of(new PageHandler(), new LiveHandler(), new SummaryHandler());
    }

    private final class PageHandler extends RequestHandler {

        private PageHandler() {
            super(PAGE_REQ);
        }

        @Override
        public void process(ObjectNode payload) {
            ObjectNode root = objectNode();
            try {
                SessionPages.page(root, get(HupfService.class).sessions(), get(OffloadService.class),
                                  payload.path("filter").asText(""), payload.path("offset").asInt(0),
                                  payload.path("limit").asInt(50));
            } catch (IllegalArgumentException e) {
                root.put("error", e.getMessage());
            }
            sendMessage(PAGE_RESP, root);
        }
    }

    private final class LiveHandler extends RequestHandler {

        private LiveHandler() {
            super(LIVE_REQ);
        }

        @Override
        public void process(ObjectNode payload) {
            ObjectNode root = objectNode();
            get(LiveService.class).history(root, payload.path("after").asLong(0));
            sendMessage(LIVE_RESP, root);
        }
    }

    private final class SummaryHandler extends RequestHandler {

        private SummaryHandler() {
            super(SUMMARY_REQ);
        }

        @Override
        public void process(ObjectNode payload) {
            DeviceService devices = get(DeviceService.class);
            ObjectNode root = objectNode();
            HupfViewModel.summary(root, get(OffloadService.class), devices.getDevices(),
                                  get(PiPipeconfService.class)::ofDevice, devices::isAvailable);
            sendMessage(SUMMARY_RESP, root);
        }
    }
}

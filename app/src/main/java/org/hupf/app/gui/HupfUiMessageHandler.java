package org.hupf.app.gui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.HupfService;
import org.hupf.api.LiveService;
import org.hupf.api.OffloadService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.ui.RequestHandler;
import org.onosproject.ui.UiMessageHandler;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The hupf view's server side (legacy GUI web socket): one page of the sessions, filtered (never all of them),
 * and, while the view is open, what each offload poll left pushed to it: the new samples for the charts, the new
 * events of the stream and the summary panels.
 */
final class HupfUiMessageHandler extends UiMessageHandler {

    static final String PAGE_REQ = "hupfSessionsPageRequest";
    static final String PAGE_RESP = "hupfSessionsPageResponse";
    /** The view opened: {@code {after, afterEvent}}, what it has already (0, 0: nothing). */
    static final String LIVE_START = "hupfLiveStart";
    static final String LIVE_STOP = "hupfLiveStop";
    /** Pushed: {@code intervalMs}, {@code samples}, {@code events}, {@code summary}. */
    static final String LIVE_PUSH = "hupfLivePush";

    private final Executor pushes;
    private final Runnable onSample = this::schedulePush;
    /** The live service listened to while the view is open, else null. Taken without the handler's lock: the
     *  offload thread that tells the listeners must never wait for a push (a push waits for ONOS's services,
     *  which a stopping hupf holds while it waits for the offload thread). */
    private final AtomicReference<LiveService> listening = new AtomicReference<>();
    private long sentUntilMs;
    private long sentUntilSeq;

    /**
     * @param pushes where the pushes are sent from (not the poll's thread: a slow browser must not delay it)
     */
    HupfUiMessageHandler(Executor pushes) {
        this.pushes = pushes;
    }

    @Override
    protected Collection<RequestHandler> createRequestHandlers() {
        return List.of(new PageHandler(), new LiveStartHandler(), new LiveStopHandler());
    }

    @Override
    public void destroy() {
        stopListening();
        super.destroy();
    }

    private synchronized void startListening(long afterMs, long afterSeq) {
        sentUntilMs = afterMs;
        sentUntilSeq = afterSeq;
        // The service now: hupf may have been reinstalled since the view last asked (a silent view asks again).
        LiveService live = get(LiveService.class);
        if (live != listening.get()) {
            stopListening();
            live.addListener(onSample);
            listening.set(live);
        }
    }

    private void stopListening() {
        LiveService was = listening.getAndSet(null);
        if (was != null) {
            was.removeListener(onSample);
        }
    }

    private void schedulePush() {
        try {
            pushes.execute(this::push);
        } catch (RejectedExecutionException e) {
            stopListening();    // the view's component is stopping
        }
    }

    /** Sends what is new since the last push, if the view is still open. */
    private synchronized void push() {
        LiveService live = listening.get();
        if (live == null) {
            return;
        }
        ObjectNode root = objectNode();
        live.history(root, sentUntilMs);
        live.events(root, sentUntilSeq);
        int samples = root.get("samples").size();
        if (samples > 0) {
            sentUntilMs = root.get("samples").get(samples - 1).get("time").asLong();
        }
        int events = root.get("events").size();
        if (events > 0) {
            sentUntilSeq = root.get("events").get(events - 1).get("seq").asLong();
        }
        DeviceService devices = get(DeviceService.class);
        HupfViewModel.summary(root.putObject("summary"), get(OffloadService.class), devices.getDevices(),
                              get(PiPipeconfService.class)::ofDevice, devices::isAvailable);
        connection().sendMessage(LIVE_PUSH, root);
    }

    private final class PageHandler extends RequestHandler {

        private PageHandler() {
            super(PAGE_REQ);
        }

        @Override
        public void process(ObjectNode payload) {
            ObjectNode root = objectNode();
            try {
                HupfService hupf = get(HupfService.class);
                SessionPages.page(root, hupf.sessions(), hupf.siteLookup(), get(OffloadService.class),
                                  new SessionPages.Query(payload.path("filter").asText(""),
                                                         payload.path("site").asText(""),
                                                         payload.path("offset").asInt(0),
                                                         payload.path("limit").asInt(50)));
            } catch (IllegalArgumentException e) {
                root.put("error", e.getMessage());
            }
            sendMessage(PAGE_RESP, root);
        }
    }

    private final class LiveStartHandler extends RequestHandler {

        private LiveStartHandler() {
            super(LIVE_START);
        }

        @Override
        public void process(ObjectNode payload) {
            startListening(payload.path("after").asLong(0), payload.path("afterEvent").asLong(0));
            push();     // what was kept so far, without waiting for the next poll
        }
    }

    private final class LiveStopHandler extends RequestHandler {

        private LiveStopHandler() {
            super(LIVE_STOP);
        }

        @Override
        public void process(ObjectNode payload) {
            stopListening();
        }
    }
}

package org.hupf.app.gui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.ui.RequestHandler;
import org.onosproject.ui.UiMessageHandler;
import org.onosproject.ui.table.TableModel;
import org.onosproject.ui.table.TableRequestHandler;

import java.util.Collection;
import java.util.List;

/**
 * The hupf view's server side (legacy GUI web socket): the sessions table, and the summary the view asks for
 * after each table refresh.
 */
final class HupfUiMessageHandler extends UiMessageHandler {

    /** The view's table tag: the GUI's table builder derives the message and payload names from it. */
    static final String SESSIONS_TAG = "hupfSession";
    static final String SUMMARY_REQ = "hupfSummaryRequest";
    static final String SUMMARY_RESP = "hupfSummaryResponse";

    @Override
    protected Collection<RequestHandler> createRequestHandlers() {
        return List.of(new SessionsHandler(), new SummaryHandler());
    }

    private final class SessionsHandler extends TableRequestHandler {

        private SessionsHandler() {
            super(SESSIONS_TAG + "DataRequest", SESSIONS_TAG + "DataResponse", SESSIONS_TAG + "s");
        }

        @Override
        protected String[] getColumnIds() {
            return HupfViewModel.SESSION_COLUMNS;
        }

        @Override
        protected String noRowsMessage(ObjectNode payload) {
            return "No sessions";
        }

        @Override
        protected void populateTable(TableModel tm, ObjectNode payload) {
            HupfViewModel.populateSessions(tm, get(HupfService.class).sessions(), get(OffloadService.class));
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

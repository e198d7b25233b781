package org.hupf.app.gui;

import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiView;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The hupf view in ONOS's legacy web GUI (charts over time, the event stream, switch occupancy, devices,
 * sessions). The GUI is an optional ONOS app: the extension is registered when its service appears and hupf runs
 * without it.
 */
@Component(immediate = true)
public class HupfUiComponent {

    /** The view's id: its route (#/hupf), resource folder (app/view/hupf) and angular module (ovHupf). */
    static final String VIEW_ID = "hupf";
    private static final Logger log = LoggerFactory.getLogger(HupfUiComponent.class);
    private static final long PUSH_STOP_MS = 30_000;

    /** Sends the open views what each offload poll left (one thread for every view: a push is small). */
    private final ExecutorService pushes = Executors.newSingleThreadExecutor(r -> new Thread(r, "hupf-gui-push"));
    private final UiExtension extension = new UiExtension.Builder(
            HupfUiComponent.class.getClassLoader(), List.of(new UiView(UiView.Category.NETWORK, VIEW_ID, "hupf UPF")))
            .resourcePath(VIEW_ID)
            .messageHandlerFactory(() -> List.of(new HupfUiMessageHandler(pushes)))
            .build();
    private UiExtensionService registeredWith;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC, unbind = "unbindUi")
    protected synchronized void bindUi(UiExtensionService service) {
        service.register(extension);
        registeredWith = service;
        log.info("hupf view registered with the GUI");
    }

    protected synchronized void unbindUi(UiExtensionService service) {
        if (service == registeredWith) {
            service.unregister(extension);
            registeredWith = null;
        }
    }

    @Deactivate
    protected synchronized void deactivate() {
        if (registeredWith != null) {
            registeredWith.unregister(extension);
            registeredWith = null;
        }
        pushes.shutdownNow();
        try {
            // A push is one small web socket message: none outlives the component.
            if (!pushes.awaitTermination(PUSH_STOP_MS, TimeUnit.MILLISECONDS)) {
                log.error("hupf-gui-push still running {} ms after the view's component stopped", PUSH_STOP_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package org.hupf.core.session;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;

/**
 * A reconciliation reads the devices without holding the session manager: a session deleted during the read was
 * on the device when read and is gone from the store when diffed. Its removal is the deletion's own write; the
 * reconciliation must not remove it again (a device refuses a second removal NOT_FOUND).
 */
public class ReconciliationRaceTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final UpfEntityType LAST_READ = HupfTables.INSTALL_ORDER.get(HupfTables.INSTALL_ORDER.size() - 1);

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    /** Runs once, on the reconciliation's thread, when it has read every table but the last. */
    private volatile Runnable duringRead = () -> { };
    private final HupfUpfDevice reading = (HupfUpfDevice) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[]{HupfUpfDevice.class, BatchUpfDevice.class},
            (proxy, method, args) -> {
                if (method.getName().equals("readAll") && args[0] == LAST_READ) {
                    Runnable r = duringRead;
                    duringRead = () -> { };
                    r.run();
                }
                try {
                    return method.invoke(device, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    private final SessionManager manager = new SessionManager(
            new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10), new ResourcePool(1024, 1024),
            () -> List.of(reading), N3);

    private static PfcpSession draft(String ue) {
        Pdr uplink = new Pdr(1, 1, Pdr.ACCESS, null, null, true, null, Ip4Address.valueOf(ue), List.of(), null, 0,
                             null, 1L, List.of(), List.of());
        return new PfcpSession(0, 1, "10.0.0.1", "smf", Map.of(1, uplink),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null)), Map.of(), Map.of(),
                               Map.of());
    }

    @Test
    public void aSessionDeletedDuringTheReadIsNotRemovedTwice() throws Exception {
        manager.establish(draft("10.250.0.1"));
        PfcpSession deleted = manager.establish(draft("10.250.0.2"));
        duringRead = () -> {
            // Another thread, as a PFCP worker: the reconciliation holds no lock while it reads.
            CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
                try {
                    manager.delete(deleted.upSeid);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            done.orTimeout(60, TimeUnit.SECONDS).join();
        };
        assertEquals("nothing left to repair", 0, manager.reconcile());
        assertEquals("no write refused", 0, manager.deviceErrors());
        assertEquals("the other session's uplink stays", 1, device.entities(UpfEntityType.SESSION_UPLINK).size());
        assertEquals("and the device holds what the store implies", 0, manager.reconcile());
    }
}

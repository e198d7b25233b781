package org.hupf.core.session;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.dataplane.Tenant;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A UE address outside the UE pools and a Network Instance that is neither a tenant's nor served are refused
 * with cause 73, the rule and the Offending IE, nothing stored and nothing on the device.
 */
public class SessionInputCheckTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Ip4Address GNB = Ip4Address.valueOf("192.168.1.10");
    private static final Map<String, SessionTenant> TENANTS = Map.of(
            "tenant-a", new SessionTenant("tenant-a", new Tenant(5001, N3, 1, 0, 0), null));

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    private final SessionManager manager = new SessionManager(
            new InMemorySessionStore(),
            new SessionTranslator(N3, 0, Map.of(), 10, () -> TENANTS, Set.of("internet")),
            new ResourcePool(1024, 1024), () -> List.of(device), N3);

    @Before
    public void setUp() {
        manager.setInterfaces(Set.of(UpfInterface.builder().setPrefix(Ip4Prefix.valueOf(N3, 32)).setAccess().build(),
                                     UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("10.250.0.0/16")).setCore()
                                             .build()));
    }

    /** A downlink PDR for the UE, its FAR towards the gNB in a Network Instance. */
    private static PfcpSession session(String ue, String pdiInstance, String farInstance) {
        Pdr dl = new Pdr(1, 1, Pdr.CORE, null, null, false, null, Ip4Address.valueOf(ue), List.of(), null, null,
                         pdiInstance, 1L, List.of(), List.of());
        return new PfcpSession(0, 7, "10.0.0.1", "smf", Map.of(1, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.ACCESS, 0x200L, GNB, null, farInstance)),
                               Map.of(), Map.of(), Map.of());
    }

    private void assertRefused(PfcpSession s, int ruleType, int offendingIe, String reason) {
        try {
            manager.establish(s);
            fail("established " + s);
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            assertEquals(ruleType, e.ruleType());
            assertEquals(1, e.ruleId());
            assertEquals(offendingIe, e.offendingIe());
            assertEquals(reason, e.getMessage());
        }
        assertTrue(manager.store().all().isEmpty());
        assertTrue(device.entities(UpfEntityType.SESSION_DOWNLINK).isEmpty());
    }

    @Test
    public void aUeOutsideThePoolsIsRefused() {
        assertRefused(session("10.251.0.1", "internet", "tenant-a"), 0, RuleException.UE_IP_ADDRESS_IE,
                      "PDR 1: UE address 10.251.0.1 is outside the UE pools [10.250.0.0/16]");
    }

    @Test
    public void anUnknownNetworkInstanceIsRefusedOnAPdrOrAFar() {
        assertRefused(session("10.250.0.1", "intranet", null), 0, RuleException.NETWORK_INSTANCE_IE,
                      "PDR 1: unknown Network Instance 'intranet' (served: internet, tenant-a)");
        assertRefused(session("10.250.0.1", null, "tenant-z"), 1, RuleException.NETWORK_INSTANCE_IE,
                      "FAR 1: unknown Network Instance 'tenant-z' (served: internet, tenant-a)");
    }

    @Test
    public void aUeInThePoolWithServedInstancesIsTaken() throws Exception {
        manager.establish(session("10.250.0.1", "internet", "tenant-a"));
        assertEquals(1, device.entities(UpfEntityType.SESSION_DOWNLINK).size());
    }
}

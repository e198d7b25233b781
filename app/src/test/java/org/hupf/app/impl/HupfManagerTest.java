package org.hupf.app.impl;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.api.TenantStatus;
import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.SessionJson;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.pfcp.PfcpAgent;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onlab.packet.Ip4Address;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.provider.ProviderId;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The ONOS component with ONOS's services mocked at the boundary: configuration, the distributed
 * store, and reconciliation when a device comes back.
 */
public class HupfManagerTest extends HupfManagerFixture {

    @Test
    public void periodicReconciliationPausesNineTimesItsDuration() {
        assertEquals(109_000, HupfManager.reconcileDueAfter(100_000, 1_000));
        assertEquals("a slow read of every table waits longer", 190_000,
                     HupfManager.reconcileDueAfter(100_000, 10_000));
        assertEquals(100_000, HupfManager.reconcileDueAfter(100_000, -5));
    }

    @Test
    public void configuredManagerInstallsInterfacesAndSessions() throws Exception {
        assertEquals(2, device.entities(UpfEntityType.INTERFACE).size());
        JsonNode json = MAPPER.readTree(SESSION);
        PfcpSession s = manager.createSession(SessionJson.decode(json));
        assertEquals(s, manager.session(s.upSeid));
        assertTrue(device.entities(UpfEntityType.SESSION_DOWNLINK).get(0).toString().contains("needsBuffering=true"));
        assertEquals("10.250.0.0/16", manager.uePools().get(0).toString());
        assertEquals(1L, (long) manager.stats().get("sessions"));
    }

    @Test
    public void returningDeviceIsReconciled() throws Exception {
        manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        Device d = new DefaultDevice(new ProviderId("p4runtime", "test"), DeviceId.deviceId("device:backend:b1"),
                                     Device.Type.OTHER, "hupf", "1", "1", "1", new ChassisId());
        deviceListener.getValue().event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, d));
        eventually("device reconciled", () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1
                && device.entities(UpfEntityType.INTERFACE).size() == 2);
    }

    @Test
    public void counterCellsAreLimitedByTheSmallestDevice() throws Exception {
        InMemoryUpfDevice small = new InMemoryUpfDevice("switch", 3);
        manager.deviceSource = new FixedDeviceSource(device, small);
        for (int i = 0; i < 2; i++) {
            manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION.replace("10.250.0.4", "10.250.0.1" + i)
                                                                             .replace("\"cpSeid\": 5", "\"cpSeid\": " + i))));
        }
        try {
            manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
            fail("a third counter cell on a 3-cell device (cell 0 is reserved)");
        } catch (RuleException e) {
            assertEquals(Cause.NO_RESOURCES_AVAILABLE, e.cause());
        }
    }

    @Test
    public void onlyTheLeaderRunsTheCoreAndANewLeaderPutsTheStoreBack() throws Exception {
        PfcpSession s = manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        leadership.electAndTell(new NodeId("onos-2"), 2);
        eventually("standing by", () -> manager.uePools().isEmpty());
        assertEquals(s, manager.session(s.upSeid));
        try {
            manager.deleteSession(s.upSeid);
            fail("a follower wrote");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().startsWith("hupf is not running here"));
        }
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        leadership.electAndTell(LOCAL, 3);
        eventually("leading and reconciled", () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1);
        assertTrue(manager.deleteSession(s.upSeid));
    }

    /**
     * The devices' counter polls tell the running PFCP agent which UEs' usage changed, so that it checks their
     * volume thresholds only (not every session against a read of every cell); a node standing by feeds nothing.
     */
    @Test
    public void theCounterPollsFeedTheRunningAgentOnly() throws Exception {
        FixedDeviceSource source = (FixedDeviceSource) manager.deviceSource;
        eventually("configured", () -> manager.agent() != null);
        assertNotNull("the agent takes the polls' usage changes", source.usageFeed);
        leadership.electAndTell(new NodeId("onos-2"), 2);
        eventually("standing by, fed nothing", () -> manager.agent() == null && source.usageFeed == null);
        leadership.electAndTell(LOCAL, 3);
        eventually("leading again, the new agent fed", () -> manager.agent() != null && source.usageFeed != null);
    }

    /**
     * Routes, steering or the offload policy changed in the netcfg: the PFCP agent, its associations and its
     * Recovery Time Stamp go on (a new one would tell the SMFs the UPF restarted); a PFCP change restarts it.
     */
    @Test
    public void onlyTheCoresOwnFieldsRestartIt() throws Exception {
        eventually("configured", () -> manager.agent() != null);
        PfcpAgent first = manager.agent();
        configChanged(CONFIG.replace("\"uePools\"", "\"offload\": {\"holdMs\": 5000}, \"routes\": [{\"deviceId\":"
                + " \"device:backend:b1\", \"prefix\": \"10.9.9.0/24\", \"port\": 2, \"srcMac\": \"00:00:00:00:00:01\","
                + " \"dstMac\": \"00:00:00:00:00:02\"}], \"uePools\""));
        assertTrue(config.error(), config.isValid());
        manager.refresh();
        assertSame(first, manager.agent());
        configChanged(CONFIG.replace("\"port\": 0", "\"port\": 0, \"heartbeatIntervalMs\": 20000"));
        eventually("a new PFCP agent", () -> manager.agent() != null && manager.agent() != first);
    }

    @Test
    public void invalidConfigStopsServiceButKeepsSessions() throws Exception {
        PfcpSession s = manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        config = config(CONFIG.replace("\"uePools\": [\"10.250.0.0/16\"],", ""));
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
        eventually("unconfigured", () -> manager.uePools().isEmpty());
        try {
            manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
            fail("created while unconfigured");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().startsWith("hupf is not running here"));
        }
        assertEquals(s, manager.session(s.upSeid));
        config = config(CONFIG);
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
        eventually("reconfigured", () -> !manager.uePools().isEmpty());
        assertEquals(1, manager.sessionCounters(s.upSeid).size());
    }

    /**
     * A leader the elector replaced without telling it (its Atomix session expired under load): its periodic
     * check finds the other node's term and it stops serving PFCP and writing devices.
     */
    @Test
    public void aLeaderReplacedWithoutAnEventStandsDown() throws Exception {
        PfcpSession s = manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        leadership.elect(new NodeId("onos-2"), 2);
        eventually("standing by within a lease check", () -> manager.uePools().isEmpty());
        try {
            manager.deleteSession(s.upSeid);
            fail("a replaced leader wrote");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().startsWith("hupf is not running here"));
        }
        // Elected again, still without an event: the check finds that too, and the store is put back.
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        leadership.elect(LOCAL, 3);
        eventually("leading again and reconciled", () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1);
    }

    /** A disrupted elector service (this node's Atomix session suspended): the leader stands by until it is back. */
    @Test
    public void aDisruptedElectorStandsTheLeaderDownUntilRestored() throws Exception {
        leadership.tell(LeadershipEvent.Type.SERVICE_DISRUPTED);
        eventually("standing by while disrupted", () -> manager.uePools().isEmpty());
        leadership.tell(LeadershipEvent.Type.SERVICE_RESTORED);
        eventually("leading once restored", () -> !manager.uePools().isEmpty());
    }

    /** An elector that stops answering stands the leader down (LeaderLeaseTest: after two checks). */
    @Test
    public void anElectorThatDoesNotAnswerStandsTheLeaderDown() throws Exception {
        leadership.unanswered(true);
        eventually("standing by after two", () -> manager.uePools().isEmpty());
        leadership.unanswered(false);
        eventually("leading once it answers", () -> !manager.uePools().isEmpty());
    }

    /** A rule naming a Network Instance neither the netcfg's networkInstances nor a tenant's is refused (cause 73). */
    @Test
    public void anUnknownNetworkInstanceIsRefusedAsTheNetcfgSays() throws Exception {
        configChanged(CONFIG.replace("]}}", "]}, \"networkInstances\": [\"internet\", \"ims\"]}"));
        assertTrue(config.error(), config.isValid());
        manager.refresh();
        String named = SESSION.replace("\"ueIpAddress\"", "\"networkInstance\": \"NAME\", \"ueIpAddress\"");
        manager.createSession(SessionJson.decode(MAPPER.readTree(named.replace("NAME", "ims"))));
        try {
            manager.createSession(SessionJson.decode(MAPPER.readTree(
                    named.replace("NAME", "enterprise").replace("10.250.0.4", "10.250.0.5"))));
            fail("an unknown Network Instance was taken");
        } catch (RuleException e) {
            assertEquals(73, e.cause());
            assertTrue(e.getMessage(), e.getMessage().contains("unknown Network Instance 'enterprise'"));
        }
        assertEquals(1, manager.sessions().size());
    }

    /**
     * The netcfg's tenants bind the next sessions without restarting the core, and GET /tenants' service reports
     * each tenant with its bound sessions and the counter the devices hold at its id, and each of its slices with
     * the counter cell of its (tenant id, QFI), read by cell.
     */
    @Test
    public void tenantsBindSessionsAndReportTheirCounters() throws Exception {
        configChanged(CONFIG.replace("]}}", "]}, \"tenants\": [{\"vni\": 100, \"vtep\": \"192.168.100.1\","
                + " \"tenantId\": 1, \"tc\": 2, \"dscp\": 46, \"networkInstance\": \"tenant-a\", \"overlay\":"
                + " {\"vtepSrc\": \"192.168.100.1\", \"vtepDst\": \"172.16.0.2\","
                + " \"innerSrcMac\": \"02:00:00:00:0a:01\","
                + " \"innerDstMac\": \"02:00:00:00:0a:02\"}, \"slices\": [{\"qfi\": 9, \"tc\": 3, \"dscp\": 34}]}]}"));
        assertTrue(config.error(), config.isValid());
        // The listener's refresh runs on the manager's thread: this one settles the netcfg before the session.
        manager.refresh();
        manager.createSession(SessionJson.decode(MAPPER.readTree(
                SESSION.replace("[\"BUFF\"]", "[\"FORW\"], \"forwardingParameters\": {\"destinationInterface\":"
                        + " \"ACCESS\", \"networkInstance\": \"tenant-a\", \"outerHeaderCreation\":"
                        + " {\"teid\": 9, \"ipv4\": \"192.168.1.10\"}}"))));
        assertEquals("the gNB sits in tenant-a's overlay", 1, device.count(UpfEntityType.PEER_VXLAN));

        HupfDataplaneConfig dataplane = createNiceMock(HupfDataplaneConfig.class);
        expect(dataplane.readTenantCounters()).andReturn(Map.of(1, new long[]{10, 1500})).anyTimes();
        expect(dataplane.readSliceCounters(Set.of(64L + 9))).andReturn(Map.of(64L + 9, new long[]{4, 600})).anyTimes();
        Device b1 = createNiceMock(Device.class);
        expect(b1.is(HupfDataplaneConfig.class)).andReturn(true).anyTimes();
        expect(b1.as(HupfDataplaneConfig.class)).andReturn(dataplane).anyTimes();
        DeviceService devices = createNiceMock(DeviceService.class);
        expect(devices.getDevice(DeviceId.deviceId("device:backend:b1"))).andReturn(b1).anyTimes();
        replay(dataplane, b1, devices);
        manager.deviceService = devices;
        List<TenantStatus> tenants = manager.tenants();
        assertEquals(1, tenants.size());
        TenantStatus t = tenants.get(0);
        assertEquals("tenant-a", t.networkInstance);
        assertEquals(1, t.sessions);
        assertEquals(Ip4Address.valueOf("172.16.0.2"), t.overlay.vtepDst);
        assertEquals(10, t.counters.get("device:backend:b1").packets);
        assertEquals(1500, t.counters.get("device:backend:b1").bytes);
        assertEquals(4, t.sliceCounters.get(9).get("device:backend:b1").packets);
        assertEquals(600, t.sliceCounters.get(9).get("device:backend:b1").bytes);
    }
}

package org.hupf.pipeconf.behaviour;

import org.easymock.Capture;
import org.easymock.CaptureType;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.gnb.GnbConstants;
import org.hupf.pipeconf.gnb.GnbPipeconf;
import org.junit.Test;
import org.onosproject.net.flow.FlowRuleProgrammable;
import org.onosproject.net.group.GroupProgrammable;
import org.onosproject.net.meter.MeterProgrammable;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.driver.Driver;
import org.onosproject.net.driver.DriverAdminService;
import org.onosproject.net.driver.DriverProvider;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.service.PiPipeconfService;

import java.io.InputStream;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.verify;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_HH_TAU_TABLE;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The loader registers the packaged pipeconfs with a (mocked) PiPipeconfService and unregisters them: bmv2 and
 * the backend, the hw pipeline for Tofino 1 and Tofino 2, whose artifacts are committed (docs/TOFINO.md), and the
 * gNB program on bmv2.
 */
public class PipeconfLoaderTest {

    @Test
    public void registersTheTargetsWithTheirArtifactsAndBehaviours() throws Exception {
        PiPipeconfService service = createMock(PiPipeconfService.class);
        Capture<PiPipeconf> registered = newCapture(CaptureType.ALL);
        service.register(capture(registered));
        expectLastCall().times(5);
        service.unregister(HupfPipeconfIds.BMV2);
        service.unregister(HupfPipeconfIds.BACKEND);
        service.unregister(HupfPipeconfIds.TOFINO);
        service.unregister(HupfPipeconfIds.TOFINO2);
        service.unregister(GnbPipeconf.ID);
        replay(service);

        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.driverAdminService = drivers(Set.of());
        loader.activate();
        Map<String, PiPipeconf> byId = registered.getValues().stream()
                .collect(Collectors.toMap(p -> p.id().id(), p -> p));
        assertEquals(5, byId.size());

        PiPipeconf bmv2 = byId.get(HupfPipeconfIds.BMV2.id());
        PiPipeconf backend = byId.get(HupfPipeconfIds.BACKEND.id());
        for (PiPipeconf p : new PiPipeconf[]{bmv2, backend}) {
            assertTrue(p.extension(PiPipeconf.ExtensionType.P4_INFO_TEXT).isPresent());
            assertTrue(p.extension(PiPipeconf.ExtensionType.BMV2_JSON).isPresent());
            assertTrue(p.hasBehaviour(PiPipelineInterpreter.class));
            assertTrue(p.hasBehaviour(Pipeliner.class));
            assertTrue(p.hasBehaviour(HupfUpf.class));
            assertEquals("ONOS's meter subsystem stays off hupf's meter cells", HupfMeters.class,
                         p.implementation(MeterProgrammable.class).orElseThrow());
            assertEquals("ONOS's group audit stays off hupf's action profiles", HupfGroups.class,
                         p.implementation(GroupProgrammable.class).orElseThrow());
        }
        assertEquals("the backend's entries are written in P4Runtime batches", HupfBackendUpf.class,
                     backend.implementation(HupfUpf.class).orElseThrow());
        assertEquals("and are no ONOS flow rules", HupfBackendFlowRules.class,
                     backend.implementation(FlowRuleProgrammable.class).orElseThrow());
        assertEquals("the switch's are", HupfUpfProgrammable.class, bmv2.implementation(HupfUpf.class).orElseThrow());
        assertFalse(bmv2.hasBehaviour(FlowRuleProgrammable.class));
        assertTrue("hw carries HK-IPG", bmv2.pipelineModel().table(HUPF_INGRESS_HH_TAU_TABLE).isPresent());
        assertFalse("sw does not", backend.pipelineModel().table(HUPF_INGRESS_HH_TAU_TABLE).isPresent());
        assertTrue(bmv2.hasBehaviour(HupfDataplaneConfig.class));
        assertTrue(backend.hasBehaviour(HupfDataplaneConfig.class));

        // Tofino 1 and 2: the hw behaviours, the binary bfas made for the target, its context and its CPU port.
        for (Map.Entry<PiPipeconfId, String> target : Map.of(HupfPipeconfIds.TOFINO, "tofino",
                                                              HupfPipeconfIds.TOFINO2, "tofino2").entrySet()) {
            assertTofinoPipeconf(byId.get(target.getKey().id()), target.getValue());
        }

        PiPipeconf gnb = byId.get(GnbPipeconf.ID.id());
        assertTrue(gnb.extension(PiPipeconf.ExtensionType.BMV2_JSON).isPresent());
        assertTrue(gnb.pipelineModel().table(GnbConstants.HUPF_GNB_INGRESS_DL_UES).isPresent());
        assertFalse("no packets to or from the controller", gnb.hasBehaviour(PiPipelineInterpreter.class));

        loader.deactivate();
        verify(service);
    }

    /** A provider of drivers with these names, as ONOS's PiPipeconfManager registers one per merged driver. */
    private static DriverProvider provider(String... names) {
        Set<Driver> drivers = new java.util.HashSet<>();
        for (String name : names) {
            Driver d = createMock(Driver.class);
            expect(d.name()).andReturn(name).anyTimes();
            replay(d);
            drivers.add(d);
        }
        DriverProvider p = createMock(DriverProvider.class);
        expect(p.getDrivers()).andReturn(drivers).anyTimes();
        replay(p);
        return p;
    }

    /** A driver admin service holding these providers, expecting the unregistration of the given ones only. */
    private static DriverAdminService drivers(Set<DriverProvider> providers, DriverProvider... unregistered) {
        DriverAdminService admin = createMock(DriverAdminService.class);
        expect(admin.getProviders()).andReturn(providers).anyTimes();
        for (DriverProvider p : unregistered) {
            admin.unregisterProvider(p);
        }
        replay(admin);
        return admin;
    }

    @Test
    public void stoppingTakesTheDriversOnosMergedForItsPipeconfs() {
        PiPipeconfService service = createMock(PiPipeconfService.class);
        service.register(org.easymock.EasyMock.anyObject());
        expectLastCall().times(5);
        service.unregister(org.easymock.EasyMock.anyObject());
        expectLastCall().times(5);
        replay(service);
        DriverProvider backend = provider("bmv2:" + HupfPipeconfIds.BACKEND.id());
        DriverProvider sw = provider("stratum-bmv2:" + HupfPipeconfIds.BMV2.id());
        DriverProvider base = provider("bmv2", "stratum-bmv2");
        DriverProvider otherPipeconf = provider("bmv2:org.onosproject.pipelines.basic");
        // org.hupf.tofino's suffix is a prefix of org.hupf.tofino2's: a driver merged for a pipeconf named
        // org.hupf.tofino2x is not hupf's.
        DriverProvider lookalike = provider("tofino:" + HupfPipeconfIds.TOFINO2.id() + "x");
        DriverAdminService admin = drivers(Set.of(backend, sw, base, otherPipeconf, lookalike), backend, sw);

        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.driverAdminService = admin;
        loader.activate();
        loader.deactivate();
        verify(service, admin);
    }

    private static void assertTofinoPipeconf(PiPipeconf tofino, String target) throws Exception {
        assertEquals(target, HupfUpfProgrammable.class, tofino.implementation(HupfUpf.class).orElseThrow());
        assertTrue(target, tofino.hasBehaviour(HupfDataplaneConfig.class));
        assertTrue(target, tofino.pipelineModel().table(HUPF_INGRESS_HH_TAU_TABLE).isPresent());
        assertFalse(target, tofino.extension(PiPipeconf.ExtensionType.BMV2_JSON).isPresent());
        String dir = PipeconfLoader.P4C_OUT + "hw/" + target + "/";
        for (Map.Entry<PiPipeconf.ExtensionType, String> e : Map.of(
                PiPipeconf.ExtensionType.P4_INFO_TEXT, "p4info.txt",
                PiPipeconf.ExtensionType.CPU_PORT_TXT, "cpu_port.txt").entrySet()) {
            try (InputStream packaged = PipeconfLoader.class.getResourceAsStream(dir + e.getValue());
                 InputStream extension = tofino.extension(e.getKey()).orElseThrow()) {
                assertArrayEquals(dir + e.getValue(), packaged.readAllBytes(), extension.readAllBytes());
            }
        }
        // The binary and the context are packaged gzipped and handed to ONOS inflated: what bfas wrote.
        for (Map.Entry<PiPipeconf.ExtensionType, String> e : Map.of(
                PiPipeconf.ExtensionType.TOFINO_BIN, target + ".bin",
                PiPipeconf.ExtensionType.TOFINO_CONTEXT_JSON, "context.json").entrySet()) {
            try (InputStream packaged = new GZIPInputStream(
                         PipeconfLoader.class.getResourceAsStream(dir + e.getValue() + ".gz"));
                 InputStream extension = tofino.extension(e.getKey()).orElseThrow()) {
                byte[] inflated = extension.readAllBytes();
                assertArrayEquals(dir + e.getValue(), packaged.readAllBytes(), inflated);
                assertTrue(dir + e.getValue() + " inflated", inflated.length > 1_000_000);
            }
        }
        try (InputStream context = tofino.extension(PiPipeconf.ExtensionType.TOFINO_CONTEXT_JSON).orElseThrow()) {
            assertEquals("the context is bfas's JSON", '{', context.read());
        }
    }
}

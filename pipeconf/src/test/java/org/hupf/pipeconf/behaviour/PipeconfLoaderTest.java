package org.hupf.pipeconf.behaviour;

import org.easymock.Capture;
import org.easymock.CaptureType;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.HupfUpf;
import org.junit.Test;
import org.onosproject.net.flow.FlowRuleProgrammable;
import org.onosproject.net.group.GroupProgrammable;
import org.onosproject.net.meter.MeterProgrammable;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.service.PiPipeconfService;

import java.util.Map;
import java.util.stream.Collectors;

import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.verify;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_HH_TAU_TABLE;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The loader registers the packaged pipeconfs with a (mocked) PiPipeconfService and unregisters them.
 */
public class PipeconfLoaderTest {

    @Test
    public void registersBmv2AndBackendWithTheirArtifactsAndBehaviours() {
        PiPipeconfService service = createMock(PiPipeconfService.class);
        Capture<PiPipeconf> registered = newCapture(CaptureType.ALL);
        service.register(capture(registered));
        expectLastCall().times(2);
        service.unregister(HupfPipeconfIds.BMV2);
        service.unregister(HupfPipeconfIds.BACKEND);
        replay(service);

        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.activate();
        Map<String, PiPipeconf> byId = registered.getValues().stream()
                .collect(Collectors.toMap(p -> p.id().id(), p -> p));
        assertEquals("Tofino artifacts are not packaged", 2, byId.size());

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

        loader.deactivate();
        verify(service);
    }
}

package org.hupf.app.offload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.easymock.Capture;
import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.junit.Test;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import java.io.File;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createStrictMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.verify;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** The switch gets from hupf's netcfg what the lab runner programs: steering to backends and HK-IPG. */
public class SwitchDataplaneTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DeviceId B1 = DeviceId.deviceId("device:backend:b1");
    private static final DeviceId B2 = DeviceId.deviceId("device:backend:b2");

    private static HupfConfig hybridExample() throws Exception {
        return withRps(null);
    }

    /** The hybrid example, with this rps block (JSON) or none. */
    private static HupfConfig withRps(String rps) throws Exception {
        ObjectNode node = (ObjectNode) MAPPER.readTree(new File("../netcfg/hupf-bmv2-backend.json"))
                .path("apps").path("org.hupf.app").path(HupfConfig.KEY).deepCopy();
        if (rps != null) {
            node.set("rps", MAPPER.readTree(rps));
        }
        HupfConfig c = new HupfConfig();
        c.init(new DefaultApplicationId(1, "org.hupf.app"), HupfConfig.KEY, node, MAPPER, null);
        assertTrue(c.error(), c.isValid());
        return c;
    }

    @Test
    public void theSwitchGetsItsWeightedBackendsAndHkIpgFromTheNetcfg() throws Exception {
        HupfDataplaneConfig dp = createStrictMock(HupfDataplaneConfig.class);
        List<Backend> backends = List.of(new Backend(5, MacAddress.valueOf("00:00:00:00:0b:01")),
                                         new Backend(6, MacAddress.valueOf("00:00:00:00:0b:02"), 2));
        Capture<HhConfig> hh = newCapture();
        dp.setBackendPorts(List.of(5L, 6L));
        dp.setBackends(0, backends);
        dp.configureHh(capture(hh));
        expectLastCall();
        replay(dp);
        assertEquals(backends, SwitchDataplane.program(dp, DeviceId.deviceId("device:bmv2:s1"), hybridExample(),
                                                       Set.of(B1, B2)));
        verify(dp);
        assertEquals(1850, hh.getValue().tauTh());
        assertEquals(10_000_000L, hh.getValue().hhBps());
        assertEquals(16384L, hh.getValue().timeslotUs());
        assertEquals(HupfConstants.HH_KEY_UE_ADDR, hh.getValue().keyMode());
    }

    @Test
    public void anotherSwitchGetsNoneOfTheseBackends() throws Exception {
        HupfDataplaneConfig dp = createStrictMock(HupfDataplaneConfig.class);
        dp.setBackendPorts(List.of());
        dp.setBackends(0, List.of());
        dp.configureHh(capture(newCapture()));
        replay(dp);
        assertEquals(List.of(), SwitchDataplane.program(dp, DeviceId.deviceId("device:bmv2:s9"), hybridExample(),
                                                        Set.of(B1, B2)));
        verify(dp);
    }

    /** A backend that is gone leaves the steering (its UEs go to the others), not the switch's backend ports. */
    @Test
    public void onlyLiveBackendsAreSteeredTo() throws Exception {
        HupfDataplaneConfig dp = createStrictMock(HupfDataplaneConfig.class);
        List<Backend> survivor = List.of(new Backend(6, MacAddress.valueOf("00:00:00:00:0b:02"), 2));
        dp.setBackendPorts(List.of(5L, 6L));
        dp.setBackends(0, survivor);
        dp.configureHh(capture(newCapture()));
        replay(dp);
        assertEquals(survivor, SwitchDataplane.program(dp, DeviceId.deviceId("device:bmv2:s1"), hybridExample(),
                                                       Set.of(B2)));
        verify(dp);
    }

    @Test
    public void rpsIsWrittenOnlyOnceABlockAskedForItAndOffWhenItGoes() throws Exception {
        HupfConfig on = withRps("{\"mode\": \"DATA_PLANE\", \"monitor\": \"127.0.0.1:9700\", \"flows\": [{\"tenant\": "
                                        + "\"t\", \"uePrefix\": \"10.250.0.0/16\", \"direction\": \"uplink\", "
                                        + "\"flowId\": 1, \"discThreshold\": 1000}]}");
        HupfDataplaneConfig dp = createStrictMock(HupfDataplaneConfig.class);
        replay(dp);
        assertNull("no block, nothing written: no call at all", SwitchDataplane.programRps(dp, withRps(null), null));
        verify(dp);

        dp = createStrictMock(HupfDataplaneConfig.class);
        expect(dp.setRps(on.rps().config())).andReturn(2);
        expect(dp.setRps(RpsConfig.OFF)).andReturn(2);
        replay(dp);
        RpsConfig written = SwitchDataplane.programRps(dp, on, null);
        assertEquals(on.rps().config(), written);
        assertEquals("the block gone: RPS off", RpsConfig.OFF, SwitchDataplane.programRps(dp, withRps(null), written));
        verify(dp);
    }

    /** The warnings are the settings' for the switch's own sizes; a pipeline without RPS has none. */
    @Test
    public void rpsWarningsAreTheSettingsForTheSwitchsTracker() throws Exception {
        // δ = 2^-6: a receipt of the whole 4096-receipt buffer sees 65 disclosures of its flow alone.
        HupfConfig cfg = withRps("{\"mode\": \"DATA_PLANE\", \"monitor\": \"127.0.0.1:9700\", \"flows\": [{\"tenant\": "
                                         + "\"t\", \"uePrefix\": \"10.250.0.0/16\", \"direction\": \"uplink\", "
                                         + "\"flowId\": 1, \"discThreshold\": 67108864}]}");
        long[][] none = new long[2][8];
        HupfDataplaneConfig dp = createStrictMock(HupfDataplaneConfig.class);
        expect(dp.readRps()).andReturn(Optional.of(new RpsState(4096, 256, 64, none)));
        expect(dp.readRps()).andReturn(Optional.of(new RpsState(4096, 256, 128, none)));
        expect(dp.readRps()).andReturn(Optional.empty());
        replay(dp);
        assertEquals(cfg.rps().trackerWarnings(4096, 64), SwitchDataplane.rpsWarnings(dp, cfg));
        assertEquals(1, cfg.rps().trackerWarnings(4096, 64).size());
        assertEquals("a tracker of 128 follows it", List.of(), SwitchDataplane.rpsWarnings(dp, cfg));
        assertEquals(List.of(), SwitchDataplane.rpsWarnings(dp, cfg));
        verify(dp);
    }
}

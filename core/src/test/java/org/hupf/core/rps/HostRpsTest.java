package org.hupf.core.rps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.junit.Test;

import java.util.List;

import static org.hupf.pipeconf.packet.RpsReceipt.KIND_DELAYED;
import static org.hupf.pipeconf.packet.RpsReceipt.KIND_DIRECT;
import static org.hupf.pipeconf.packet.RpsReceipt.KIND_RECEIPT;
import static org.hupf.pipeconf.packet.RpsReceipt.POINT_IN;
import static org.hupf.pipeconf.packet.RpsReceipt.POINT_OUT;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

public class HostRpsTest {

    /** Flow 1: direct below 42949673 (1 %), every candidate selected (sigma 1), quiet time 0. */
    private static RpsSettings settings(String mode) {
        ObjectNode n = RpsSettingsTest.valid().put("mode", mode).put("sigma", 1.0).put("quietUs", 0);
        return RpsSettings.parse(n);
    }

    @Test
    public void eachDeviceAndPointRunsItsOwnReferenceAlgorithm() {
        HostRps host = new HostRps(settings("HYBRID"));
        RpsReceipt in = new RpsReceipt(POINT_IN, KIND_RECEIPT, 1, 0x80000000L, 10, 0);
        RpsReceipt out = new RpsReceipt(POINT_OUT, KIND_RECEIPT, 1, 0x80000000L, 30, 0);
        assertTrue(host.apply(0, in).isEmpty());
        assertTrue(host.apply(0, out).isEmpty());
        assertTrue(host.apply(1, in).isEmpty());
        // A disclosure at OUT of device 0 judges OUT's receipt only.
        RpsReceipt d = new RpsReceipt(POINT_OUT, KIND_RECEIPT, 1, 5, 40, 0);
        assertEquals(List.of(d.as(KIND_DIRECT, 0), out.as(KIND_DELAYED, 0)), host.apply(0, d));
        RpsReceipt dIn = new RpsReceipt(POINT_IN, KIND_RECEIPT, 1, 5, 20, 0);
        assertEquals(List.of(dIn.as(KIND_DIRECT, 0), in.as(KIND_DELAYED, 0)), host.apply(1, dIn));
    }

    @Test
    public void theDataPlanesDisclosuresGoThroughAndReceiptsWithoutTheAlgorithmAreCounted() {
        HostRps host = new HostRps(settings("DATA_PLANE"));
        RpsReceipt direct = new RpsReceipt(POINT_IN, KIND_DIRECT, 1, 5, 20, 3);
        assertEquals(List.of(direct), host.apply(0, direct));
        assertTrue(host.apply(0, direct.as(KIND_RECEIPT, 0)).isEmpty());
        assertEquals(1, host.receiptsNotRun());
    }
}

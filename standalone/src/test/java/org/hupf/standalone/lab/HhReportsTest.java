package org.hupf.standalone.lab;

import com.google.protobuf.ByteString;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.rps.RpsIntake;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.packet.HhReport;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.junit.Before;
import org.junit.Test;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Preamble;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketMetadata;

import java.nio.ByteBuffer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

public class HhReportsTest {

    private static final int REASON_ID = 3;
    private final InMemoryUpfDevice backend = new InMemoryUpfDevice("backend", 1000, 2000, 100);
    private final InMemoryUpfDevice hw = new InMemoryUpfDevice("switch", 10, 20, 10);
    private OffloadManager manager;
    private HhReports reports;
    /** No rps block: records are taken and counted as not exported. */
    private final RpsIntake rps = new RpsIntake();

    @Before
    public void setUp() throws Exception {
        manager = new OffloadManager(backend, hw, OffloadPolicy.builder().confirmReports(false).build(),
                                     System::currentTimeMillis);
        manager.put(ScaleSimulation.session(0));
        P4Info info = P4Info.newBuilder().addControllerPacketMetadata(ControllerPacketMetadata.newBuilder()
                .setPreamble(Preamble.newBuilder().setName("packet_in"))
                .addMetadata(ControllerPacketMetadata.Metadata.newBuilder().setId(1).setName("ingress_port"))
                .addMetadata(ControllerPacketMetadata.Metadata.newBuilder().setId(REASON_ID)
                                     .setName(HupfConstants.PKT_META_REASON.id()))).build();
        reports = new HhReports(null, info, manager, rps);
    }

    private static PacketIn packetIn(int reason, byte[] payload) {
        return PacketIn.newBuilder().setPayload(ByteString.copyFrom(payload))
                .addMetadata(PacketMetadata.newBuilder().setMetadataId(REASON_ID)
                                     .setValue(ByteString.copyFrom(new byte[]{(byte) reason}))).build();
    }

    private static byte[] report(int flowKey) {
        return ByteBuffer.allocate(12 + 20).putInt(flowKey).putInt(900).putShort((short) 1900).array();
    }

    @Test
    public void aReportOffloadsTheUeItNames() {
        reports.handle(packetIn(HupfConstants.PKTIN_HH_REPORT, report(ScaleSimulation.ue(0).toInt())));
        assertTrue(manager.isOffloaded(ScaleSimulation.ue(0)));
        assertEquals(1, reports.reports.get());
    }

    @Test
    public void otherReasonsAndShortReportsAreCountedNotActedOn() {
        reports.handle(packetIn(HupfConstants.PKTIN_HH_REPORT + 1, report(ScaleSimulation.ue(0).toInt())));
        reports.handle(packetIn(HupfConstants.PKTIN_HH_REPORT, new byte[7]));
        assertEquals(1, reports.otherReasons.get());
        assertEquals(1, reports.malformed.get());
        assertEquals(0, manager.metrics().hhReports());
    }

    @Test(expected = IllegalArgumentException.class)
    public void aP4InfoWithoutTheReasonFieldIsRefused() {
        new HhReports(null, P4Info.getDefaultInstance(), manager, rps);
    }

    private static byte[] receipt() {
        ByteBuffer b = ByteBuffer.allocate(RpsReceipt.LENGTH);
        new RpsReceipt(RpsReceipt.POINT_IN, RpsReceipt.KIND_DIRECT, 1, 5, 6, 0).write(b);
        return b.array();
    }

    @Test
    public void rpsRecordsGoToTheIntakeAlsoWhenTheyRideAReport() {
        reports.handle(packetIn(HupfConstants.PKTIN_RPS, receipt()));
        byte[] report = report(ScaleSimulation.ue(0).toInt());
        report[HhReport.FLAGS_OFFSET] = (byte) HupfConstants.HH_FLAG_RPS;
        byte[] both = ByteBuffer.allocate(report.length + RpsReceipt.LENGTH).put(report, 0, HhReport.LENGTH)
                .put(receipt()).put(report, HhReport.LENGTH, report.length - HhReport.LENGTH).array();
        reports.handle(packetIn(HupfConstants.PKTIN_HH_REPORT, both));
        assertEquals(2, rps.records());
        assertTrue("the report still offloads", manager.isOffloaded(ScaleSimulation.ue(0)));
        reports.handle(packetIn(HupfConstants.PKTIN_RPS, new byte[RpsReceipt.LENGTH - 1]));
        assertEquals(1, rps.malformed());
        assertEquals("RPS packet-ins are not other reasons", 0, reports.otherReasons.get());
    }
}

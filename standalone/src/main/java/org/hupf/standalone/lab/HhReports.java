package org.hupf.standalone.lab;

import org.hupf.core.offload.OffloadManager;
import org.hupf.core.rps.RpsIntake;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.packet.HhReport;
import org.hupf.standalone.p4rt.P4rtClient;
import org.onlab.packet.Ip4Address;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketMetadata;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Takes the switch's packet-ins off its P4Runtime stream and hands HH reports (reason HH_REPORT: an
 * {@code hh_report_t} at the start of the payload, flow key = UE address) to the offload manager, and RPS records
 * (reason RPS, or riding an HH report) to the RPS intake (the switch is device 0 to the monitor).
 * Other reasons and malformed reports are counted, never fatal.
 */
final class HhReports implements Runnable {

    /** The switch's index in the RPS records' datagrams. */
    static final int SWITCH_DEVICE_INDEX = 0;

    private final P4rtClient client;
    private final OffloadManager manager;
    private final RpsIntake rps;
    private final int reasonId;
    private volatile boolean stopped;
    final AtomicLong reports = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong otherReasons = new AtomicLong();

    HhReports(P4rtClient client, P4Info p4info, OffloadManager manager, RpsIntake rps) {
        this.client = client;
        this.manager = manager;
        this.rps = rps;
        this.reasonId = metadataId(p4info, "packet_in", HupfConstants.PKT_META_REASON.id());
    }

    static int metadataId(P4Info p4info, String header, String field) {
        for (ControllerPacketMetadata cpm : p4info.getControllerPacketMetadataList()) {
            if (cpm.getPreamble().getName().equals(header)) {
                for (ControllerPacketMetadata.Metadata md : cpm.getMetadataList()) {
                    if (md.getName().equals(field)) {
                        return md.getId();
                    }
                }
            }
        }
        throw new IllegalArgumentException("P4Info has no " + header + "." + field);
    }

    /** @return where this stream's RPS records go */
    RpsIntake rps() {
        return rps;
    }

    void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        while (!stopped) {
            PacketIn p;
            try {
                p = client.packetIns().next(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (p != null) {
                handle(p);
            }
        }
    }

    void handle(PacketIn p) {
        long reason = -1;
        for (PacketMetadata md : p.getMetadataList()) {
            if (md.getMetadataId() == reasonId) {
                reason = 0;
                for (byte b : md.getValue().toByteArray()) {
                    reason = (reason << 8) | (b & 0xFF);
                }
            }
        }
        boolean rpsRecord = rps.onPacketIn(SWITCH_DEVICE_INDEX, reason, p.getPayload().asReadOnlyByteBuffer());
        if (reason != HupfConstants.PKTIN_HH_REPORT) {
            if (!rpsRecord) {
                otherReasons.incrementAndGet();
            }
            return;
        }
        HhReport report;
        try {
            report = HhReport.read(p.getPayload().asReadOnlyByteBuffer());
        } catch (IllegalArgumentException e) {
            malformed.incrementAndGet();
            return;
        }
        reports.incrementAndGet();
        manager.onHeavyHitter(Ip4Address.valueOf((int) report.flowKey()));
    }
}

package org.hupf.standalone.bench;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.List;

/**
 * Session install and read-back rate through the standalone P4Runtime path (one Write per entity, as
 * {@code HupfUpfDevice.apply} does). Not a unit test: start a target, then run
 * {@code java -cp <test classpath> org.hupf.standalone.bench.P4RuntimeWriteBench host:port profile sessions}.
 */
public final class P4RuntimeWriteBench {

    private P4RuntimeWriteBench() {
    }

    public static void main(String[] args) throws Exception {
        String[] addr = args[0].split(":");
        String profile = args[1];
        int sessions = Integer.parseInt(args[2]);
        try (P4RuntimeUpfDevice dev = P4RuntimeUpfDevice.open(
                addr[0], Integer.parseInt(addr[1]), 1,
                P4RuntimeWriteBench.class.getResource("/p4c-out/" + profile + "/bmv2/p4info.txt"),
                P4RuntimeWriteBench.class.getResource("/p4c-out/" + profile + "/bmv2/bmv2.json"))) {
            List<UpfEntity> entities = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                Ip4Address ue = Ip4Address.valueOf(0x0A000000 + i);
                entities.add(UpfSessionDownlink.builder().withUeAddress(ue).withGtpTunnelPeerId(1).build());
                entities.add(UpfTerminationDownlink.builder().withUeSessionId(ue).withCounterId(i + 1)
                                     .withTeid(i + 1L).build());
            }
            long t0 = System.nanoTime();
            for (UpfEntity e : entities) {
                dev.apply(e);
            }
            long t1 = System.nanoTime();
            int read = dev.readAll(UpfEntityType.SESSION_DOWNLINK).size()
                    + dev.readAll(UpfEntityType.TERMINATION_DOWNLINK).size();
            long t2 = System.nanoTime();
            System.out.printf("%s: applied %d entities at %.0f/s; read back %d in %.1f ms%n", profile,
                              entities.size(), entities.size() / ((t1 - t0) / 1e9), read, (t2 - t1) / 1e6);
        }
    }
}

package org.hupf.standalone.bench;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.hupf.standalone.p4rt.P4InfoIndex;
import org.hupf.standalone.p4rt.PiEncoder;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiTableEntry;
import p4.v1.P4RuntimeOuterClass.Entity;

import java.util.ArrayList;
import java.util.List;

/**
 * Throughput of the controller-side translation for session setup: UPF entities → PI → P4Runtime
 * protobuf, and protobuf → PI → entities (what a read-back costs). Not a unit test: run with
 * {@code java -cp <test classpath> org.hupf.standalone.bench.TranslationBench [profile] [sessions]}.
 */
public final class TranslationBench {

    private TranslationBench() {
    }

    public static void main(String[] args) throws Exception {
        String profile = args.length > 0 ? args[0] : "sw";
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        UpfTranslator translator = new UpfTranslator(Pipelines.model(profile));
        PiEncoder encoder = new PiEncoder(P4InfoIndex.parse(Pipelines.p4infoUrl(profile)));
        List<UpfEntity> entities = new ArrayList<>();
        Ip4Address n3 = Ip4Address.valueOf("192.0.2.1");
        for (int i = 0; i < sessions; i++) {
            Ip4Address ue = Ip4Address.valueOf(0x0A000000 + i);
            entities.add(UpfSessionUplink.builder().setTunDstAddr(n3).setTeid(i + 1L).withUeAddress(ue).build());
            entities.add(UpfTerminationUplink.builder().withUeSessionId(ue).withCounterId(i % 1000).build());
            entities.add(UpfSessionDownlink.builder().withUeAddress(ue).withGtpTunnelPeerId(1).build());
            entities.add(UpfTerminationDownlink.builder().withUeSessionId(ue).withCounterId(i % 1000)
                                 .withTeid(i + 1L).build());
        }
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            List<Entity> wire = new ArrayList<>(entities.size());
            for (UpfEntity e : entities) {
                for (PiEntity pi : translator.toPi(e)) {
                    wire.add(encoder.encode(pi));
                }
            }
            long t1 = System.nanoTime();
            int decoded = 0;
            for (Entity w : wire) {
                translator.fromTableEntry((PiTableEntry) encoder.decode(w));
                decoded++;
            }
            long t2 = System.nanoTime();
            System.out.printf("%s round %d: %d entities, encode %.0f entities/s, decode %.0f entities/s%n",
                              profile, round, decoded, entities.size() / ((t1 - t0) / 1e9),
                              decoded / ((t2 - t1) / 1e9));
        }
    }
}

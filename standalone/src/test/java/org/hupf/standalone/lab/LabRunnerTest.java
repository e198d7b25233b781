package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.OffloadPolicy;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class LabRunnerTest {

    @Test
    public void policyPinsComeFromTheConfig() throws IOException {
        OffloadPolicy p = LabConfig.policy(new ObjectMapper().readTree(
                "{\"threshold_bps\": 5000000, \"hold_ms\": 100, \"hysteresis\": 0.5,"
                        + " \"pins\": {\"slices\": {\"3\": \"HARDWARE\"}, \"ues\": {\"10.0.0.9\": \"SOFTWARE\"}}}"));
        assertEquals(5_000_000, p.thresholdBitsPerSec());
        assertEquals(OffloadPolicy.Pin.HARDWARE,
                     p.pinOf(Ip4Address.valueOf("10.0.0.1"), 3, List.of(9)));
        assertEquals(OffloadPolicy.Pin.SOFTWARE,
                     p.pinOf(Ip4Address.valueOf("10.0.0.9"), 3, List.of(9)));
    }

    @Test
    public void aMissingOrMalformedFieldIsNamed() throws IOException {
        Path f = Files.createTempFile("lab", ".json");
        Files.writeString(f, "{\"pfcp\": {\"address\": \"127.0.0.1\"}, \"n3\": \"not-an-address\"}");
        LabConfig cfg = LabConfig.load(f);
        try {
            cfg.number("pfcp", "port");
            fail("a missing field must be refused");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("pfcp.port"));
        }
        try {
            LabConfig.addr(cfg.node("n3"), "n3");
            fail("a malformed address must be refused");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("n3 is not an IPv4 address"));
        }
        Files.delete(f);
    }

    /** The runner's sessions may name the config's network_instances (the standalone host's default without). */
    @Test
    public void networkInstancesComeFromTheConfig() throws IOException {
        Path f = Files.createTempFile("lab", ".json");
        Files.writeString(f, "{}");
        assertEquals(Set.of("internet"), LabConfig.load(f).networkInstances());
        Files.writeString(f, "{\"network_instances\": [\"internet\", \"ims\"]}");
        assertEquals(Set.of("internet", "ims"), LabConfig.load(f).networkInstances());
        Files.writeString(f, "{\"network_instances\": [\"internet\", 7]}");
        try {
            LabConfig.load(f).networkInstances();
            fail("a name that is no string must be refused");
        } catch (IllegalArgumentException e) {
            assertEquals("lab config: network_instances: a name expected, got 7", e.getMessage());
        }
        Files.delete(f);
    }
}

package org.hupf.pipeconf.dataplane;

import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * A software backend as the switch sees it: the port towards it, the MAC its NIC answers to, and its
 * weight in the slice's UE-hash split (its member's weight in the selector group: a backend of weight 2
 * takes twice the UEs of one of weight 1).
 */
public final class Backend {

    /** Largest weight a backend may have: the hw profile's selector holds 256 weighted members in all. */
    public static final int MAX_WEIGHT = 64;

    private final long port;
    private final MacAddress mac;
    private final int weight;

    public Backend(long port, MacAddress mac) {
        this(port, mac, 1);
    }

    public Backend(long port, MacAddress mac, int weight) {
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("a backend's weight is 1.." + MAX_WEIGHT + ", got " + weight);
        }
        this.port = port;
        this.mac = Objects.requireNonNull(mac, "mac");
        this.weight = weight;
    }

    public long port() {
        return port;
    }

    public MacAddress mac() {
        return mac;
    }

    public int weight() {
        return weight;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Backend && port == ((Backend) o).port && mac.equals(((Backend) o).mac)
                && weight == ((Backend) o).weight;
    }

    @Override
    public int hashCode() {
        return Objects.hash(port, mac, weight);
    }

    @Override
    public String toString() {
        return "Backend{port=" + port + ", mac=" + mac + ", weight=" + weight + "}";
    }
}

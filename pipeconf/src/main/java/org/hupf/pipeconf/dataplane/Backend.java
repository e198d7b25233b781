package org.hupf.pipeconf.dataplane;

import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * A software backend as the switch sees it: the port towards it and the MAC its NIC answers to.
 */
public final class Backend {

    private final long port;
    private final MacAddress mac;

    public Backend(long port, MacAddress mac) {
        this.port = port;
        this.mac = Objects.requireNonNull(mac, "mac");
    }

    public long port() {
        return port;
    }

    public MacAddress mac() {
        return mac;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Backend && port == ((Backend) o).port && mac.equals(((Backend) o).mac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(port, mac);
    }

    @Override
    public String toString() {
        return "Backend{port=" + port + ", mac=" + mac + "}";
    }
}

package org.hupf.pipeconf.gnb;

import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.Objects;
import java.util.HashSet;
import java.util.List;

/**
 * The gNB switch's own configuration, as the RAN's control plane gives it: its N3 port, address and MAC, the UPF's
 * N3 MAC, the ports of the crypto service and BaaS, and its MAC on the air.
 */
public final class GnbSite {

    /** The highest port number the program's 9-bit ports can carry below bmv2's drop port (511). */
    static final int MAX_PORT = 510;

    private final int n3Port;
    private final int cryptoPort;
    private final int baasPort;
    private final Ip4Address n3Addr;
    private final MacAddress n3Mac;
    private final MacAddress upfN3Mac;
    private final MacAddress airMac;

    /**
     * @throws IllegalArgumentException if a port is out of range or two of the three are the same
     */
    public GnbSite(int n3Port, int cryptoPort, int baasPort, Ip4Address n3Addr, MacAddress n3Mac,
                   MacAddress upfN3Mac, MacAddress airMac) {
        this.n3Port = port("n3Port", n3Port);
        this.cryptoPort = port("cryptoPort", cryptoPort);
        this.baasPort = port("baasPort", baasPort);
        // Set.of refuses duplicates itself, with a message that names no field.
        if (new HashSet<>(List.of(n3Port, cryptoPort, baasPort)).size() != 3) {
            throw new IllegalArgumentException("n3Port, cryptoPort and baasPort must be three different ports");
        }
        this.n3Addr = Objects.requireNonNull(n3Addr, "n3Addr");
        this.n3Mac = Objects.requireNonNull(n3Mac, "n3Mac");
        this.upfN3Mac = Objects.requireNonNull(upfN3Mac, "upfN3Mac");
        this.airMac = Objects.requireNonNull(airMac, "airMac");
    }

    static int port(String name, int port) {
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException(name + ": a port 0.." + MAX_PORT + " is needed, not " + port);
        }
        return port;
    }

    public int n3Port() {
        return n3Port;
    }

    public int cryptoPort() {
        return cryptoPort;
    }

    public int baasPort() {
        return baasPort;
    }

    public Ip4Address n3Addr() {
        return n3Addr;
    }

    public MacAddress n3Mac() {
        return n3Mac;
    }

    public MacAddress upfN3Mac() {
        return upfN3Mac;
    }

    public MacAddress airMac() {
        return airMac;
    }
}

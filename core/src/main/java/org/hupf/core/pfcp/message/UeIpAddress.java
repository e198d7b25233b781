package org.hupf.core.pfcp.message;

import java.net.Inet4Address;
import java.util.Arrays;
import java.util.List;

/** UE IP Address (TS 29.244 §8.2.62): IPv4, whether it is the source or destination (S/D), or CHV4. */
public final class UeIpAddress extends Value {
    public final Inet4Address ipv4;
    /** S/D flag: true = destination (downlink PDRs), false = source. */
    public final boolean destination;
    /** CHV4: the UP function allocates the address. */
    public final boolean choose;

    public UeIpAddress(Inet4Address ipv4, boolean destination, boolean choose) {
        this.ipv4 = ipv4;
        this.destination = destination;
        this.choose = choose;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(ipv4, destination, choose);
    }
}

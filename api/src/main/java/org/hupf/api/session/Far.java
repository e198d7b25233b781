package org.hupf.api.session;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * A Forwarding Action Rule (TS 29.244 §5.2.1, Create FAR §7.5.2.3). Immutable.
 */
public final class Far {

    /** Apply Action bits (§8.2.26). */
    public static final int DROP = 0x01;
    public static final int FORW = 0x02;
    public static final int BUFF = 0x04;
    public static final int NOCP = 0x08;
    public static final int DUPL = 0x10;

    /** Destination Interface values (§8.2.24). */
    public static final int ACCESS = 0;
    public static final int CORE = 1;

    public final long farId;
    public final int applyAction;
    public final Integer destinationInterface;
    /** Outer Header Creation GTP-U/UDP/IPv4: the peer's TEID and address. */
    public final Long ohcTeid;
    public final Ip4Address ohcAddress;
    public final Integer barId;
    /** Network Instance of the Forwarding Parameters (§8.2.4): the network the FAR forwards into. */
    public final String networkInstance;

    public Far(long farId, int applyAction, Integer destinationInterface, Long ohcTeid, Ip4Address ohcAddress,
               Integer barId) {
        this(farId, applyAction, destinationInterface, ohcTeid, ohcAddress, barId, null);
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    public Far(long farId, int applyAction, Integer destinationInterface, Long ohcTeid, Ip4Address ohcAddress,
               Integer barId, String networkInstance) {
        this.farId = farId;
        this.applyAction = applyAction;
        this.destinationInterface = destinationInterface;
        this.ohcTeid = ohcTeid;
        this.ohcAddress = SharedAddresses.of(ohcAddress);
        this.barId = barId;
        // Interned: every session's FARs name the same few networks.
        this.networkInstance = networkInstance == null ? null : networkInstance.intern();
    }

    public boolean drops() {
        return (applyAction & DROP) != 0;
    }

    public boolean forwards() {
        return (applyAction & FORW) != 0;
    }

    public boolean buffers() {
        return (applyAction & BUFF) != 0;
    }

    /** @return true if the CP function wants a Downlink Data Report for buffered packets */
    public boolean notifiesCp() {
        return (applyAction & NOCP) != 0;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Far)) {
            return false;
        }
        Far f = (Far) o;
        return farId == f.farId && applyAction == f.applyAction
                && Objects.equals(destinationInterface, f.destinationInterface) && Objects.equals(ohcTeid, f.ohcTeid)
                && Objects.equals(ohcAddress, f.ohcAddress) && Objects.equals(barId, f.barId)
                && Objects.equals(networkInstance, f.networkInstance);
    }

    @Override
    public int hashCode() {
        return Objects.hash(farId, applyAction, destinationInterface, ohcTeid, ohcAddress, barId, networkInstance);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("Far").omitNullValues().add("id", farId)
                .add("action", applyAction).add("dst", destinationInterface).add("ohcTeid", ohcTeid)
                .add("ohcAddr", ohcAddress).add("bar", barId).add("networkInstance", networkInstance).toString();
    }
}

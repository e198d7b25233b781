package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Forwarding Parameters or Update Forwarding Parameters of a FAR: the fields hupf acts on. */
public final class ForwardingParameters extends Value {
    /** Mandatory in Forwarding Parameters; null in an update that keeps it. */
    public final Integer destinationInterface;
    public final OuterHeaderCreation outerHeaderCreation;
    /** The network forwarded into (§8.2.4); null when absent (an update keeps the FAR's). */
    public final String networkInstance;

    public ForwardingParameters(Integer destinationInterface, OuterHeaderCreation outerHeaderCreation,
                                String networkInstance) {
        this.destinationInterface = destinationInterface;
        this.outerHeaderCreation = outerHeaderCreation;
        this.networkInstance = networkInstance;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(destinationInterface, outerHeaderCreation, networkInstance);
    }
}

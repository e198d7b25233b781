package org.hupf.app.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Forwarding Parameters or Update Forwarding Parameters of a FAR: the fields hupf acts on. */
public final class ForwardingParameters extends Value {
    /** Mandatory in Forwarding Parameters; null in an update that keeps it. */
    public final Integer destinationInterface;
    public final OuterHeaderCreation outerHeaderCreation;

    public ForwardingParameters(Integer destinationInterface, OuterHeaderCreation outerHeaderCreation) {
        this.destinationInterface = destinationInterface;
        this.outerHeaderCreation = outerHeaderCreation;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(destinationInterface, outerHeaderCreation);
    }
}

package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Node ID (TS 29.244 §8.2.38): an IPv4 or IPv6 address or an FQDN. */
public final class NodeId extends Value {
    public static final int IPV4 = 0;
    public static final int IPV6 = 1;
    public static final int FQDN = 2;
    public final int idType;
    /** Address in dotted/colon form or the FQDN. */
    public final String value;

    public NodeId(int idType, String value) {
        this.idType = idType;
        this.value = value;
    }

    /**
     * Returns the Node ID of a configured name: an IPv4 address if it reads as one, else an FQDN.
     *
     * @param name address or FQDN
     * @return Node ID
     */
    public static NodeId of(String name) {
        return new NodeId(name.matches("[0-9.]+") ? IPV4 : FQDN, name);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(idType, value);
    }
}

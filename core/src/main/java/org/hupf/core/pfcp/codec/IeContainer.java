package org.hupf.core.pfcp.codec;

import java.util.List;

/** What holds IEs: a message's top level or a grouped IE. */
public interface IeContainer {

    /**
     * Returns the first IE of a type, or null.
     *
     * @param type IE type
     * @return IE or null
     */
    Ie child(int type);

    /**
     * Returns the IEs of a type, in order.
     *
     * @param type IE type
     * @return IEs
     */
    List<Ie> all(int type);

    /**
     * Returns the first IE of a type or fails with Mandatory IE missing.
     *
     * @param type IE type
     * @return IE
     * @throws DecodeException if absent
     */
    Ie require(int type) throws DecodeException;
}

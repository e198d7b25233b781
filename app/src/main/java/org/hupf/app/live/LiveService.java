package org.hupf.app.live;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** hupf's counts over the last minutes, sampled on the node that answers: the live view's charts. */
public interface LiveService {

    /**
     * Renders {@code intervalMs} and the {@code samples} taken after a time, oldest first (see {@link LiveSample}).
     *
     * @param root    the answer's object
     * @param afterMs only samples later than this, ms since the epoch (0: all kept)
     */
    void history(ObjectNode root, long afterMs);
}

package org.hupf.pipeconf.upf;

/**
 * A write or read that a {@link PiTarget} could not carry out; the message says which entity and why.
 */
public class PiTargetException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean exhausted;

    public PiTargetException(String message) {
        this(message, false, null);
    }

    public PiTargetException(String message, Throwable cause) {
        this(message, false, cause);
    }

    public PiTargetException(String message, boolean exhausted, Throwable cause) {
        super(message, cause);
        this.exhausted = exhausted;
    }

    /**
     * Returns whether the target refused because a table or profile was full.
     *
     * @return true if out of resources
     */
    public boolean exhausted() {
        return exhausted;
    }
}

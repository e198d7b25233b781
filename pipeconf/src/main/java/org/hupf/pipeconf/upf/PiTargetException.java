package org.hupf.pipeconf.upf;

/**
 * A write or read that a {@link PiTarget} could not carry out; the message says which entity and why.
 */
public class PiTargetException extends Exception {

    private static final long serialVersionUID = 1L;

    public PiTargetException(String message) {
        super(message);
    }

    public PiTargetException(String message, Throwable cause) {
        super(message, cause);
    }
}

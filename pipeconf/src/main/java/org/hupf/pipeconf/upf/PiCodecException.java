package org.hupf.pipeconf.upf;

/**
 * A value or entry that the pipeline cannot express, or a PI entity that does not decode.
 */
public class PiCodecException extends Exception {

    private static final long serialVersionUID = 1L;

    public PiCodecException(String message) {
        super(message);
    }
}

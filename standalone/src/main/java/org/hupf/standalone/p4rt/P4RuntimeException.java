package org.hupf.standalone.p4rt;

import java.util.List;

/**
 * A P4Runtime exchange that failed, or a PI entity that has no P4Runtime form under the P4Info.
 */
public class P4RuntimeException extends Exception {

    private static final long serialVersionUID = 1L;

    private final io.grpc.Status.Code code;
    private final List<io.grpc.Status.Code> updateCodes;

    public P4RuntimeException(String message) {
        this(message, null, null);
    }

    public P4RuntimeException(String message, io.grpc.Status.Code code, Throwable cause) {
        this(message, code, List.of(), cause);
    }

    public P4RuntimeException(String message, io.grpc.Status.Code code, List<io.grpc.Status.Code> updateCodes,
                              Throwable cause) {
        super(message, cause);
        this.code = code;
        this.updateCodes = List.copyOf(updateCodes);
    }

    /**
     * Returns, for a failed Write, the status of each update in request order (empty if the server
     * gave no per-update detail).
     *
     * @return per-update codes
     */
    public List<io.grpc.Status.Code> updateCodes() {
        return updateCodes;
    }

    /**
     * Returns the gRPC status code the server answered with, null if the failure was local.
     *
     * @return status code or null
     */
    public io.grpc.Status.Code code() {
        return code;
    }
}

package org.hupf.pipeconf.behaviour;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateResponse;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteResponse;

import java.util.Collection;

/**
 * A P4Runtime write the device refused whole because this node's client was not its primary one. Right after
 * a mastership change ONOS re-arbitrates every node's client, and a standby can be primary for a moment: the
 * device applied nothing of the write, and writing it again (every {@link #RETRY_PAUSE_MS}, for up to
 * {@link #BUDGET_MS}) is harmless.
 */
final class NotPrimary extends UpfProgrammableException {

    /** Pause between two writes of a request refused for want of primacy. */
    static final long RETRY_PAUSE_MS = 250;
    /** How long a request refused for want of primacy is written again. */
    static final long BUDGET_MS = 15_000;
    /** How gRPC begins the message of a status exception with that code ("CODE: description"). */
    private static final String PERMISSION_DENIED = "PERMISSION_DENIED";

    NotPrimary(String message) {
        super(message);
    }

    /**
     * Returns the error of the RPC itself when the device took no update of a write: ONOS's client then fails
     * every update with the RPC's exception.
     *
     * @param resp the device's answer
     * @return that exception, or null when the device answered update by update
     */
    static Throwable rpcError(WriteResponse resp) {
        Collection<EntityUpdateResponse> all = resp.all();
        if (all.isEmpty() || !all.stream().allMatch(r -> !r.isSuccess() && r.throwable() != null)) {
            return null;
        }
        return all.iterator().next().throwable();
    }

    /**
     * Whether an RPC failed with gRPC's PERMISSION_DENIED.
     *
     * @param rpcError exception of the RPC
     * @return true if it, or one of its causes, is a status exception with that code
     */
    static boolean isPermissionDenied(Throwable rpcError) {
        return hasCode(rpcError, PERMISSION_DENIED);
    }

    /**
     * Whether an RPC failed with a gRPC status code. hupf's bundles import no gRPC (ONOS's client keeps it
     * inside), so the code is read where gRPC puts it: at the start of the message of the status exception,
     * which may be wrapped (a CompletionException) in other exceptions.
     *
     * @param rpcError exception of the RPC
     * @param code     gRPC status code name
     * @return true if it, or one of its causes, is a status exception with that code
     */
    static boolean hasCode(Throwable rpcError, String code) {
        for (Throwable t = rpcError; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.startsWith(code)) {
                return true;
            }
        }
        return false;
    }
}

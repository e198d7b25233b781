package org.hupf.standalone.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

import java.util.ArrayList;
import java.util.List;

/** Turns a failed P4Runtime RPC into a {@link P4RuntimeException} that keeps each update's code. */
final class P4RuntimeFailures {

    private P4RuntimeFailures() {
    }

    /**
     * A P4Runtime Write error carries one p4.v1.Error per update in the status details (spec §12.3): the
     * exception lists them, one line per failed update, and keeps every update's code in order.
     *
     * @param rpc name of the RPC, for the message
     * @param e   what gRPC threw
     * @return the failure
     */
    static P4RuntimeException of(String rpc, StatusRuntimeException e) {
        StringBuilder msg = new StringBuilder(rpc + " failed: " + e.getStatus().getCode()
                                                      + nullToEmpty(e.getStatus().getDescription()));
        com.google.rpc.Status details = StatusProto.fromThrowable(e);
        List<Status.Code> codes = new ArrayList<>();
        if (details != null) {
            int i = 0;
            for (Any any : details.getDetailsList()) {
                try {
                    p4.v1.P4RuntimeOuterClass.Error err = any.unpack(p4.v1.P4RuntimeOuterClass.Error.class);
                    codes.add(Status.fromCodeValue(err.getCanonicalCode()).getCode());
                    if (err.getCanonicalCode() != Status.Code.OK.value()) {
                        msg.append("\n  update ").append(i).append(": ")
                                .append(Status.fromCodeValue(err.getCanonicalCode()).getCode())
                                .append(' ').append(err.getMessage());
                    }
                } catch (InvalidProtocolBufferException ignored) {
                    codes.add(Status.Code.UNKNOWN);
                    msg.append("\n  update ").append(i).append(": undecodable error detail");
                }
                i++;
            }
        }
        return new P4RuntimeException(msg.toString(), e.getStatus().getCode(), codes, e);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : " " + s;
    }
}

package org.hupf.standalone.p4rt;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.Uint128;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The pipeline requests hupf sends, and the cookie that tells whether a device already runs a pipeline. */
public final class PipelineConfigs {

    private PipelineConfigs() {
    }

    /**
     * The cookie hupf gives a pipeline: the first 8 bytes of SHA-256 over its P4Info and target configuration,
     * so that equal pipelines have equal cookies across restarts.
     *
     * @param p4info       P4Info
     * @param deviceConfig target configuration
     * @return cookie, never 0 (0 is what a device without a pipeline reports)
     */
    public static long cookie(P4Info p4info, byte[] deviceConfig) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(p4info.toByteArray());
            sha.update(deviceConfig);
            long c = ByteBuffer.wrap(sha.digest()).getLong();
            return c == 0 ? 1 : c;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * Reads the cookie of a device's pipeline (GetForwardingPipelineConfig, COOKIE_ONLY).
     *
     * @return cookie, 0 if the device has no pipeline (an empty config, or FAILED_PRECONDITION as bmv2 answers)
     * @throws P4RuntimeException if the server fails the request otherwise
     */
    static long runningCookie(P4RuntimeGrpc.P4RuntimeBlockingStub stub, long deviceId) throws P4RuntimeException {
        try {
            return stub.getForwardingPipelineConfig(GetForwardingPipelineConfigRequest.newBuilder().setDeviceId(deviceId)
                            .setResponseType(GetForwardingPipelineConfigRequest.ResponseType.COOKIE_ONLY).build())
                    .getConfig().getCookie().getCookie();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.FAILED_PRECONDITION) {
                return 0;
            }
            throw P4RuntimeFailures.of("GetForwardingPipelineConfig", e);
        }
    }

    /** Sends a push. */
    static void push(P4RuntimeGrpc.P4RuntimeBlockingStub stub, SetForwardingPipelineConfigRequest req)
            throws P4RuntimeException {
        try {
            stub.setForwardingPipelineConfig(req);
        } catch (StatusRuntimeException e) {
            throw P4RuntimeFailures.of("SetForwardingPipelineConfig", e);
        }
    }

    /** A push that verifies and commits the pipeline at once, with its {@link #cookie}. */
    static SetForwardingPipelineConfigRequest commitRequest(long deviceId, Uint128 electionId, P4Info p4info,
                                                            byte[] deviceConfig) {
        return SetForwardingPipelineConfigRequest.newBuilder()
                .setDeviceId(deviceId).setElectionId(electionId)
                .setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT)
                .setConfig(ForwardingPipelineConfig.newBuilder().setP4Info(p4info)
                                   .setP4DeviceConfig(ByteString.copyFrom(deviceConfig))
                                   .setCookie(ForwardingPipelineConfig.Cookie.newBuilder()
                                                      .setCookie(cookie(p4info, deviceConfig))))
                .build();
    }
}

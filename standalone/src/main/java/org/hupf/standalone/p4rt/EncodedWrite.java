package org.hupf.standalone.p4rt;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A Write of {@link EncodedUpdates} over gRPC: the WriteRequest's bytes written straight from the updates' bytes, as
 * protobuf would serialize the request (device id, election id, then each update as field {@value #UPDATES}), so
 * the updates encoded once go over gRPC as they go over the local write channel, never parsed back into objects.
 * The updates are read when gRPC sends the request, so they are left alone until the Write is answered.
 */
final class EncodedWrite {

    /** WriteRequest.updates. */
    static final int UPDATES = 4;

    /** P4Runtime's Write with this request type: the same method on the wire, the response parsed by protobuf. */
    static final MethodDescriptor<EncodedWrite, WriteResponse> METHOD = P4RuntimeGrpc.getWriteMethod().toBuilder(
            new RequestMarshaller(), P4RuntimeGrpc.getWriteMethod().getResponseMarshaller()).build();

    private final byte[] header;
    private final EncodedUpdates updates;

    EncodedWrite(long deviceId, Uint128 electionId, EncodedUpdates updates) {
        this.header = WriteRequest.newBuilder().setDeviceId(deviceId).setElectionId(electionId).build().toByteArray();
        this.updates = updates;
    }

    /** @return the serialized WriteRequest's length */
    int length() {
        return header.length + updates.fieldLength(UPDATES);
    }

    /** Writes the serialized WriteRequest. */
    void writeTo(OutputStream out) throws IOException {
        out.write(header);
        updates.writeAsField(UPDATES, out);
    }

    /** Serializes an EncodedWrite as the stream gRPC drains into its frame; the client never parses one. */
    private static final class RequestMarshaller implements MethodDescriptor.Marshaller<EncodedWrite> {
        @Override
        public InputStream stream(EncodedWrite value) {
            return new Serialized(value);
        }

        @Override
        public EncodedWrite parse(InputStream stream) {
            throw new UnsupportedOperationException("an encoded Write is only sent");
        }
    }

    /** Drained by gRPC (its length known up front); read byte by byte only by a caller that does not drain. */
    private static final class Serialized extends InputStream implements Drainable, KnownLength {
        private EncodedWrite write;
        private InputStream copy;

        Serialized(EncodedWrite write) {
            this.write = write;
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            if (write == null) {
                return (int) copy().transferTo(target);
            }
            int n = write.length();
            write.writeTo(target);
            write = null;
            copy = InputStream.nullInputStream();
            return n;
        }

        @Override
        public int available() throws IOException {
            return write != null ? write.length() : copy().available();
        }

        @Override
        public int read() throws IOException {
            return copy().read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return copy().read(b, off, len);
        }

        private InputStream copy() throws IOException {
            if (copy == null) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(write.length());
                write.writeTo(bytes);
                write = null;
                copy = new ByteArrayInputStream(bytes.toByteArray());
            }
            return copy;
        }
    }
}

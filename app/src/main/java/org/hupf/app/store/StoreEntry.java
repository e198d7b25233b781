package org.hupf.app.store;

import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionRecord;
import org.hupf.core.store.KeptResponse;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the session store holds under a UP SEID, as one binary value: its revision (a session's changes count up
 * from 1, so that of two values under a SEID the later is known), the response to the request that made it (or
 * none), and the session's {@link SessionRecord} (none in a tombstone: a deletion's response kept for the
 * retransmission window).
 *
 * <p>Layout: kind byte (1 session, 2 tombstone), revision (8 bytes), response flag (0/1) and, if 1, the response's
 * key (UTF-8 length, bytes), its bytes (length, bytes) and its time (8 bytes); a session's record fills the rest.
 */
final class StoreEntry {

    private static final byte SESSION = 1;
    private static final byte TOMBSTONE = 2;

    final long revision;
    /** The session; null in a tombstone. */
    final PfcpSession session;
    /** The response kept with the change; null for none. */
    final KeptResponse response;
    /** The value as stored. */
    final byte[] bytes;

    private StoreEntry(long revision, PfcpSession session, KeptResponse response, byte[] bytes) {
        this.revision = revision;
        this.session = session;
        this.response = response;
        this.bytes = bytes;
    }

    /** An entry and its stored value: a session (null: a tombstone) at a revision, with a response or none. */
    static StoreEntry of(long revision, PfcpSession session, KeptResponse response) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(session == null ? 64 : 384);
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeByte(session == null ? TOMBSTONE : SESSION);
            out.writeLong(revision);
            out.writeBoolean(response != null);
            if (response != null) {
                byte[] key = response.key().getBytes(StandardCharsets.UTF_8);
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(response.bytes.length);
                out.write(response.bytes);
                out.writeLong(response.atMillis);
            }
            if (session != null) {
                out.write(SessionRecord.encode(session));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return new StoreEntry(revision, session, response, bytes.toByteArray());
    }

    /**
     * Decodes a stored value.
     *
     * @throws IllegalArgumentException if it is not a whole entry
     */
    static StoreEntry decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            byte kind = in.get();
            if (kind != SESSION && kind != TOMBSTONE) {
                throw new IllegalArgumentException("stored session entry of kind " + kind);
            }
            long revision = in.getLong();
            KeptResponse response = null;
            if (in.get() != 0) {
                String key = new String(chunk(in), StandardCharsets.UTF_8);
                response = new KeptResponse(key, chunk(in), in.getLong());
            }
            PfcpSession session = null;
            if (kind == SESSION) {
                session = SessionRecord.decode(in);
            } else if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after a tombstone");
            }
            return new StoreEntry(revision, session, response, bytes);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("stored session entry ends at byte " + in.position());
        }
    }

    /** @return a stored value's revision, without decoding the rest */
    static long revisionOf(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong(1);
    }

    private static byte[] chunk(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("length " + n + " at byte " + (in.position() - 4));
        }
        byte[] out = new byte[n];
        in.get(out);
        return out;
    }
}

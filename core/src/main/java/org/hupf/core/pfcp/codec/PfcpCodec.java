package org.hupf.core.pfcp.codec;

import java.util.List;

/**
 * Encodes and decodes PFCP messages (TS 29.244 §7.2.2 header, §8.1.1 IE format).
 * Decoding never throws anything but {@link DecodeException}.
 */
public final class PfcpCodec {

    /** The only PFCP version defined. */
    public static final int VERSION = 1;
    private static final int FLAG_S = 0x01;
    private static final int FLAG_MP = 0x02;
    /** A response's or report's size with room to spare: its buffer grows only for many Usage Reports. */
    private static final int MESSAGE_CAPACITY = 128;

    private PfcpCodec() {
    }

    /**
     * The fixed part of a header, readable even when the IEs that follow are not.
     */
    public static final class Header {
        public final int version;
        public final int type;
        public final int length;
        public final boolean hasSeid;
        public final long seid;
        public final int sequence;
        public final int priority;
        /** Header size: 8 without SEID, 16 with. */
        public final int size;

        Header(int version, int type, int length, boolean hasSeid, long seid, int sequence, int priority) {
            this.version = version;
            this.type = type;
            this.length = length;
            this.hasSeid = hasSeid;
            this.seid = seid;
            this.sequence = sequence;
            this.priority = priority;
            this.size = hasSeid ? 16 : 8;
        }
    }

    /**
     * Reads the header of a datagram.
     *
     * @param buf datagram
     * @param len bytes of it that were received
     * @return header
     * @throws DecodeException TRUNCATED_HEADER if the datagram is shorter than its header
     */
    public static Header header(byte[] buf, int len) throws DecodeException {
        if (len < 4) {
            throw new DecodeException(DecodeException.Kind.TRUNCATED_HEADER, 0, len,
                                      "datagram of " + len + " bytes is shorter than a PFCP header");
        }
        int flags = buf[0] & 0xff;
        int type = buf[1] & 0xff;
        int length = u16(buf, 2);
        boolean s = (flags & FLAG_S) != 0;
        int size = s ? 16 : 8;
        if (len < size) {
            throw new DecodeException(DecodeException.Kind.TRUNCATED_HEADER, 0, len,
                                      "datagram of " + len + " bytes is shorter than its " + size + "-byte header");
        }
        long seid = s ? ((long) u16(buf, 4) << 48) | ((long) u16(buf, 6) << 32) | ((long) u16(buf, 8) << 16)
                | u16(buf, 10) : 0;
        int at = size - 4;
        int seq = ((buf[at] & 0xff) << 16) | u16(buf, at + 1);
        int last = buf[at + 3] & 0xff;
        int priority = (flags & FLAG_MP) != 0 ? last >> 4 : -1;
        return new Header(flags >> 5, type, length, s, seid, seq, priority);
    }

    private static int u16(byte[] buf, int at) {
        return ((buf[at] & 0xff) << 8) | (buf[at + 1] & 0xff);
    }

    /**
     * Decodes a datagram. Bytes past the header's length field are ignored (§7.2.2.1 allows padding).
     *
     * @param buf datagram
     * @param len bytes received
     * @return message
     * @throws DecodeException on a truncated or inconsistent message
     */
    public static PfcpMessage decode(byte[] buf, int len) throws DecodeException {
        return decode(header(buf, len), buf, len);
    }

    /**
     * Decodes a datagram whose header was read already ({@link #header}), as the agent does to sort it.
     *
     * @param h   the datagram's header
     * @param buf datagram
     * @param len bytes received
     * @return message
     * @throws DecodeException on a truncated or inconsistent message
     */
    public static PfcpMessage decode(Header h, byte[] buf, int len) throws DecodeException {
        return PfcpMessage.decoded(h.type, h.hasSeid, h.seid, h.sequence, h.priority, spans(h, buf, len).tree(
                IeSpans.MESSAGE));
    }

    /**
     * Walks the IEs of a datagram whose header was read already, without copying them: what a request's typed
     * decoder reads ({@link RequestCodec#decode(Header, IeSpans)}).
     *
     * @param h   the datagram's header
     * @param buf datagram, read in place until the caller is done with the spans
     * @param len bytes received
     * @return the message's IEs
     * @throws DecodeException on a truncated or inconsistent message
     */
    public static IeSpans spans(Header h, byte[] buf, int len) throws DecodeException {
        if (h.version != VERSION) {
            throw new DecodeException(DecodeException.Kind.UNSUPPORTED_VERSION, 0, 0,
                                      "PFCP version " + h.version + " not supported");
        }
        int end = 4 + h.length;
        if (end < h.size) {
            throw new DecodeException(DecodeException.Kind.INVALID_LENGTH, 0, 2,
                                      "message length " + h.length + " shorter than the header");
        }
        if (end > len) {
            throw new DecodeException(DecodeException.Kind.INVALID_LENGTH, 0, 2,
                                      "message length " + h.length + " exceeds the " + (len - 4)
                                              + " bytes received after the first 4");
        }
        return new IeSpans(h.type, buf, h.size, end);
    }

    /**
     * Encodes a message.
     *
     * @param msg message
     * @return datagram
     * @throws IllegalArgumentException if the message exceeds PFCP's 16-bit length
     */
    public static byte[] encode(PfcpMessage msg) {
        IeWriter out = message(msg.type(), msg.hasSeid(), msg.seid(), msg.sequence(), msg.priority());
        List<Ie> ies = msg.ies();
        for (int i = 0, n = ies.size(); i < n; i++) {
            ies.get(i).encode(out);
        }
        return finish(out);
    }

    /**
     * Starts a message in one buffer, its header written with a length that {@link #finish} sets; its IEs are
     * written after it ({@link IeField}'s write), as the response and report codecs do.
     *
     * @param type     message type
     * @param hasSeid  whether the header carries a SEID
     * @param seid     the SEID (ignored without one)
     * @param sequence sequence number
     * @param priority message priority, -1 for none
     * @return the writer, at the first IE
     */
    static IeWriter message(int type, boolean hasSeid, long seid, int sequence, int priority) {
        IeWriter out = new IeWriter(MESSAGE_CAPACITY);
        out.u8((VERSION << 5) | (hasSeid ? FLAG_S : 0) | (priority >= 0 ? FLAG_MP : 0)).u8(type).u16(0);
        if (hasSeid) {
            out.uint(seid, 8);
        }
        return out.uint(sequence, 3).u8(priority >= 0 ? priority << 4 : 0);
    }

    /**
     * Ends a message started with {@link #message}.
     *
     * @param out the message's writer
     * @return datagram
     * @throws IllegalArgumentException if the message exceeds PFCP's 16-bit length
     */
    static byte[] finish(IeWriter out) {
        int len = out.length();
        if (len - 4 > 0xffff) {
            throw new IllegalArgumentException("message of " + len + " bytes exceeds the PFCP length field");
        }
        out.set16(2, len - 4);
        return out.toByteArray();
    }
}

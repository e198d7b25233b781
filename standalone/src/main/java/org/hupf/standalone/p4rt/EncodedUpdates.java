package org.hupf.standalone.p4rt;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import p4.v1.P4RuntimeOuterClass.Update;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Write's updates as bytes, laid out as the local write frame carries them (docs/PIPELINE_CONTRACT.md, "Local
 * writes"): each a little-endian {@code u32} length and its serialized {@code p4.v1.Update}. {@link UpfEntityEncoder}
 * writes the updates field by field, in the order and form protobuf's own serializer gives (fields by number, zero
 * scalars left out): no protobuf object per update. The local write channel sends the bytes as they are, and so does
 * the gRPC path ({@link EncodedWrite}), each update as a field of the WriteRequest.
 *
 * <p>Every update starts {@code 08 <type> 12 <entity length>}: its type is set (INSERT, MODIFY or DELETE) and its
 * entity follows, which {@link #type} and {@link #tableEntry} read back. Field numbers are below 16, so each tag is
 * one byte.
 */
final class EncodedUpdates {

    private static final int TAG_VARINT = 0;
    private static final int TAG_BYTES = 2;
    /** Update.type, Update.entity; Entity's table_entry, meter_entry, counter_entry. */
    private static final int UPDATE_TYPE = 1;
    private static final int UPDATE_ENTITY = 2;
    static final int ENTITY_TABLE = 2;
    static final int ENTITY_METER = 5;
    static final int ENTITY_COUNTER = 7;
    private static final int LENGTH_PREFIX = 4;

    private byte[] buf;
    private int pos;
    private int[] starts = new int[16];
    private int count;
    /** Where the update being written starts, its Entity's and the Entity's oneof member's length bytes. */
    private int updateStart;
    private int entityMark;
    private int kindMark;

    EncodedUpdates(int capacity) {
        buf = new byte[Math.max(capacity, 64)];
    }

    /** @return updates written */
    int size() {
        return count;
    }

    /** @return bytes written: the frame's update section */
    int length() {
        return pos;
    }

    /** Puts the frame's update section into {@code out}, which has room for {@link #length} bytes. */
    void copyTo(ByteBuffer out) {
        out.put(buf, 0, pos);
    }

    /** @return the update's type */
    Update.Type type(int i) {
        return Update.Type.forNumber(buf[starts[i] + LENGTH_PREFIX + 1]);
    }

    /** @return whether the update's entity is a table entry */
    boolean tableEntry(int i) {
        int p = starts[i] + LENGTH_PREFIX + 3;
        while (buf[p] < 0) { // the entity's length varint
            p++;
        }
        return buf[p + 1] == tag(ENTITY_TABLE, TAG_BYTES);
    }

    /** @return a copy of the update's serialized bytes */
    byte[] bytes(int i) {
        int start = starts[i] + LENGTH_PREFIX;
        return Arrays.copyOfRange(buf, start, start + (int) readLength(starts[i]));
    }

    /** Appends a copy of {@code from}'s update {@code i} with another type. */
    void addRetyped(EncodedUpdates from, int i, Update.Type type) {
        int start = from.starts[i];
        int n = LENGTH_PREFIX + (int) from.readLength(start);
        ensure(n);
        started(pos);
        System.arraycopy(from.buf, start, buf, pos, n);
        buf[pos + LENGTH_PREFIX + 1] = (byte) type.getNumber();
        pos += n;
    }

    /** @return the serialized length of the updates as repeated message field {@code field} (below 16) */
    int fieldLength(int field) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            int length = (int) readLength(starts[i]);
            n += 1 + varintSize(length) + length;
        }
        return n;
    }

    /** Writes the updates as repeated message field {@code field} (below 16), as protobuf serializes them. */
    void writeAsField(int field, OutputStream out) throws IOException {
        byte[] prefix = new byte[1 + 5];
        prefix[0] = tag(field, TAG_BYTES);
        for (int i = 0; i < count; i++) {
            int length = (int) readLength(starts[i]);
            int prefixEnd = writeVarint(prefix, 1, length);
            out.write(prefix, 0, prefixEnd);
            out.write(buf, starts[i] + LENGTH_PREFIX, length);
        }
    }

    /** @return the updates as protobuf objects */
    List<Update> toUpdates() {
        List<Update> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            try {
                out.add(Update.parseFrom(ByteBuffer.wrap(buf, starts[i] + LENGTH_PREFIX, (int) readLength(starts[i]))));
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("update " + i + " does not parse", e);
            }
        }
        return out;
    }

    /** Appends a protobuf update (one the PI path built), serialized by protobuf. */
    void add(Update u) {
        int n = u.getSerializedSize();
        ensure(LENGTH_PREFIX + n);
        started(pos);
        writeLength(pos, n);
        CodedOutputStream cos = CodedOutputStream.newInstance(buf, pos + LENGTH_PREFIX, n);
        try {
            u.writeTo(cos);
        } catch (IOException e) {
            throw new IllegalStateException("update sized short", e);
        }
        pos += LENGTH_PREFIX + n;
    }

    /** @return a mark of what is written so far, for {@link #reset} */
    long mark() {
        return ((long) count << 32) | pos;
    }

    /** Forgets what was written since the mark (an entity declined half-way). */
    void reset(long mark) {
        count = (int) (mark >>> 32);
        pos = (int) mark;
    }

    // ---- writing an update field by field

    /** Starts an update of the type: its type and the entity's tag; {@code entityField} the entity's oneof. */
    void beginUpdate(Update.Type type, int entityField) {
        ensure(LENGTH_PREFIX + 2);
        updateStart = pos;
        pos += LENGTH_PREFIX;
        varint(UPDATE_TYPE, type.getNumber());
        entityMark = open(UPDATE_ENTITY);
        kindMark = open(entityField);
    }

    /** Ends the update begun last. */
    void endUpdate() {
        close(kindMark);
        close(entityMark);
        started(updateStart);
        writeLength(updateStart, pos - updateStart - LENGTH_PREFIX);
    }

    /** Opens a nested message field. @return its mark, for {@link #close} */
    int open(int field) {
        ensure(2);
        buf[pos++] = tag(field, TAG_BYTES);
        buf[pos++] = 0; // its length, one byte until close knows better
        return pos - 1;
    }

    /** Closes the nested message whose length byte is at the mark, moving its bytes if the length takes more. */
    void close(int mark) {
        int n = pos - mark - 1;
        int extra = varintSize(n) - 1;
        if (extra > 0) {
            ensure(extra);
            System.arraycopy(buf, mark + 1, buf, mark + 1 + extra, n);
            pos += extra;
        }
        writeVarint(mark, n);
    }

    /** A varint field (uint32, int32, int64), left out when zero as protobuf leaves it out. */
    void varint(int field, long v) {
        if (v != 0) {
            ensure(11);
            buf[pos++] = tag(field, TAG_VARINT);
            pos = writeVarint(pos, v);
        }
    }

    /** A bytes field: {@code v} big-endian over {@code length} bytes (v fits them). */
    void bytes(int field, long v, int length) {
        if (length == 0) {
            return; // empty bytes, left out
        }
        ensure(2 + length + 1);
        buf[pos++] = tag(field, TAG_BYTES);
        pos = writeVarint(pos, length);
        for (int i = length - 1; i >= 0; i--, v >>>= Byte.SIZE) {
            buf[pos + i] = (byte) v;
        }
        pos += length;
    }

    /** An empty nested message that is present (as an Index of 0 or counter data of zeros is). */
    void empty(int field) {
        ensure(2);
        buf[pos++] = tag(field, TAG_BYTES);
        buf[pos++] = 0;
    }

    /** Records that an update starts at {@code at}. */
    private void started(int at) {
        starts = count < starts.length ? starts : Arrays.copyOf(starts, 2 * starts.length);
        starts[count++] = at;
    }

    private static byte tag(int field, int wireType) {
        return (byte) (field << 3 | wireType);
    }

    private static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private int writeVarint(int at, long v) {
        return writeVarint(buf, at, v);
    }

    private static int writeVarint(byte[] to, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            to[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        to[at++] = (byte) v;
        return at;
    }

    private void writeLength(int at, int n) {
        buf[at] = (byte) n;
        buf[at + 1] = (byte) (n >>> 8);
        buf[at + 2] = (byte) (n >>> 16);
        buf[at + 3] = (byte) (n >>> 24);
    }

    private long readLength(int at) {
        return (buf[at] & 0xFFL) | (buf[at + 1] & 0xFFL) << 8 | (buf[at + 2] & 0xFFL) << 16
                | (buf[at + 3] & 0xFFL) << 24;
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(pos + more, 2 * buf.length));
        }
    }
}

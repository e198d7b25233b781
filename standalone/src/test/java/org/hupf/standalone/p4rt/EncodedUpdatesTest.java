package org.hupf.standalone.p4rt;

import com.google.protobuf.ByteString;
import org.junit.Test;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

/**
 * What the UPF entities never reach: nested messages of 128 bytes and more, whose lengths take two varint bytes and
 * move what was written after them, at every level; negative and wide varints; the frame layout of the bytes.
 */
public class EncodedUpdatesTest {

    @Test
    public void longNestedMessagesAreProtobufsBytes() throws Exception {
        for (int matches : new int[]{1, 5, 40, 400}) {
            for (int width : new int[]{1, 4, 127, 130, 300}) {
                EncodedUpdates out = new EncodedUpdates(0);
                out.add(Update.newBuilder().setType(Update.Type.DELETE).build());
                out.beginUpdate(Update.Type.INSERT, EncodedUpdates.ENTITY_TABLE);
                out.varint(1, 0xFFFFFFFFL);
                TableEntry.Builder expected = TableEntry.newBuilder().setTableId(0xFFFFFFFF);
                for (int i = 0; i < matches; i++) {
                    int match = out.open(2);
                    out.varint(1, i);
                    int exact = out.open(2);
                    out.bytes(1, i, width);
                    out.close(exact);
                    out.close(match);
                    byte[] value = new byte[width];
                    for (int b = 0, v = i; b < width && v != 0; b++, v >>>= 8) {
                        value[width - 1 - b] = (byte) v;
                    }
                    expected.addMatch(FieldMatch.newBuilder().setFieldId(i).setExact(
                            FieldMatch.Exact.newBuilder().setValue(ByteString.copyFrom(value))));
                }
                out.varint(4, -7);
                expected.setPriority(-7);
                out.endUpdate();
                Update u = Update.newBuilder().setType(Update.Type.INSERT)
                        .setEntity(Entity.newBuilder().setTableEntry(expected)).build();
                String what = matches + " matches of " + width + " bytes";
                assertArrayEquals(what, u.toByteArray(), out.bytes(1));
                assertEquals(what, Update.Type.INSERT, out.type(1));
                assertEquals(what, true, out.tableEntry(1));
                assertEquals(what, u, out.toUpdates().get(1));

                ByteBuffer frame = ByteBuffer.allocate(out.length()).order(ByteOrder.LITTLE_ENDIAN);
                out.copyTo(frame);
                frame.flip();
                assertEquals(what, 2, frame.getInt());
                frame.position(frame.position() + 2);
                assertEquals(what, u.getSerializedSize(), frame.getInt());
                assertEquals(what, u.getSerializedSize(), frame.remaining());
            }
        }
    }
}

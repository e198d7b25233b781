package org.hupf.core.pfcp.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * The IEs of a received message as spans of its datagram (TS 29.244 §8.1.1), found in one walk over it that checks
 * every length and the nesting as it meets them: for each IE its type, its value's bounds, its next sibling and, for
 * a grouped IE, its first child. A typed decoder reads the values where they lie: no object per IE, no value copied.
 * An IE is its index here; {@link #MESSAGE} is the message's top level. Enterprise IEs (type bit 15) are kept in
 * the walk and skipped by the lookups.
 */
public final class IeSpans {

    /** The container that is the message's top level. */
    public static final int MESSAGE = -1;
    /** Nesting limit for grouped IEs: the spec's deepest is 3 (e.g. Create PDR / PDI / ...). */
    private static final int MAX_DEPTH = 8;
    /** The IE's type (high 16 bits) and its value's length (low 16). */
    private static final int TYPE_LENGTH = 0;
    private static final int START = 1;
    /**
     * The IE's next sibling (low 16 bits) and a grouped IE's first child (high 16), each as its index plus 1 (0:
     * none; a datagram holds fewer than 2^14 IEs); an enterprise IE's enterprise id in the high 16 bits.
     */
    private static final int LINKS = 2;
    private static final int FIELDS = 3;

    private final byte[] buf;
    private final int messageType;
    /** {@link #FIELDS} ints per IE, in the order the walk met them. */
    private int[] ies;
    private int count;
    private final int first;
    /** The one reader the decoders share: each reads one value to its end before the next is asked for. */
    private final IeReader reader;

    /**
     * Walks the IEs of {@code buf[start, end)}.
     *
     * @param messageType the message's type, named when a mandatory IE is missing at its top level
     * @throws DecodeException an IE that runs past its container, a grouped IE nested too deep, an enterprise IE
     *                         without its id
     */
    IeSpans(int messageType, byte[] buf, int start, int end) throws DecodeException {
        this.buf = buf;
        this.messageType = messageType;
        this.reader = new IeReader(0, buf, start, start);
        // Room for what a request commonly holds, an IE every 6 bytes: grown only for denser messages.
        this.ies = new int[FIELDS * ((end - start) / 6 + 1)];
        this.first = walk(start, end, 0);
    }

    private int walk(int start, int end, int depth) throws DecodeException {
        int head = -1;
        int prev = -1;
        int pos = start;
        while (pos < end) {
            if (end - pos < 4) {
                throw new DecodeException(DecodeException.Kind.INVALID_LENGTH, 0, pos,
                                          (end - pos) + " trailing byte(s) cannot hold an IE header");
            }
            int type = ((buf[pos] & 0xff) << 8) | (buf[pos + 1] & 0xff);
            int length = ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
            int valueStart = pos + 4;
            int valueEnd = valueStart + length;
            if (valueEnd > end) {
                throw new DecodeException(DecodeException.Kind.INVALID_LENGTH, type, pos,
                                          "IE length " + length + " runs " + (valueEnd - end)
                                                  + " byte(s) past its container");
            }
            int ie = add(type, valueStart, length);
            if (prev < 0) {
                head = ie;
            } else {
                ies[prev * FIELDS + LINKS] |= ie + 1;
            }
            prev = ie;
            if ((type & 0x8000) != 0) {
                if (length < 2) {
                    throw new DecodeException(DecodeException.Kind.INVALID_LENGTH, type, pos,
                                              "enterprise IE of length " + length + " has no enterprise id");
                }
                ies[ie * FIELDS + LINKS] = ((buf[valueStart] & 0xff) << 8 | (buf[valueStart + 1] & 0xff)) << 16;
                ies[ie * FIELDS + START] = valueStart + 2;
                ies[ie * FIELDS + TYPE_LENGTH] -= 2;
            } else if (IeType.isGrouped(type)) {
                if (depth >= MAX_DEPTH) {
                    throw new DecodeException(DecodeException.Kind.MANDATORY_IE_INCORRECT, type, pos,
                                              "grouped IEs nested deeper than " + MAX_DEPTH);
                }
                // Read apart from the store: the walk may grow the array the store would go to.
                int child = walk(valueStart, valueEnd, depth + 1);
                ies[ie * FIELDS + LINKS] |= (child + 1) << 16;
            }
            pos = valueEnd;
        }
        return head;
    }

    private int add(int type, int start, int length) {
        if ((count + 1) * FIELDS > ies.length) {
            int[] grown = new int[ies.length * 2];
            System.arraycopy(ies, 0, grown, 0, ies.length);
            ies = grown;
        }
        int at = count * FIELDS;
        ies[at + TYPE_LENGTH] = type << 16 | length;
        ies[at + START] = start;
        ies[at + LINKS] = 0;
        return count++;
    }

    /** @return the first IE in a container (the message or a grouped IE), -1 if it holds none */
    public int first(int container) {
        return container == MESSAGE ? first : (ies[container * FIELDS + LINKS] >>> 16) - 1;
    }

    /** @return the IE after {@code ie} in its container, -1 after the last */
    public int next(int ie) {
        return (ies[ie * FIELDS + LINKS] & 0xffff) - 1;
    }

    public int type(int ie) {
        return ies[ie * FIELDS + TYPE_LENGTH] >>> 16;
    }

    private int end(int ie) {
        return ies[ie * FIELDS + START] + (ies[ie * FIELDS + TYPE_LENGTH] & 0xffff);
    }

    public boolean isEnterprise(int ie) {
        return (type(ie) & 0x8000) != 0;
    }

    private boolean isGrouped(int ie) {
        return !isEnterprise(ie) && IeType.isGrouped(type(ie));
    }

    /** @return the first IE of a type in a container, enterprise IEs aside; -1 if there is none */
    public int child(int container, int type) {
        for (int ie = first(container); ie >= 0; ie = next(ie)) {
            if (type(ie) == type && !isEnterprise(ie)) {
                return ie;
            }
        }
        return -1;
    }

    /**
     * Returns the first IE of a type in a container or fails with Mandatory IE missing.
     *
     * @throws DecodeException if there is none
     */
    public int require(int container, int type) throws DecodeException {
        int ie = child(container, type);
        if (ie < 0) {
            throw Ie.missing(type, container == MESSAGE ? "in message type " + messageType
                    : "in " + IeType.name(type(container)));
        }
        return ie;
    }

    /** @return how many IEs of a type a container holds, enterprise IEs aside */
    int count(int container, int type) {
        int n = 0;
        for (int ie = first(container); ie >= 0; ie = next(ie)) {
            if (type(ie) == type && !isEnterprise(ie)) {
                n++;
            }
        }
        return n;
    }

    /** @return the shared reader, set on an IE's value (empty for a grouped IE, as {@link Ie#reader()}) */
    public IeReader reader(int ie) {
        int start = ies[ie * FIELDS + START];
        return reader.at(type(ie), start, isGrouped(ie) ? start : end(ie));
    }

    /** @return the IEs of a container as {@link Ie} objects, values copied (the message as a tree) */
    List<Ie> tree(int container) {
        List<Ie> out = new ArrayList<>();
        for (int ie = first(container); ie >= 0; ie = next(ie)) {
            if (isEnterprise(ie)) {
                out.add(Ie.enterprise(type(ie), ies[ie * FIELDS + LINKS] >>> 16, copy(ie)));
            } else if (isGrouped(ie)) {
                out.add(Ie.grouped(type(ie), tree(ie)));
            } else {
                out.add(Ie.owning(type(ie), copy(ie)));
            }
        }
        return out;
    }

    private byte[] copy(int ie) {
        int start = ies[ie * FIELDS + START];
        byte[] out = new byte[end(ie) - start];
        System.arraycopy(buf, start, out, 0, out.length);
        return out;
    }
}

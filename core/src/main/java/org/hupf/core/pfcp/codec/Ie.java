package org.hupf.core.pfcp.codec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One PFCP information element: a leaf with a raw value, or a grouped IE with child IEs.
 * Enterprise-specific IEs (type bit 15 set) keep their enterprise id and are otherwise opaque.
 */
public final class Ie implements IeContainer {

    private final int type;
    private final int enterpriseId;
    private final byte[] value;
    private final List<Ie> children;

    private Ie(int type, int enterpriseId, byte[] value, List<Ie> children) {
        this.type = type;
        this.enterpriseId = enterpriseId;
        this.value = value;
        this.children = children;
    }

    /**
     * Creates a leaf IE.
     *
     * @param type  IE type
     * @param value encoded value
     * @return IE
     */
    public static Ie leaf(int type, byte[] value) {
        return new Ie(type, -1, value.clone(), null);
    }

    /**
     * Creates a grouped IE.
     *
     * @param type     IE type
     * @param children child IEs in order
     * @return IE
     */
    public static Ie grouped(int type, List<Ie> children) {
        return new Ie(type, -1, null, List.copyOf(children));
    }

    /**
     * Creates a grouped IE.
     *
     * @param type     IE type
     * @param children child IEs in order
     * @return IE
     */
    public static Ie grouped(int type, Ie... children) {
        return grouped(type, Arrays.asList(children));
    }

    /** A leaf over a value no one else holds: the codec's own copies are not copied again. */
    static Ie owning(int type, byte[] value) {
        return new Ie(type, -1, value, null);
    }

    static Ie enterprise(int type, int enterpriseId, byte[] value) {
        return new Ie(type, enterpriseId, value, null);
    }

    public static Ie u8(int type, int v) {
        return leaf(type, new byte[]{(byte) v});
    }

    public static Ie u16(int type, int v) {
        return leaf(type, ByteBuffer.allocate(2).putShort((short) v).array());
    }

    public static Ie u32(int type, long v) {
        return leaf(type, ByteBuffer.allocate(4).putInt((int) v).array());
    }

    public int type() {
        return type;
    }

    public boolean isEnterprise() {
        return enterpriseId >= 0;
    }

    public int enterpriseId() {
        return enterpriseId;
    }

    public boolean isGrouped() {
        return children != null;
    }

    /** @return a copy of the raw value (empty for a grouped IE) */
    public byte[] value() {
        return value == null ? new byte[0] : value.clone();
    }

    /** @return child IEs (empty for a leaf) */
    public List<Ie> children() {
        return children == null ? Collections.emptyList() : children;
    }

    @Override
    public Ie child(int childType) {
        return first(children(), childType);
    }

    @Override
    public List<Ie> all(int childType) {
        return all(children(), childType);
    }

    @Override
    public Ie require(int childType) throws DecodeException {
        Ie ie = first(children(), childType);
        if (ie == null) {
            throw missing(childType, "in " + IeType.name(type));
        }
        return ie;
    }

    // Indexed loops: the lists are the codec's random-access copies, and a request visits them dozens of times.
    static Ie first(List<Ie> ies, int type) {
        for (int i = 0, n = ies.size(); i < n; i++) {
            Ie ie = ies.get(i);
            if (ie.type == type && !ie.isEnterprise()) {
                return ie;
            }
        }
        return null;
    }

    static List<Ie> all(List<Ie> ies, int type) {
        List<Ie> out = new ArrayList<>();
        for (int i = 0, n = ies.size(); i < n; i++) {
            Ie ie = ies.get(i);
            if (ie.type == type && !ie.isEnterprise()) {
                out.add(ie);
            }
        }
        return out;
    }

    static DecodeException missing(int type, String where) {
        return new DecodeException(DecodeException.Kind.MANDATORY_IE_MISSING, type, -1,
                                   "mandatory IE missing " + where);
    }

    /**
     * Returns a reader over the value that reports short values as Mandatory IE incorrect.
     *
     * @return reader
     */
    public IeReader reader() {
        byte[] v = value == null ? new byte[0] : value;
        return new IeReader(type, v, 0, v.length);
    }

    void encode(IeWriter out) {
        int at = out.begin(type);
        if (isEnterprise()) {
            out.u16(enterpriseId);
        }
        if (children != null) {
            for (int i = 0, n = children.size(); i < n; i++) {
                children.get(i).encode(out);
            }
        } else {
            out.bytes(value);
        }
        out.end(at);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Ie)) {
            return false;
        }
        Ie that = (Ie) o;
        return type == that.type && enterpriseId == that.enterpriseId && Arrays.equals(value, that.value)
                && Objects.equals(children, that.children);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, enterpriseId, Arrays.hashCode(value), children);
    }

    @Override
    public String toString() {
        if (children != null) {
            return IeType.name(type) + children.stream().map(Ie::toString)
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : value) {
            hex.append(String.format("%02x", b));
        }
        return (isEnterprise() ? "Enterprise(" + enterpriseId + ")" : "") + IeType.name(type) + "=" + hex;
    }
}

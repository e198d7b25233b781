package org.hupf.core.pfcp.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * The descriptor of one leaf IE type (TS 29.244 §8.2): its type, its layout (a fixed length, or a variable
 * one with a minimum) and the decoder and encoder of its typed value. A fixed-length value shorter than its
 * layout, a variable one the decoder runs past, or a value out of range is a Mandatory IE incorrect fault
 * naming the IE and the offset in its value; the encoder's output is checked against the layout.
 *
 * @param <T> the typed value
 */
public final class IeField<T> {

    /** Reads a value; running past its end or meeting a value out of range throws. */
    @FunctionalInterface
    public interface Decoder<T> {
        T read(IeReader r) throws DecodeException;
    }

    /** Writes a value. */
    @FunctionalInterface
    public interface Encoder<T> {
        void write(T value, IeWriter w);
    }

    public final int type;
    private final int length;
    private final boolean fixed;
    private final Decoder<T> decoder;
    private final Encoder<T> encoder;

    private IeField(int type, int length, boolean fixed, Decoder<T> decoder, Encoder<T> encoder) {
        this.type = type;
        this.length = length;
        this.fixed = fixed;
        this.decoder = decoder;
        this.encoder = encoder;
    }

    /**
     * Describes an IE whose value always has {@code length} octets.
     *
     * @param type    IE type
     * @param length  octets of the value
     * @param decoder value decoder
     * @param encoder value encoder
     * @param <T>     value type
     * @return descriptor
     */
    public static <T> IeField<T> fixed(int type, int length, Decoder<T> decoder, Encoder<T> encoder) {
        return new IeField<>(type, length, true, decoder, encoder);
    }

    /**
     * Describes an IE whose value has at least {@code minLength} octets, more depending on its flags.
     *
     * @param type      IE type
     * @param minLength fewest octets a value has
     * @param decoder   value decoder
     * @param encoder   value encoder
     * @param <T>       value type
     * @return descriptor
     */
    public static <T> IeField<T> variable(int type, int minLength, Decoder<T> decoder, Encoder<T> encoder) {
        return new IeField<>(type, minLength, false, decoder, encoder);
    }

    /**
     * Decodes an IE of this type.
     *
     * @param ie IE
     * @return value
     * @throws DecodeException Mandatory IE incorrect if the value is short or out of range
     */
    public T decode(Ie ie) throws DecodeException {
        return read(ie.reader());
    }

    private T read(IeReader r) throws DecodeException {
        if (fixed) {
            r.need(length);
        }
        return decoder.read(r);
    }

    /**
     * Decodes an IE of this type where it lies in a received message.
     *
     * @param ies the message's IEs
     * @param ie  the IE
     * @return value
     * @throws DecodeException Mandatory IE incorrect if the value is short or out of range
     */
    public T decode(IeSpans ies, int ie) throws DecodeException {
        return read(ies.reader(ie));
    }

    /**
     * Decodes the first IE of this type in a container of a received message.
     *
     * @param ies       the message's IEs
     * @param container {@link IeSpans#MESSAGE} or a grouped IE
     * @return value, or null if absent
     * @throws DecodeException if the IE is malformed
     */
    public T optional(IeSpans ies, int container) throws DecodeException {
        int ie = ies.child(container, type);
        return ie < 0 ? null : decode(ies, ie);
    }

    /**
     * Decodes a mandatory IE of this type in a container of a received message.
     *
     * @param ies       the message's IEs
     * @param container {@link IeSpans#MESSAGE} or a grouped IE
     * @return value
     * @throws DecodeException Mandatory IE missing if absent, or the IE's fault
     */
    public T require(IeSpans ies, int container) throws DecodeException {
        return decode(ies, ies.require(container, type));
    }

    /**
     * Decodes every IE of this type in a container of a received message, in order.
     *
     * @param ies       the message's IEs
     * @param container {@link IeSpans#MESSAGE} or a grouped IE
     * @return values (immutable: the typed request keeps them as they are)
     * @throws DecodeException if one is malformed
     */
    public List<T> all(IeSpans ies, int container) throws DecodeException {
        int n = ies.count(container, type);
        if (n <= 1) {
            return n == 0 ? List.of() : List.of(decode(ies, ies.child(container, type)));
        }
        List<T> out = new ArrayList<>(n);
        for (int ie = ies.first(container); ie >= 0; ie = ies.next(ie)) {
            if (ies.type(ie) == type && !ies.isEnterprise(ie)) {
                out.add(decode(ies, ie));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Encodes a value as an IE of this type.
     *
     * @param value value
     * @return IE
     * @throws IllegalStateException if the encoder broke the layout (a bug, not bad input)
     */
    public Ie encode(T value) {
        IeWriter w = new IeWriter();
        encoder.write(value, w);
        checkLayout(w.length());
        return Ie.owning(type, w.toByteArray());
    }

    /**
     * Writes a value as an IE of this type, header and value, into a message being written.
     *
     * @param value value
     * @param out   the message's writer
     * @throws IllegalStateException if the encoder broke the layout (a bug, not bad input)
     */
    void write(T value, IeWriter out) {
        int at = out.begin(type);
        encoder.write(value, out);
        checkLayout(out.length() - at - 4);
        out.end(at);
    }

    private void checkLayout(int octets) {
        if (fixed ? octets != length : octets < length) {
            throw new IllegalStateException(IeType.name(type) + " encoded in " + octets + " octets, layout "
                                                    + (fixed ? "" : "at least ") + length);
        }
    }

    /**
     * Decodes the first child of this type in a message or grouped IE.
     *
     * @param group message or grouped IE
     * @return value, or null if absent
     * @throws DecodeException if the child is malformed
     */
    public T optional(IeContainer group) throws DecodeException {
        Ie ie = group.child(type);
        return ie == null ? null : decode(ie);
    }

    /**
     * Decodes a mandatory child of this type in a message or grouped IE.
     *
     * @param group message or grouped IE
     * @return value
     * @throws DecodeException Mandatory IE missing if absent, or the child's fault
     */
    public T require(IeContainer group) throws DecodeException {
        return decode(group.require(type));
    }

    /**
     * Decodes every child of this type in a message or grouped IE, in order.
     *
     * @param group message or grouped IE
     * @return values
     * @throws DecodeException if one is malformed
     */
    public List<T> all(IeContainer group) throws DecodeException {
        List<T> out = new ArrayList<>();
        for (Ie ie : group.all(type)) {
            out.add(decode(ie));
        }
        return out;
    }
}

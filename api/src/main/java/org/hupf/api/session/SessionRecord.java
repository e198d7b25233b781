package org.hupf.api.session;

import org.hupf.pipeconf.api.Ip4Bits;
import org.onlab.packet.Ip4Address;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session as the stores keep it (the host's file, ONOS's distributed store): a compact binary record (every field of {@link PfcpSession} and its rules, in
 * a fixed order, absent values flagged), which a restart at 100,000 sessions decodes in a fraction of what their
 * JSON form took. The first byte is the record's version, so that a later layout can still read this one.
 */
public final class SessionRecord {

    /** The layout this code writes and reads. */
    public static final byte VERSION = 1;

    private SessionRecord() {
    }

    /**
     * Encodes a session.
     *
     * @param s session
     * @return its record
     */
    public static byte[] encode(PfcpSession s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        Out out = new Out(bytes);
        try {
            out.writeByte(VERSION);
            out.writeLong(s.upSeid);
            out.writeLong(s.cpSeid);
            out.string(s.cpAddress);
            out.string(s.nodeId);
            out.writeInt(s.pdrs.size());
            for (Pdr p : s.pdrs.values()) {
                pdr(out, p);
            }
            out.writeInt(s.fars.size());
            for (Far f : s.fars.values()) {
                out.writeLong(f.farId);
                out.writeInt(f.applyAction);
                out.optInt(f.destinationInterface);
                out.optLong(f.ohcTeid);
                out.address(f.ohcAddress);
                out.optInt(f.barId);
                out.string(f.networkInstance);
            }
            out.writeInt(s.qers.size());
            for (Qer q : s.qers.values()) {
                out.writeLong(q.qerId);
                out.writeBoolean(q.uplinkGateClosed);
                out.writeBoolean(q.downlinkGateClosed);
                out.optLong(q.mbrUplink);
                out.optLong(q.mbrDownlink);
                out.optLong(q.gbrUplink);
                out.optLong(q.gbrDownlink);
                out.optInt(q.qfi);
            }
            out.writeInt(s.urrs.size());
            for (Urr u : s.urrs.values()) {
                out.writeLong(u.urrId);
                out.writeInt(u.measurementMethod);
                out.writeInt(u.reportingTriggers);
                out.optLong(u.measurementPeriod);
                out.optLong(u.volumeThresholdTotal);
                out.optLong(u.volumeThresholdUplink);
                out.optLong(u.volumeThresholdDownlink);
            }
            out.writeInt(s.allocations.size());
            for (Map.Entry<String, Integer> a : s.allocations.entrySet()) {
                out.string(a.getKey());
                out.writeInt(a.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    private static void pdr(Out out, Pdr p) throws IOException {
        out.writeInt(p.pdrId);
        out.writeLong(p.precedence);
        out.writeInt(p.sourceInterface);
        out.optLong(p.teid);
        out.address(p.tunnelAddress);
        out.writeBoolean(p.choose);
        out.optInt(p.chooseId);
        out.address(p.ueAddress);
        out.writeInt(p.sdfFilters.size());
        for (String f : p.sdfFilters) {
            out.string(f);
        }
        out.optInt(p.qfi);
        out.optInt(p.outerHeaderRemoval);
        out.string(p.networkInstance);
        out.optLong(p.farId);
        out.longs(p.qerIds);
        out.longs(p.urrIds);
    }

    /**
     * Decodes a record.
     *
     * @param record a record
     * @return its session
     * @throws IllegalArgumentException if it is not a whole record of a known version
     */
    public static PfcpSession decode(byte[] record) {
        return decode(ByteBuffer.wrap(record));
    }

    /**
     * Decodes the record that fills a buffer from its position to its limit (the buffer wraps a whole array).
     *
     * @param record the record's bytes
     * @return its session
     * @throws IllegalArgumentException if it is not a whole record of a known version
     */
    public static PfcpSession decode(ByteBuffer record) {
        In in = new In(record);
        try {
            byte version = in.b.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("record version " + version + ", this host reads " + VERSION);
            }
            long upSeid = in.b.getLong();
            long cpSeid = in.b.getLong();
            String cpAddress = in.string();
            String nodeId = in.string();
            Map<Integer, Pdr> pdrs = new HashMap<>();
            for (int i = in.count(); i > 0; i--) {
                Pdr p = pdr(in);
                pdrs.put(p.pdrId, p);
            }
            Map<Long, Far> fars = new HashMap<>();
            for (int i = in.count(); i > 0; i--) {
                Far f = new Far(in.b.getLong(), in.b.getInt(), in.optInt(), in.optLong(), in.address(), in.optInt(),
                                in.string());
                fars.put(f.farId, f);
            }
            Map<Long, Qer> qers = new HashMap<>();
            for (int i = in.count(); i > 0; i--) {
                Qer q = new Qer(in.b.getLong(), in.bool(), in.bool(), in.optLong(), in.optLong(), in.optLong(),
                                in.optLong(), in.optInt());
                qers.put(q.qerId, q);
            }
            Map<Long, Urr> urrs = new HashMap<>();
            for (int i = in.count(); i > 0; i--) {
                Urr u = new Urr(in.b.getLong(), in.b.getInt(), in.b.getInt(), in.optLong(), in.optLong(), in.optLong(),
                                in.optLong());
                urrs.put(u.urrId, u);
            }
            Map<String, Integer> allocations = new HashMap<>();
            for (int i = in.count(); i > 0; i--) {
                allocations.put(in.string(), in.b.getInt());
            }
            if (in.b.hasRemaining()) {
                throw new IllegalArgumentException(in.b.remaining() + " bytes after the record");
            }
            return new PfcpSession(upSeid, cpSeid, cpAddress, nodeId, pdrs, fars, qers, urrs, allocations);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("record ends at byte " + in.b.position() + " of " + in.b.limit());
        }
    }

    private static Pdr pdr(In in) {
        int pdrId = in.b.getInt();
        long precedence = in.b.getLong();
        int sourceInterface = in.b.getInt();
        Long teid = in.optLong();
        Ip4Address tunnelAddress = in.address();
        boolean choose = in.bool();
        Integer chooseId = in.optInt();
        Ip4Address ueAddress = in.address();
        List<String> sdfFilters = new ArrayList<>();
        for (int i = in.count(); i > 0; i--) {
            sdfFilters.add(in.string());
        }
        return new Pdr(pdrId, precedence, sourceInterface, teid, tunnelAddress, choose, chooseId, ueAddress,
                       sdfFilters, in.optInt(), in.optInt(), in.string(), in.optLong(), in.longs(), in.longs());
    }

    /** Absent values are a 0 flag byte; strings are their UTF-8 length (-1: absent) and bytes. */
    private static final class Out extends DataOutputStream {

        Out(ByteArrayOutputStream bytes) {
            super(bytes);
        }

        void optLong(Long v) throws IOException {
            writeBoolean(v != null);
            if (v != null) {
                writeLong(v);
            }
        }

        void optInt(Integer v) throws IOException {
            writeBoolean(v != null);
            if (v != null) {
                writeInt(v);
            }
        }

        void address(Ip4Address a) throws IOException {
            writeBoolean(a != null);
            if (a != null) {
                writeInt(Ip4Bits.of(a));
            }
        }

        void string(String s) throws IOException {
            if (s == null) {
                writeInt(-1);
                return;
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            writeInt(utf8.length);
            write(utf8);
        }

        void longs(List<Long> values) throws IOException {
            writeInt(values.size());
            for (long v : values) {
                writeLong(v);
            }
        }
    }

    private static final class In {

        final ByteBuffer b;

        In(ByteBuffer b) {
            this.b = b;
        }

        boolean bool() {
            byte v = b.get();
            if (v != 0 && v != 1) {
                throw new IllegalArgumentException("flag " + v + " at byte " + (b.position() - 1));
            }
            return v == 1;
        }

        /** A count of elements that follow, at least one byte each: bounded by what is left. */
        int count() {
            int n = b.getInt();
            if (n < 0 || n > b.remaining()) {
                throw new IllegalArgumentException("count " + n + " at byte " + (b.position() - 4));
            }
            return n;
        }

        Long optLong() {
            return bool() ? b.getLong() : null;
        }

        Integer optInt() {
            return bool() ? b.getInt() : null;
        }

        Ip4Address address() {
            return bool() ? Ip4Address.valueOf(b.getInt()) : null;
        }

        String string() {
            int n = b.getInt();
            if (n == -1) {
                return null;
            }
            if (n < 0 || n > b.remaining()) {
                throw new IllegalArgumentException("string length " + n + " at byte " + (b.position() - 4));
            }
            String s = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
            b.position(b.position() + n);
            return s;
        }

        List<Long> longs() {
            int n = count();
            List<Long> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(b.getLong());
            }
            return out;
        }
    }
}

package org.hupf.core.pfcp.codec;

import org.junit.Test;

import java.util.Map;
import java.util.Random;

import static org.junit.Assert.assertTrue;

/**
 * Bounded random-mutation fuzz of the decoder, the field table's decoders and the request decoder, seeded
 * for reproducibility: every mutant either decodes or fails with {@link DecodeException}; nothing else escapes.
 */
public class DecoderFuzzTest {

    private static final long SEED = 0x5eed_f00dL;
    private static final int ITERATIONS = 20_000;
    private static final String[] SEEDS = {
        "session_establishment_request", "session_modification_request", "session_report_request",
        "association_setup_request", "heartbeat_request", "session_deletion_response",
    };

    @Test
    public void mutantsDecodeOrFailWithDecodeExceptionOnly() throws Exception {
        Random rnd = new Random(SEED);
        byte[][] corpus = new byte[SEEDS.length][];
        for (int i = 0; i < SEEDS.length; i++) {
            corpus[i] = PfcpCodecTest.vector(SEEDS[i]);
        }
        int decoded = 0;
        int rejected = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            byte[] b = mutate(corpus[rnd.nextInt(corpus.length)], rnd);
            int len = rnd.nextInt(8) == 0 ? rnd.nextInt(b.length + 1) : b.length;
            try {
                PfcpMessage m = PfcpCodec.decode(b, len);
                decodeTyped(m);
                decoded++;
            } catch (DecodeException e) {
                rejected++;
            }
        }
        assertTrue("decoded " + decoded, decoded > ITERATIONS / 20);
        assertTrue("rejected " + rejected, rejected > ITERATIONS / 20);
    }

    private static byte[] mutate(byte[] in, Random rnd) {
        byte[] b = in.clone();
        int n = 1 + rnd.nextInt(4);
        for (int k = 0; k < n; k++) {
            int pos = rnd.nextInt(b.length);
            switch (rnd.nextInt(3)) {
                case 0:
                    b[pos] = (byte) rnd.nextInt(256);
                    break;
                case 1:
                    b[pos] ^= (byte) (1 << rnd.nextInt(8));
                    break;
                default:
                    b[pos] = (byte) (rnd.nextBoolean() ? 0 : 0xff);
            }
        }
        return b;
    }

    /**
     * Runs the table's decoder on every leaf IE, and the request decoder on the whole message, so value and
     * request decoding are fuzzed too.
     */
    private static void decodeTyped(PfcpMessage m) throws DecodeException {
        for (Ie ie : m.ies()) {
            walk(ie);
        }
        if (MessageType.isKnownRequest(m.type()) && m.type() != MessageType.SESSION_REPORT_REQUEST) {
            try {
                RequestCodec.decode(m);
            } catch (DecodeException e) {
                // A request with a bad or missing IE inside a well-formed message is a valid outcome.
            }
        }
    }

    private static void walk(Ie ie) {
        for (Ie c : ie.children()) {
            walk(c);
        }
        Map.Entry<IeField<Object>, ?> field = FieldTable.BY_TYPE.get(ie.type());
        if (ie.isGrouped() || ie.isEnterprise() || field == null) {
            return;
        }
        try {
            field.getKey().decode(ie);
        } catch (DecodeException e) {
            // A bad value inside a well-formed message is a valid outcome.
        }
    }
}

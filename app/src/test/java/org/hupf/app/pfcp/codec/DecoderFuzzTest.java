package org.hupf.app.pfcp.codec;

import org.junit.Test;

import java.util.Random;

import static org.junit.Assert.assertTrue;

/**
 * Bounded random-mutation fuzz of the decoder and the typed IE readers, seeded for reproducibility:
 * every mutant either decodes or fails with {@link DecodeException}; nothing else escapes.
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

    /** Runs every typed reader on every IE so value decoding is fuzzed too. */
    private static void decodeTyped(PfcpMessage m) throws DecodeException {
        for (Ie ie : m.ies()) {
            walk(ie);
        }
    }

    private static void walk(Ie ie) throws DecodeException {
        for (Ie c : ie.children()) {
            walk(c);
        }
        if (ie.isGrouped()) {
            return;
        }
        try {
            switch (ie.type()) {
                case IeType.NODE_ID:
                    IeValues.NodeId.decode(ie);
                    break;
                case IeType.F_SEID:
                    IeValues.FSeid.decode(ie);
                    break;
                case IeType.F_TEID:
                    IeValues.FTeid.decode(ie);
                    break;
                case IeType.UE_IP_ADDRESS:
                    IeValues.UeIpAddress.decode(ie);
                    break;
                case IeType.OUTER_HEADER_CREATION:
                    IeValues.OuterHeaderCreation.decode(ie);
                    break;
                case IeType.SDF_FILTER:
                    IeValues.SdfFilter.decode(ie);
                    break;
                case IeType.MBR:
                case IeType.GBR:
                    IeValues.BitRate.decode(ie);
                    break;
                case IeType.VOLUME_THRESHOLD:
                case IeType.VOLUME_MEASUREMENT:
                    IeValues.Volume.decode(ie);
                    break;
                case IeType.FAILED_RULE_ID:
                    IeValues.FailedRuleId.decode(ie);
                    break;
                default:
                    IeValues.flags(ie, 0);
            }
        } catch (DecodeException e) {
            // A bad value inside a well-formed message is a valid outcome.
        }
    }
}

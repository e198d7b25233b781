package org.hupf.standalone.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionRecord;
import org.hupf.api.session.SessionJson;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a restart pays per stored session to decode it: the JSON form the state held before (tree read, then
 * {@link SessionJson#decode}) against {@link SessionRecord}, in alternating rounds of the same JVM, in CPU time of
 * the decoding thread (the machine's load does not enter it). Not a unit test: run
 * {@code java -cp <test classpath> org.hupf.standalone.store.SessionDecodeBench [sessions] [rounds]}.
 */
public final class SessionDecodeBench {

    private SessionDecodeBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        ObjectMapper mapper = new ObjectMapper();
        List<String> json = new ArrayList<>(n);
        List<byte[]> records = new ArrayList<>(n);
        for (long seid = 1; seid <= n; seid++) {
            PfcpSession s = DurableStateTest.session(seid);
            json.add(SessionJson.encode(s).toString());
            records.add(SessionRecord.encode(s));
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[] jsonUs = new double[rounds];
        double[] recordUs = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            for (String j : json) {
                SessionJson.decode(mapper.readTree(j));
            }
            long t1 = cpu.getCurrentThreadCpuTime();
            for (byte[] b : records) {
                SessionRecord.decode(b);
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            jsonUs[r] = (t1 - t0) / 1e3 / n;
            recordUs[r] = (t2 - t1) / 1e3 / n;
        }
        System.out.printf("%d sessions, %d rounds; CPU us per session min/median/max: json %s, record %s;"
                                  + " bytes per session: json %d, record %d%n", n, rounds, spread(jsonUs),
                          spread(recordUs), json.get(0).length(), records.get(0).length);
    }

    private static String spread(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format("%.2f/%.2f/%.2f", s[0], s[s.length / 2], s[s.length - 1]);
    }
}

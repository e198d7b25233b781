package org.hupf.standalone.store;

import java.nio.file.Path;

/**
 * The process {@link DurableStateTest} kills: puts sessions 1..N, printing "committed SEID" once each
 * put has returned (the point where the host would answer the SMF).
 */
public final class DurableStateWriter {

    private DurableStateWriter() {
    }

    public static void main(String[] args) throws Exception {
        DurableState s = DurableState.open(Path.of(args[0]), 50, 1);
        long n = Long.parseLong(args[1]);
        for (long seid = 1; seid <= n; seid++) {
            s.sessions().put(DurableStateTest.session(seid));
            System.out.println("committed " + seid);
            System.out.flush();
        }
    }
}

package org.hupf.standalone.store;

import org.h2.mvstore.MVStore;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The host's state written with sessions as JSON still opens, and is rewritten as binary records. */
public class JsonStateMigrationTest {

    private static final long START = 3_900_000_000L;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void stateWrittenAsJsonStillOpensAndIsRewrittenAsRecords() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("json");
        Files.createDirectories(dir);
        PfcpSession session = DurableStateTest.session(7);
        try (MVStore old = new MVStore.Builder().fileName(dir.resolve(DurableState.FILE).toString()).open()) {
            old.<Long, String>openMap("sessions").put(session.upSeid, SessionJson.encode(session).toString());
            old.<String, Long>openMap("meta").put("recoveryTimeStamp", START);
        }
        try (DurableState s = DurableState.open(dir, 0, START + 60)) {
            assertEquals(session, s.sessions().get(session.upSeid));
            assertEquals(START, s.recoveryTimeStamp());
            s.sessions().put(session);
        }
        try (MVStore reopened = new MVStore.Builder().fileName(dir.resolve(DurableState.FILE).toString()).open()) {
            assertTrue(reopened.<Long, Object>openMap("sessions").get(session.upSeid) instanceof byte[]);
        }
    }

}

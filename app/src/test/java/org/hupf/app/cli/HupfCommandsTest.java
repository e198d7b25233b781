package org.hupf.app.cli;

import org.hupf.api.HupfService;
import org.hupf.core.session.SessionManager;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The hupf: commands and the SEID completer against the real core (only the service lookup replaced).
 */
public class HupfCommandsTest {

    private static final String SESSION = "{\"cpSeid\": 5, \"pdrs\": [{\"pdrId\": 1, \"precedence\": 1, \"pdi\":"
            + " {\"sourceInterface\": \"CORE\", \"ueIpAddress\": \"10.250.0.4\"}, \"farId\": 1}],"
            + " \"fars\": [{\"farId\": 1, \"applyAction\": [\"DROP\"]}]}";

    @Rule
    public final ConsoleCapture console = new ConsoleCapture();
    private HupfService core;
    private InMemoryUpfDevice device;

    @Before
    public void setUp() {
        device = new InMemoryUpfDevice("backend", 64);
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        core = new SessionManagerService(new SessionManager(new InMemorySessionStore(),
                                                            new SessionTranslator(n3, 0, Map.of(), 10),
                                                            new ResourcePool(64, 64), () -> List.of(device), n3),
                                         List.of(Ip4Prefix.valueOf("10.250.0.0/16")));
    }

    private String run(HupfCommand c) throws Exception {
        console.take();
        c.doExecute();
        return console.take();
    }

    private SessionAddCommand add(String json) {
        SessionAddCommand c = new SessionAddCommand() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
        c.json = json;
        return c;
    }

    private SessionRemoveCommand remove(String seid) {
        SessionRemoveCommand c = new SessionRemoveCommand() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
        c.upSeid = seid;
        return c;
    }

    private CountersCommand counters(String seid) {
        CountersCommand c = new CountersCommand() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
        c.upSeid = seid;
        return c;
    }

    private HupfCommand sessions() {
        return new SessionsCommand() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
    }

    @Test
    public void addListCountRemove() throws Exception {
        String created = run(add(SESSION));
        assertTrue(created, created.matches("created session upSeid=[1-9][0-9]*\n"));
        String seid = created.substring("created session upSeid=".length()).trim();
        String list = run(sessions());
        assertTrue(list, list.contains("upSeid=" + seid + " cpSeid=5 node=rest ue=10.250.0.4 pdrs=1 fars=1 qers=0 urrs=0"));
        assertTrue(list, list.endsWith("1 session(s)\n"));

        device.setCounter(UpfCounter.builder().withCellId(1).setIngress(2, 200).setEgress(1, 100).build());
        assertEquals("pdr=1 cell=1 ingress=2 pkts/200 bytes egress=1 pkts/100 bytes\n", run(counters(seid)));

        SessionIdCompleter completer = new SessionIdCompleter() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
        assertEquals(List.of(seid), completer.choices());

        assertEquals("removed session " + seid + "\n", run(remove(seid)));
        assertEquals("no session " + seid + "\n", run(remove(seid)));
        assertEquals("0 session(s)\n", run(sessions()));
        assertEquals(List.of(), completer.choices());
    }

    @Test
    public void badArgumentsArePrintedNotThrown() throws Exception {
        assertTrue(run(add("{\"cpSeid\": 1}")).startsWith("invalid session: $: a session needs"));
        assertTrue(run(add("/nonexistent/session.json")).startsWith("cannot read session JSON"));
        assertTrue(run(add("{\"a\": " + "[".repeat(100_000))).startsWith("invalid session: body nested deeper"));
        assertTrue(run(add(SESSION.replace("\"DROP\"", "\"DUPL\", \"FORW\"")))
                           .startsWith("session refused (PFCP cause 76)"));
        assertEquals("SEID x is not an unsigned 64-bit number\n", run(remove("x")));
        assertEquals("no session 9\n", run(counters("9")));
    }

    @Test
    public void statsAndPeers() throws Exception {
        run(add(SESSION));
        HupfCommand stats = new UpfStatsCommand() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
        String s = run(stats);
        assertTrue(s, s.contains("sessions=1\n"));
        assertTrue(s, s.contains("deviceErrors=0\n"));
        HupfCommand peers = new PfcpPeersCommand() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
        assertEquals("", run(peers));
    }
}

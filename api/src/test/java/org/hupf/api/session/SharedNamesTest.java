package org.hupf.api.session;

import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

/** The names every session repeats (CP function, node, network instance) are held once, whatever decoded them. */
public class SharedNamesTest {

    /** A string equal to {@code s} and not the same object, as each decoded message makes its own. */
    private static String fresh(String s) {
        return new String(s.toCharArray());
    }

    private static PfcpSession session(long upSeid) {
        Pdr pdr = new Pdr(1, 100, Pdr.ACCESS, null, null, false, null, Ip4Address.valueOf("10.0.0.1"), List.of(), null,
                          null, fresh("internet"), 1L, List.of(), List.of());
        Far far = new Far(1, Far.FORW, Far.CORE, null, null, null, fresh("internet"));
        return new PfcpSession(upSeid, upSeid, fresh("10.1.1.1"), fresh("smf-1"), Map.of(1, pdr), Map.of(1L, far),
                               Map.of(), Map.of(), Map.of());
    }

    @Test
    public void twoSessionsShareTheirNames() {
        PfcpSession a = session(1);
        PfcpSession b = session(2);
        assertEquals("10.1.1.1", a.cpAddress);
        assertSame(a.cpAddress, b.cpAddress);
        assertSame(a.nodeId, b.nodeId);
        assertSame(a.pdrs.get(1).networkInstance, b.pdrs.get(1).networkInstance);
        assertSame(a.fars.get(1L).networkInstance, b.fars.get(1L).networkInstance);
    }

    @Test
    public void absentNamesStayAbsent() {
        PfcpSession s = new PfcpSession(1, 1, null, null, Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
        assertNull(s.cpAddress);
        assertNull(s.nodeId);
        assertNull(new Far(1, Far.FORW, Far.CORE, null, null, null).networkInstance);
    }
}

package org.hupf.pipeconf.gnb;

import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.pi.model.PiActionModel;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableModel;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiCloneSessionEntry;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.List;
import java.util.stream.Collectors;

import static org.hupf.pipeconf.gnb.GnbConstants.*;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The gNB entries of the vectors' site and UEs (tests/gnb/gnb_vectors.py) resolve in the committed gNB P4Info as
 * ONOS's parser reads it: every table, match field, action and parameter, each value within its width.
 */
public class GnbEntriesTest {

    private static final GnbSite SITE = new GnbSite(0, 2, 3, Ip4Address.valueOf("10.0.3.1"),
                                                    MacAddress.valueOf("02:00:00:00:03:01"),
                                                    MacAddress.valueOf("02:00:00:00:03:02"),
                                                    MacAddress.valueOf("02:00:00:00:01:01"));
    private static final GnbUe UE0 = new GnbUe(0, 1, MacAddress.valueOf("02:00:00:00:01:10"), 4, 12, 0x100, 0x200, 9,
                                               Ip4Address.valueOf("10.0.3.2"));
    private static final GnbUe UE1 = new GnbUe(1, 1, MacAddress.valueOf("02:00:00:00:01:11"), 5, 18, 0x101, 0x201, 5,
                                               Ip4Address.valueOf("10.0.3.2"));

    @Test
    public void everyEntryResolvesInTheP4InfoWithinItsWidths() throws Exception {
        PiPipelineModel model = GnbPipeconf.build().pipelineModel();
        List<PiEntity> all = GnbEntries.all(SITE, List.of(UE0, UE1));
        // 4 port roles, the services default, the clone session, 4 per UE
        assertEquals(4 + 1 + 1 + 8, all.size());
        for (PiEntity e : all) {
            if (e instanceof PiCloneSessionEntry) {
                PiCloneSessionEntry clone = (PiCloneSessionEntry) e;
                assertEquals(BAAS_CLONE_SESSION_ID, clone.sessionId());
                assertEquals(SITE.baasPort(), clone.replicas().iterator().next().egressPort().toLong());
                continue;
            }
            PiTableEntry t = (PiTableEntry) e;
            PiTableModel table = model.table(t.table()).orElseThrow(() -> new AssertionError(t.table()));
            assertEquals(t.table().toString(), table.matchFields().size(), t.matchKey().fieldMatches().size());
            for (PiFieldMatch m : t.matchKey().fieldMatches()) {
                int width = table.matchField(m.fieldId()).orElseThrow(() -> new AssertionError(m.fieldId()))
                        .bitWidth();
                ((PiExactFieldMatch) m).value().fit(width);
            }
            PiAction a = (PiAction) t.action();
            PiActionModel action = table.action(a.id()).orElseThrow(() -> new AssertionError(a.id()));
            assertEquals(a.id().toString(), action.params().size(), a.parameters().size());
            for (PiActionParam p : a.parameters()) {
                int width = action.param(p.id()).orElseThrow(() -> new AssertionError(p.id())).bitWidth();
                p.value().fit(width);
            }
        }
        PiTableEntry services = all.stream().filter(e -> e instanceof PiTableEntry).map(e -> (PiTableEntry) e)
                .filter(t -> t.table().equals(HUPF_GNB_INGRESS_SERVICES)).findFirst().orElseThrow();
        assertTrue("the keyless table's entry is its default action", services.isDefaultAction());
    }

    @Test
    public void aDrbOf18BitSnsSaysSoBothWays() {
        List<PiTableEntry> entries = GnbEntries.ue(UE1, SITE);
        List<Long> sn18 = entries.stream().map(t -> (PiAction) t.action())
                .flatMap(a -> a.parameters().stream()).filter(p -> p.id().equals(SN18))
                .map(p -> p.value().asReadOnlyBuffer().getLong())
                .collect(Collectors.toList());
        assertEquals(List.of(1L, 1L), sn18);
    }

    @Test
    public void aUeGivenTwiceOrOnAServicePortIsRefused() {
        GnbUe sameTeid = new GnbUe(7, 1, MacAddress.valueOf("02:00:00:00:01:77"), 4, 12, 0x100, 0x207, 9,
                                   Ip4Address.valueOf("10.0.3.2"));
        assertTrue(refusal(() -> GnbEntries.all(SITE, List.of(UE0, sameTeid))).startsWith("UE 7:"));
        GnbUe onCrypto = new GnbUe(8, SITE.cryptoPort(), MacAddress.valueOf("02:00:00:00:01:78"), 4, 12, 0x108,
                                   0x208, 9, Ip4Address.valueOf("10.0.3.2"));
        assertEquals("UE 8: air port 2 is the gNB's N3 or a service's",
                     refusal(() -> GnbEntries.all(SITE, List.of(onCrypto))));
        assertEquals("snBits: 12 or 18, not 16",
                     refusal(() -> new GnbUe(9, 1, UE0.mac(), 4, 16, 1, 1, 0, UE0.upfAddr())));
    }

    private static String refusal(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("not refused");
    }
}

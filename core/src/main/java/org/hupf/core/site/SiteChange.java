package org.hupf.core.site;

import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.onlab.packet.Ip4Address;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Whether a change of the netcfg's sites keeps every stored session where it is served. A session is placed once,
 * at its establishment: its entries are on its site's devices and its F-TEIDs carry its site's N3 address. A change
 * that would serve a stored session at no site, at another site, or without the N3 address of its F-TEIDs would
 * strand it or change it under its SMF, so the change is refused, naming how many sessions of which site it would
 * strand; the operator releases them (their SMF deletes them) or keeps their site, then applies the change.
 */
public final class SiteChange {

    private SiteChange() {
    }

    /**
     * Checks a change of the sites against the stored sessions.
     *
     * @param inForce  the sites in force (empty: one implicit site)
     * @param proposed the sites of the new netcfg (empty: one implicit site)
     * @param stored   the stored sessions, read only when the sites change
     * @return null when every stored session stays where it is served, else what the change would do to which
     *     sessions, counted per site
     */
    public static String refusal(List<Site> inForce, List<Site> proposed,
                                 Supplier<Collection<PfcpSession>> stored) {
        if (inForce.equals(proposed)) {
            return null;
        }
        SitePlacement before = inForce.isEmpty() ? null : new SitePlacement(inForce);
        SitePlacement after = proposed.isEmpty() ? null : new SitePlacement(proposed);
        Map<String, Integer> stranded = new TreeMap<>();
        for (PfcpSession s : stored.get()) {
            String was = before == null ? Site.IMPLICIT_ID : before.siteOf(s);
            if (was == null || after == null) {
                // Served nowhere already (no change strands it further), or every device serves it from now on.
                continue;
            }
            String now = after.siteOf(s);
            String what = now == null ? "would be served by no site"
                    : before != null && !now.equals(was) ? "would move to site " + now
                    : lostN3Address(s, before == null ? null : before.site(was), after.site(now));
            if (what != null) {
                stranded.merge("at site " + was + " " + what, 1, Integer::sum);
            }
        }
        if (stranded.isEmpty()) {
            return null;
        }
        StringBuilder out = new StringBuilder("sites: the change strands stored sessions (a session stays at the"
                                                      + " site it was established at):");
        stranded.forEach((what, n) -> out.append(' ').append(n).append(n == 1 ? " session " : " sessions ")
                .append(what).append(';'));
        out.setLength(out.length() - 1);
        return out.append(". Delete them (their SMF releases them) or keep their site, then apply the change")
                .toString();
    }

    /**
     * @param was  the session's site in force, null for the implicit one (its addresses: every N3 address)
     * @param site its site after the change
     * @return how its uplink F-TEIDs lose an N3 address of its site, or null when they keep theirs
     */
    private static String lostN3Address(PfcpSession s, Site was, Site site) {
        if (site.n3Addresses.isEmpty()) {
            return null;
        }
        for (Pdr p : s.pdrs.values()) {
            Ip4Address a = p.tunnelAddress;
            if (p.isUplink() && a != null && (was == null || was.n3Addresses.contains(a))
                    && !site.n3Addresses.contains(a)) {
                return "would keep F-TEIDs on " + a + ", no longer an N3 address of site " + site.id + " (now "
                        + site.n3Addresses + ")";
            }
        }
        return null;
    }
}

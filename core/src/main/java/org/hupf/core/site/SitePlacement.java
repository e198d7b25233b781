package org.hupf.core.site;

import org.hupf.api.SiteStatus;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Decides at which site a session is served, from what its request says of the access side: the gNB of a FAR
 * towards the access side (its Outer Header Creation address, in a site's {@code gnbs}), an access-side Network
 * Instance (an uplink PDI's, or a FAR's towards the access side, among a site's {@code n3NetworkInstances}), or
 * the N3 address of an uplink F-TEID the SMF allocated (among a site's {@code n3Addresses}). Every rule that
 * names a site must name the same one; a session that names none is the only site's, or refused.
 * Each refusal is a PFCP cause 73 (Rule creation/modification failure) with the rule and the offending IE,
 * as an SMF expects when a UPF cannot serve what a rule asks: the session is written nowhere.
 */
public final class SitePlacement {

    /** Offending IE of an uplink F-TEID that names a site's N3 address (TS 29.244 §8.2.3, F-TEID). */
    static final int F_TEID_IE = 21;
    private static final int PDR_RULE = 0;
    private static final int FAR_RULE = 1;

    private final List<Site> sites;

    /**
     * Creates the placement over the configured sites.
     *
     * @param sites the sites, at least one, in the netcfg's order
     */
    public SitePlacement(List<Site> sites) {
        if (sites.isEmpty()) {
            throw new IllegalArgumentException("a placement needs a site");
        }
        this.sites = List.copyOf(sites);
    }

    /** @return the sites, in the netcfg's order */
    public List<Site> sites() {
        return sites;
    }

    /**
     * Returns a site by name.
     *
     * @param id its name
     * @return the site, or null
     */
    public Site site(String id) {
        return sites.stream().filter(s -> s.id.equals(id)).findFirst().orElse(null);
    }

    /**
     * Returns the site that serves a session.
     *
     * @param s the session as it will be (an establishment's, or a modification's result)
     * @return its site
     * @throws RuleException cause 73 naming the rule: its gNB served by no site, two rules naming two sites, or
     *                       several sites and no rule naming one
     */
    public Site place(PfcpSession s) throws RuleException {
        Placed placed = new Placed();
        List<Pdr> pdrs = new ArrayList<>(s.pdrs.values());
        pdrs.sort(Comparator.comparingInt(p -> p.pdrId));
        for (Pdr p : pdrs) {
            if (!p.isUplink()) {
                continue;
            }
            placed.add(byNetworkInstance(p.networkInstance), PDR_RULE, p.pdrId, RuleException.NETWORK_INSTANCE_IE,
                       "PDR " + p.pdrId + "'s Network Instance '" + p.networkInstance + "'");
            if (p.tunnelAddress != null && !p.choose) {
                placed.add(byN3Address(p.tunnelAddress), PDR_RULE, p.pdrId, F_TEID_IE,
                           "PDR " + p.pdrId + "'s F-TEID " + p.tunnelAddress);
            }
        }
        List<Far> fars = new ArrayList<>(s.fars.values());
        fars.sort(Comparator.comparingLong(f -> f.farId));
        for (Far f : fars) {
            boolean accessSide = f.ohcAddress != null || Integer.valueOf(Far.ACCESS).equals(f.destinationInterface);
            if (!accessSide) {
                continue;
            }
            placed.add(byNetworkInstance(f.networkInstance), FAR_RULE, f.farId, RuleException.NETWORK_INSTANCE_IE,
                       "FAR " + f.farId + "'s Network Instance '" + f.networkInstance + "'");
            if (f.ohcAddress != null) {
                Site site = byGnb(f.ohcAddress);
                if (site == null) {
                    throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, FAR_RULE, f.farId,
                                            RuleException.OUTER_HEADER_CREATION_IE, "FAR " + f.farId + ": gNB "
                                                    + f.ohcAddress + " is served by no site (" + describe() + ")");
                }
                placed.add(site, FAR_RULE, f.farId, RuleException.OUTER_HEADER_CREATION_IE,
                           "FAR " + f.farId + "'s gNB " + f.ohcAddress);
            }
        }
        if (placed.site != null) {
            return placed.site;
        }
        if (sites.size() == 1) {
            return sites.get(0);
        }
        boolean byPdr = !pdrs.isEmpty();
        throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, byPdr ? PDR_RULE : FAR_RULE,
                                byPdr ? pdrs.get(0).pdrId : fars.isEmpty() ? 0 : fars.get(0).farId,
                                RuleException.NETWORK_INSTANCE_IE, "no rule names a site: neither a gNB, an N3"
                                        + " Network Instance nor an N3 address of one (" + describe() + ")");
    }

    /**
     * Returns the N3 address a gNB's downlink tunnels leave from: the first of its site's, where that site names
     * some (its uplink F-TEIDs carry the same, {@link #n3Of(String, Ip4Address)}).
     *
     * @param gnb      the gNB's address
     * @param fallback the deployment's first N3 address
     * @return the address
     */
    public Ip4Address n3OfGnb(Ip4Address gnb, Ip4Address fallback) {
        Site s = byGnb(gnb);
        return s == null ? fallback : n3Of(s.id, fallback);
    }

    /**
     * Returns the N3 address of a site's chosen F-TEIDs and downlink tunnels: its first, else the deployment's.
     *
     * @param id       a site's name, or null
     * @param fallback the deployment's first N3 address
     * @return the address
     */
    public Ip4Address n3Of(String id, Ip4Address fallback) {
        Site s = id == null ? null : site(id);
        return s == null || s.n3Addresses.isEmpty() ? fallback : s.n3Addresses.get(0);
    }

    /**
     * Returns the site a stored session is served at.
     *
     * @param s session
     * @return its site's name, or null when no site serves it (the netcfg changed since it was placed)
     */
    public String siteOf(PfcpSession s) {
        try {
            return place(s).id;
        } catch (RuleException e) {
            return null;
        }
    }

    /**
     * Returns each site with the sessions placed there.
     *
     * @param sessions the stored sessions
     * @param siteOf   a session's site, null when no site serves it ({@link #siteOf}, or an index of it)
     * @return the sites' status, in the netcfg's order
     */
    public List<SiteStatus> status(Collection<PfcpSession> sessions, Function<PfcpSession, String> siteOf) {
        Map<String, Integer> placed = new HashMap<>();
        for (PfcpSession s : sessions) {
            String id = siteOf.apply(s);
            if (id != null) {
                placed.merge(id, 1, Integer::sum);
            }
        }
        List<SiteStatus> out = new ArrayList<>();
        for (Site s : sites) {
            out.add(new SiteStatus(s.id, s.switchId == null ? null : s.switchId.toString(), strings(s.backends),
                                   strings(s.gnbs), s.n3NetworkInstances.stream().sorted()
                                           .collect(Collectors.toList()), strings(s.n3Addresses),
                                   placed.getOrDefault(s.id, 0)));
        }
        return out;
    }

    private static List<String> strings(List<?> values) {
        return values.stream().map(Object::toString).collect(Collectors.toList());
    }

    private Site byNetworkInstance(String name) {
        return name == null ? null
                : sites.stream().filter(s -> s.n3NetworkInstances.contains(name)).findFirst().orElse(null);
    }

    private Site byN3Address(Ip4Address a) {
        return sites.stream().filter(s -> s.n3Addresses.contains(a)).findFirst().orElse(null);
    }

    /** The site with the longest gNB prefix holding the address (the netcfg refuses one prefix at two sites). */
    private Site byGnb(Ip4Address gnb) {
        Site best = null;
        int bestLength = -1;
        for (Site s : sites) {
            int length = s.gnbMatchLength(gnb);
            if (length > bestLength) {
                best = s;
                bestLength = length;
            }
        }
        return best;
    }

    private String describe() {
        return sites.stream().map(s -> s.id + ": gNBs " + s.gnbs + ", N3 Network Instances "
                + s.n3NetworkInstances.stream().sorted().collect(Collectors.toList()) + ", N3 addresses "
                + s.n3Addresses).collect(Collectors.joining("; "));
    }

    /** The site the rules seen so far name, and the first of them. */
    private static final class Placed {
        private Site site;
        private String by;

        void add(Site named, int ruleType, long ruleId, int ie, String what) throws RuleException {
            if (named == null) {
                return;
            }
            if (site != null && site != named) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, ruleType, ruleId, ie,
                                        what + " is site " + named.id + "'s, but " + by + " is site " + site.id
                                                + "'s: a session is served at one site");
            }
            if (site == null) {
                site = named;
                by = what;
            }
        }
    }
}

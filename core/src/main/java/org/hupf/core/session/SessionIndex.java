package org.hupf.core.session;

import org.hupf.core.util.LongMap;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfInterface;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the sessions own, for {@link SessionManager}: the CP F-SEIDs, the UP function's TEID space and the UE
 * addresses, each to the UP SEID that holds it, and the TEIDs F-TEID CHOOSE gives out. Not thread-safe: the
 * manager calls it under its lock.
 */
final class SessionIndex {

    /** CP F-SEID to UP SEID, so a CP's duplicate establishment is found without a scan. */
    private final Map<CpFseid, Long> byCpFseid = new HashMap<>();
    /**
     * The UP function's TEID space (TS 29.244 §5.5.1): every TEID a session holds, chosen by hupf or given
     * by the client, to the UP SEID holding it. A TEID belongs to one session only.
     */
    private final LongMap<Long> teidOwner = new LongMap<>();
    /**
     * UE addresses (their 32 bits: Ip4Address's hash maps consecutive addresses onto few values) to the UP SEID
     * whose PDRs match them: one session per UE address.
     */
    private final LongMap<Long> ueOwner = new LongMap<>();
    private final Ip4Address n3Address;
    private long nextTeid = 1;
    private static final Comparator<Pdr> BY_ID = Comparator.comparingInt(p -> p.pdrId);

    /** A CP function's F-SEID: its address as the CP gave it and its SEID. */
    private static final class CpFseid {
        private final String address;
        private final long seid;

        CpFseid(String address, long seid) {
            this.address = address;
            this.seid = seid;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CpFseid && ((CpFseid) o).seid == seid && ((CpFseid) o).address.equals(address);
        }

        @Override
        public int hashCode() {
            return 31 * address.hashCode() + Long.hashCode(seid);
        }
    }

    SessionIndex(Ip4Address n3Address) {
        this.n3Address = n3Address;
    }

    Long findByCpFseid(String cpAddress, long cpSeid) {
        return byCpFseid.get(new CpFseid(cpAddress, cpSeid));
    }

    Long sessionOfUe(Ip4Address ue) {
        return ueOwner.get(Ip4Bits.of(ue));
    }

    /** Indexes a session's CP F-SEID, TEIDs and UE addresses. */
    void add(PfcpSession s) {
        Long upSeid = s.upSeid;
        byCpFseid.put(new CpFseid(s.cpAddress, s.cpSeid), upSeid);
        for (Pdr p : s.pdrs.values()) {
            if (p.teid != null) {
                teidOwner.put(p.teid, upSeid);
            }
            if (p.ueAddress != null) {
                ueOwner.put(Ip4Bits.of(p.ueAddress), upSeid);
            }
        }
    }

    /**
     * Indexes a session's change: what {@code old} held goes, what {@code stored} holds comes, unless they hold the
     * same (a modification that changed no PDR and not the CP F-SEID).
     */
    void replace(PfcpSession old, PfcpSession stored) {
        if (old != null && old.pdrs == stored.pdrs && old.cpSeid == stored.cpSeid
                && Objects.equals(old.cpAddress, stored.cpAddress)) {
            return;
        }
        if (old != null) {
            remove(old);
        }
        add(stored);
    }

    /** Forgets what {@link #add} indexed for the session (what another session took meanwhile stays). */
    void remove(PfcpSession s) {
        byCpFseid.remove(new CpFseid(s.cpAddress, s.cpSeid));
        for (Pdr p : s.pdrs.values()) {
            if (p.teid != null) {
                teidOwner.remove(p.teid, s.upSeid);
            }
            if (p.ueAddress != null) {
                ueOwner.remove(Ip4Bits.of(p.ueAddress), s.upSeid);
            }
        }
    }

    /**
     * Refuses what would take another session's traffic: a TEID 0 (reserved, TS 29.281 §5.1), a TEID
     * another session holds (the TEID space is the UP function's, TS 29.244 §5.5.1: a client-given F-TEID
     * is accepted only when free) and a UE address another session matches.
     */
    void checkOwnership(PfcpSession s, PfcpSession old) throws RuleException {
        if (old != null && old.pdrs == s.pdrs) {
            return;  // the PDRs the session has held since it was checked
        }
        for (Pdr p : byId(s)) {
            if (p.teid != null && p.teid == 0) {
                throw new RuleException(Cause.MANDATORY_IE_INCORRECT, 0, p.pdrId,
                                        "PDR " + p.pdrId + ": F-TEID with TEID 0 (reserved, TS 29.281 §5.1)");
            }
            Long teidHolder = p.teid == null ? null : teidOwner.get(p.teid);
            if (teidHolder != null && teidHolder != s.upSeid) {
                throw new RuleException(Cause.INVALID_FTEID_ALLOCATION_OPTION, 0, p.pdrId,
                                        "PDR " + p.pdrId + ": TEID " + p.teid + " is in use by another session");
            }
            Long ueHolder = p.ueAddress == null ? null : ueOwner.get(Ip4Bits.of(p.ueAddress));
            if (ueHolder != null && ueHolder != s.upSeid) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                                        "PDR " + p.pdrId + ": UE address " + p.ueAddress
                                                + " belongs to another session");
            }
        }
    }

    /**
     * Refuses a UE address outside every UE pool (the core interfaces' prefixes): no device routes its
     * downlink to hupf, so the session would be accepted for traffic it never sees. Without interfaces
     * (a manager not yet configured) there is nothing to check against.
     */
    static void checkUePools(PfcpSession s, Set<UpfInterface> interfaces) throws RuleException {
        boolean pooled = false;
        for (UpfInterface i : interfaces) {
            pooled |= i.isCore();
        }
        if (!pooled) {
            return;
        }
        for (Pdr p : byId(s)) {
            if (p.ueAddress != null && !inPool(p.ueAddress, interfaces)) {
                List<Ip4Prefix> pools = new ArrayList<>();
                for (UpfInterface i : interfaces) {
                    if (i.isCore()) {
                        pools.add(i.prefix());
                    }
                }
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                                        RuleException.UE_IP_ADDRESS_IE, "PDR " + p.pdrId + ": UE address "
                                                + p.ueAddress + " is outside the UE pools " + pools);
            }
        }
    }

    private static boolean inPool(Ip4Address ue, Set<UpfInterface> interfaces) {
        for (UpfInterface i : interfaces) {
            if (i.isCore() && i.prefix().contains(ue)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Answers F-TEID CHOOSE: PDRs with the same CHOOSE ID share a TEID; kept across modifications.
     *
     * @param n3 the address of the session's site's F-TEIDs, or null for the deployment's first
     * @return the session with its TEIDs chosen; itself when it has none to choose (a modification, commonly)
     */
    PfcpSession chooseFteids(PfcpSession s, PfcpSession old, Ip4Address n3) throws RuleException {
        if (old != null && old.pdrs == s.pdrs || !choosesTeid(s)) {
            return s;
        }
        Pdr[] ordered = byId(s);
        // The TEIDs the session uses: given by the client, then chosen here.
        long[] taken = new long[ordered.length];
        int nTaken = 0;
        for (Pdr p : ordered) {
            if (p.teid != null) {
                taken[nTaken++] = p.teid;
            }
        }
        Map<Integer, Long> byChooseId = new HashMap<>();
        if (old != null) {
            for (Pdr p : old.pdrs.values()) {
                if (p.choose && p.chooseId != null && p.teid != null) {
                    byChooseId.put(p.chooseId, p.teid);
                }
            }
        }
        for (int i = 0; i < ordered.length; i++) {
            Pdr p = ordered[i];
            if (!p.choose || p.teid != null) {
                continue;
            }
            Pdr prior = old == null ? null : old.pdrs.get(p.pdrId);
            Long teid = prior != null && prior.choose && prior.teid != null && Objects.equals(prior.chooseId, p.chooseId)
                    ? prior.teid : p.chooseId == null ? null : byChooseId.get(p.chooseId);
            if (teid == null) {
                teid = allocateTeid(taken, nTaken);
                taken[nTaken++] = teid;
                if (p.chooseId != null) {
                    byChooseId.put(p.chooseId, teid);
                }
            }
            ordered[i] = p.withFteid(teid, n3 == null ? n3Address : n3);
        }
        return s.with(byPdrId(ordered), s.fars, s.qers, s.urrs, s.allocations);
    }

    /** @return PDRs by their id, immutable as a session keeps them (no hash map made to be copied) */
    @SuppressWarnings("unchecked")
    private static Map<Integer, Pdr> byPdrId(Pdr[] pdrs) {
        if (pdrs.length == 1) {
            return Map.of(pdrs[0].pdrId, pdrs[0]);
        }
        Map.Entry<Integer, Pdr>[] entries = new Map.Entry[pdrs.length];
        for (int i = 0; i < pdrs.length; i++) {
            entries[i] = Map.entry(pdrs[i].pdrId, pdrs[i]);
        }
        return Map.ofEntries(entries);
    }

    private static boolean choosesTeid(PfcpSession s) {
        for (Pdr p : s.pdrs.values()) {
            if (p.choose && p.teid == null) {
                return true;
            }
        }
        return false;
    }

    /** Picks a TEID no session holds and this one does not use yet ({@code taken[0, n)}), never 0. */
    private long allocateTeid(long[] taken, int n) throws RuleException {
        for (long i = 0; i < 0xFFFFFFFFL; i++) {
            long t = nextTeid;
            nextTeid = nextTeid == 0xFFFFFFFFL ? 1 : nextTeid + 1;
            if (!teidOwner.containsKey(t) && !contains(taken, n, t)) {
                return t;
            }
        }
        throw new RuleException(Cause.NO_RESOURCES_AVAILABLE, -1, 0, "no free TEID");
    }

    private static boolean contains(long[] values, int n, long v) {
        for (int i = 0; i < n; i++) {
            if (values[i] == v) {
                return true;
            }
        }
        return false;
    }

    /** A session's PDRs in PDR ID order: the first offending rule is the one a refusal names. */
    private static Pdr[] byId(PfcpSession s) {
        Pdr[] ordered = s.pdrs.values().toArray(new Pdr[s.pdrs.size()]);
        Arrays.sort(ordered, BY_ID);
        return ordered;
    }
}

package org.hupf.core.session;

import org.hupf.core.util.LongMap;
import org.hupf.api.session.PfcpSession;
import org.hupf.pipeconf.api.UpfEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The entities the sessions hold, per site, for {@link SessionManager}: one {@link EntityRefs} per site, since a
 * site's devices hold its own sessions only (an application filter two sites' sessions share is written to both
 * sites' devices and counted at each), and which site holds each session. Not thread-safe: the manager calls it
 * under its lock.
 */
final class SiteRefs {

    private static final Logger log = LoggerFactory.getLogger(SiteRefs.class);

    private final Map<String, EntityRefs> bySite = new HashMap<>();
    private final LongMap<String> siteOfSession = new LongMap<>();
    /** Sites whose stored sessions are not tracked yet: read without the manager's lock. */
    private final AtomicInteger sitesUntracked = new AtomicInteger();

    /** @return the site's refs, empty ones for a site that holds nothing yet */
    EntityRefs site(String site) {
        return bySite.computeIfAbsent(site, s -> new EntityRefs());
    }

    /** @return the site holding a session, null when none does */
    String siteOf(long upSeid) {
        return siteOfSession.get(upSeid);
    }

    /**
     * Hands the stored sessions of a restarted manager to their sites' refs, which work out their entities at their
     * first use ({@link EntityRefs#trackLater}); which site holds each is known at once.
     *
     * @param stored   the stored sessions
     * @param siteOf   a session's site, null when no site serves it now (left out, logged: reconciliation removes
     *                 its entries)
     * @param entities a session's entities, null when it no longer translates (left out)
     */
    void trackLater(Collection<PfcpSession> stored, Function<PfcpSession, String> siteOf,
                    Function<PfcpSession, Set<UpfEntity>> entities) {
        Map<String, List<PfcpSession>> storedBySite = new HashMap<>();
        for (PfcpSession s : stored) {
            String site = siteOf.apply(s);
            if (site == null) {
                log.error("stored session {} is served at no site now: its entries are left to reconciliation",
                          s.upSeid);
                continue;
            }
            storedBySite.computeIfAbsent(site, x -> new ArrayList<>()).add(s);
            siteOfSession.put(s.upSeid, site);
        }
        sitesUntracked.addAndGet(storedBySite.size());
        storedBySite.forEach((site, ofSite) -> site(site).trackLater(new EntityRefs.StoredSessions() {
            @Override
            public int count() {
                return ofSite.size();
            }

            @Override
            public void forEach(EntityRefs.Tracker track) {
                try {
                    for (PfcpSession s : ofSite) {
                        Set<UpfEntity> held = entities.apply(s);
                        if (held != null) {
                            track.track(s.upSeid, held);
                        }
                    }
                } finally {
                    sitesUntracked.decrementAndGet();
                }
            }
        }));
    }

    boolean holds(long upSeid) {
        return siteOfSession.containsKey(upSeid);
    }

    /** @return the entities a session holds (empty for an unknown one) */
    Set<UpfEntity> of(long upSeid) {
        String site = siteOfSession.get(upSeid);
        return site == null ? Set.of() : site(site).of(upSeid);
    }

    /** Gives a session of {@code site} a new entity set (empty: none), moving that site's reference counts. */
    void track(long upSeid, String site, Set<UpfEntity> entities) {
        site(site).track(upSeid, entities);
        if (entities.isEmpty()) {
            siteOfSession.remove(upSeid);
        } else {
            siteOfSession.put(upSeid, site);
        }
    }

    /** Works out the stored sessions' entities at every site, where a request did not do it already. */
    void trackStored() {
        bySite.values().forEach(EntityRefs::trackStored);
    }

    /** @return whether every stored session handed to {@link #trackLater} is tracked (any thread may ask) */
    boolean storedTracked() {
        return sitesUntracked.get() == 0;
    }

    /** @return the sites holding something, or stored sessions to work out */
    List<String> sites() {
        return new ArrayList<>(bySite.keySet());
    }

    /** @return distinct entities summed over the sites (one shared by two sites counts twice: two devices hold it) */
    int size() {
        int n = 0;
        for (EntityRefs r : bySite.values()) {
            n += r.size();
        }
        return n;
    }
}

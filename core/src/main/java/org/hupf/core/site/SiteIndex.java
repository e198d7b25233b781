package org.hupf.core.site;

import com.google.common.collect.MapMaker;
import org.hupf.api.SiteStatus;
import org.hupf.api.session.PfcpSession;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * The site of each stored session, worked out once per session: the stores keep a session's object until a write
 * replaces it, so the site is kept beside the object (weakly, by identity: a session deleted or replaced leaves it).
 * Filtering 100,000 sessions by site then costs a lookup each, not a placement. One index per netcfg's sites: a
 * change of the sites makes a new one.
 */
public final class SiteIndex {

    /** Kept for a session no site serves (a map holds no null). */
    private static final String NO_SITE = "";

    private final SitePlacement placement;
    private final Function<PfcpSession, String> place;
    private final ConcurrentMap<PfcpSession, String> siteOfSession = new MapMaker().weakKeys().makeMap();

    /** @param placement the netcfg's sites */
    public SiteIndex(SitePlacement placement) {
        this(placement, placement::siteOf);
    }

    /**
     * @param placement the netcfg's sites
     * @param place     a session's site, null when none serves it: asked once per session object
     */
    public SiteIndex(SitePlacement placement, Function<PfcpSession, String> place) {
        this.placement = placement;
        this.place = place;
    }

    /** @return the sites indexed */
    public List<Site> sites() {
        return placement.sites();
    }

    /**
     * @param s a stored session
     * @return its site's name, or null when no site serves it
     */
    public String siteOf(PfcpSession s) {
        String site = siteOfSession.get(s);
        if (site == null) {
            String placed = place.apply(s);
            site = placed == null ? NO_SITE : placed;
            siteOfSession.put(s, site);
        }
        return site.isEmpty() ? null : site;
    }

    /**
     * @param sessions the stored sessions
     * @return each site with the sessions placed there ({@link SitePlacement#status})
     */
    public List<SiteStatus> status(Collection<PfcpSession> sessions) {
        return placement.status(sessions, this::siteOf);
    }
}

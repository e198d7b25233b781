package org.hupf.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The offload service seen per site, as REST ({@code /offload}, {@code /backends}) and the CLI
 * ({@code hupf:offload}) show it: each site's hybrid, each backend with its site, optionally one site only.
 */
public final class OffloadBySite {

    /** The one implicit site's name, where the netcfg names no sites. */
    public static final String IMPLICIT_SITE = "default";

    /** A backend hupf drives or drained, with its site (null: a drained backend no site of the netcfg names). */
    public static final class Backend {
        public final String id;
        public final String site;
        /** STEERED (misses steered to it), HELD (holds its site's sessions, not steered to), DRAINING, DRAINED. */
        public final String state;

        Backend(String id, String site, String state) {
            this.id = id;
            this.site = site;
            this.state = state;
        }
    }

    private final Map<String, OffloadService.SiteHybrid> hybrids;
    private final List<Backend> backends;

    private OffloadBySite(Map<String, OffloadService.SiteHybrid> hybrids, List<Backend> backends) {
        this.hybrids = hybrids;
        this.backends = backends;
    }

    /**
     * Reads the offload service's sites.
     *
     * @param offload the offload service
     * @param sites   the netcfg's sites (empty: the one implicit site)
     * @param site    the one site to show, or null for every site
     * @return the view
     * @throws NoSuchElementException naming the sites there are, when {@code site} is none of them
     */
    public static OffloadBySite of(OffloadService offload, List<SiteStatus> sites, String site) {
        List<String> known = sites.isEmpty() ? List.of(IMPLICIT_SITE)
                : sites.stream().map(s -> s.siteId).collect(Collectors.toList());
        if (site != null && !known.contains(site)) {
            throw new NoSuchElementException("no site '" + site + "': " + (sites.isEmpty()
                    ? "the netcfg names no sites, so there is one, " + IMPLICIT_SITE
                    : "the netcfg's sites are " + String.join(", ", known)));
        }
        Map<String, OffloadService.SiteHybrid> driven = offload.sites();
        Map<String, OffloadService.SiteHybrid> shown = new LinkedHashMap<>();
        for (String id : known) {
            if (driven.containsKey(id) && (site == null || site.equals(id))) {
                shown.put(id, driven.get(id));
            }
        }
        Map<String, String> siteOfBackend = new TreeMap<>();
        sites.forEach(s -> s.backends.forEach(b -> siteOfBackend.put(b, s.siteId)));
        driven.forEach((id, h) -> h.backendsUp.forEach(b -> siteOfBackend.put(b, id)));
        Map<String, String> drains = offload.drains();
        Map<String, Backend> listed = new TreeMap<>();
        shown.forEach((id, h) -> h.backendsUp.forEach(
                b -> listed.put(b, new Backend(b, id, h.steeredTo.contains(b) ? "STEERED" : "HELD"))));
        drains.forEach((b, state) -> {
            String at = sites.isEmpty() ? IMPLICIT_SITE : siteOfBackend.get(b);
            if (site == null || site.equals(at)) {
                listed.put(b, new Backend(b, at, state));
            }
        });
        return new OffloadBySite(shown, new ArrayList<>(listed.values()));
    }

    /** @return each shown site's hybrid this node drives now, in the netcfg's order */
    public Map<String, OffloadService.SiteHybrid> hybrids() {
        return hybrids;
    }

    /** @return the shown sites' metrics summed ({@link OffloadMetrics#sum}), null where this node drives none */
    public OffloadMetrics total() {
        return OffloadMetrics.sum(hybrids.values().stream().map(h -> h.metrics).collect(Collectors.toList()));
    }

    /** @return the shown sites' backends, driven or drained, in the order of their ids */
    public List<Backend> backends() {
        return backends;
    }
}

package org.hupf.core.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadBySite;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadService;

import javax.ws.rs.core.Response;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

import static org.hupf.core.rest.HupfResource.MAPPER;
import static org.hupf.core.rest.HupfResource.error;
import static org.hupf.core.rest.HupfResource.json;
import static org.hupf.core.rest.RestAnswers.jsonList;

/**
 * The answers of {@code GET /offload} and {@code GET /backends}: every site's (or one site's) metrics, offloaded
 * UEs and backends, each with its site, and their sum across the sites shown.
 */
final class OffloadViews {

    private OffloadViews() {
    }

    /**
     * @param view the offload service per site; throws NoSuchElementException for an unknown site
     * @param site the site asked for, or null
     * @return 200 with the sum's metrics, {@code offloaded_ues}, {@code backends}, {@code steered_to} and
     *     {@code "sites"}: each site's own; 404 for an unknown site; 503 where this node drives no hybrid there
     * @throws IOException never: the metrics render valid JSON
     */
    static Response offload(Supplier<OffloadBySite> view, String site) throws IOException {
        OffloadBySite v;
        try {
            v = view.get();
        } catch (NoSuchElementException e) {
            return error(Response.Status.NOT_FOUND, e.getMessage());
        }
        OffloadMetrics total = v.total();
        if (total == null) {
            return error(Response.Status.SERVICE_UNAVAILABLE, "no hupf backend available"
                    + (site == null ? "" : " at site " + site));
        }
        ObjectNode o = hybrid(total, v.hybrids().values());
        ArrayNode sites = o.putArray("sites");
        for (Map.Entry<String, OffloadService.SiteHybrid> e : v.hybrids().entrySet()) {
            ObjectNode one = hybrid(e.getValue().metrics, List.of(e.getValue()));
            sites.add(MAPPER.createObjectNode().put("site", e.getKey()).setAll(one));
        }
        return json(o);
    }

    /** The metrics with the UEs offloaded, the backends driven and those steered to at the sites given. */
    private static ObjectNode hybrid(OffloadMetrics m, Iterable<OffloadService.SiteHybrid> sites)
            throws IOException {
        ObjectNode o = (ObjectNode) MAPPER.readTree(m.toJson());
        ArrayNode ues = o.putArray("offloaded_ues");
        ArrayNode backends = o.putArray("backends");
        ArrayNode steered = o.putArray("steered_to");
        for (OffloadService.SiteHybrid h : sites) {
            h.offloadedUes.forEach(u -> ues.add(u.toString()));
            h.backendsUp.forEach(backends::add);
            h.steeredTo.forEach(steered::add);
        }
        return o;
    }

    /**
     * @param view the offload service per site; throws NoSuchElementException for an unknown site
     * @return 200 with {"backends": [{"id", "site", "state"}]}, 404 for an unknown site
     */
    static Response backends(Supplier<OffloadBySite> view) {
        OffloadBySite v;
        try {
            v = view.get();
        } catch (NoSuchElementException e) {
            return error(Response.Status.NOT_FOUND, e.getMessage());
        }
        return jsonList("backends", v.backends(), (OffloadBySite.Backend b) -> {
            ObjectNode o = MAPPER.createObjectNode().put("id", b.id);
            if (b.site != null) {
                o.put("site", b.site);
            }
            return o.put("state", b.state);
        });
    }
}

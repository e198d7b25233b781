package org.hupf.app.gui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadService;
import org.hupf.api.session.PfcpSession;
import org.onlab.packet.Ip4Address;
import org.onosproject.ui.table.TableModel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One page of the sessions, filtered: what the hupf view and {@code GET /onos/hupf/live/sessions} send instead of
 * every session (a UPF holds 100,000 of them). The filter is a site a session must be served at, and a
 * case-insensitive text that a session matches when its UP or CP SEID, UE address, uplink or downlink TEIDs or path
 * contain it; pages are in the order of UP SEIDs.
 */
public final class SessionPages {

    /** What a page asks for. */
    public static final class Query {
        final String text;
        final String site;
        final int offset;
        final int limit;

        /**
         * @param text   text a session must contain, null or blank for all
         * @param site   the site a session must be served at, null or blank for every site
         * @param offset rows skipped, from 0
         * @param limit  rows at most, 1 to {@link #MAX_LIMIT}
         */
        public Query(String text, String site, int offset, int limit) {
            this.text = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
            this.site = site == null || site.isBlank() ? null : site.trim();
            this.offset = offset;
            this.limit = limit;
        }
    }

    /** The longest page asked for: a screenful, never the store. */
    public static final int MAX_LIMIT = 500;
    private static final Comparator<PfcpSession> BY_UP_SEID = Comparator.comparing(s -> s.upSeid,
                                                                                   Long::compareUnsigned);

    private SessionPages() {
    }

    /**
     * Renders a page: {@code total} sessions, {@code matched} by the filter, {@code offset}, {@code limit},
     * {@code sites} (each site's sessions, for the site filter; empty where the netcfg names no sites) and
     * {@code sessions}, one object per row with the view's columns ({@link HupfViewModel#SESSION_COLUMNS}).
     *
     * @param root     the answer's object
     * @param sessions the session store's sessions
     * @param siteOf   the site a session is served at, null where the netcfg names no sites: asked of every
     *                 session, so an index of them ({@code HupfService.siteLookup}), never a placement each
     * @param offload  the offload service: each UE's path and rate
     * @param query    the text and site a session must match, and which rows
     * @throws IllegalArgumentException a negative offset or a limit out of range
     */
    public static void page(ObjectNode root, Collection<PfcpSession> sessions, Function<PfcpSession, String> siteOf,
                            OffloadService offload, Query query) {
        int offset = query.offset;
        int limit = query.limit;
        if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("offset must be >= 0 and limit 1.." + MAX_LIMIT + ": offset " + offset
                                                       + ", limit " + limit);
        }
        String want = query.text;
        Set<Ip4Address> onSwitch = want.isEmpty() ? Set.of() : offload.offloaded();
        Filter filterOf = new Filter(want);
        List<PfcpSession> matched = new ArrayList<>();
        Map<String, int[]> bySite = new HashMap<>();
        for (PfcpSession s : sessions) {
            String site = siteOf.apply(s);
            if (site != null) {
                bySite.computeIfAbsent(site, x -> new int[1])[0]++;
            }
            if ((query.site == null || query.site.equals(site)) && (want.isEmpty() || matches(s, filterOf, onSwitch))) {
                matched.add(s);
            }
        }
        List<PfcpSession> rows = window(matched, Math.min(offset, matched.size()),
                                        Math.min(offset + limit, matched.size()));
        TableModel tm = new TableModel(HupfViewModel.SESSION_COLUMNS);
        HupfViewModel.populateSessions(tm, rows, siteOf, offload);
        root.put("total", sessions.size()).put("matched", matched.size()).put("offset", offset).put("limit", limit);
        ObjectNode sites = root.putObject("sites");
        new TreeMap<>(bySite).forEach((site, n) -> sites.put(site, n[0]));
        ArrayNode out = root.putArray("sessions");
        // TableModel keeps the rows in the order they were added (until sorted): the page's.
        for (TableModel.Row r : tm.getRows()) {
            ObjectNode o = out.addObject();
            for (String c : HupfViewModel.SESSION_COLUMNS) {
                Object v = r.get(c);
                if (v instanceof Long) {
                    o.put(c, (Long) v);
                } else {
                    o.put(c, String.valueOf(v));
                }
            }
        }
    }

    /**
     * Returns the sessions from..to in the order of UP SEIDs without sorting them all: a heap keeps the smallest
     * {@code to} (a page near the start) or the largest {@code size - from} (a page near the end).
     */
    private static List<PfcpSession> window(List<PfcpSession> matched, int from, int to) {
        boolean nearStart = to <= matched.size() - from;
        int kept = nearStart ? to : matched.size() - from;
        // The heap's head is the kept session that goes first when a better one comes.
        PriorityQueue<PfcpSession> heap = new PriorityQueue<>(Math.max(1, kept),
                                                              nearStart ? BY_UP_SEID.reversed() : BY_UP_SEID);
        for (PfcpSession s : matched) {
            heap.add(s);
            if (heap.size() > kept) {
                heap.poll();
            }
        }
        List<PfcpSession> out = new ArrayList<>(heap);
        out.sort(BY_UP_SEID);
        return nearStart ? out.subList(from, to) : out.subList(0, to - from);
    }

    /** What a filter can be found in: only the fields whose text can hold every one of its characters. */
    private static final class Filter {
        final String text;
        final boolean inSeids;
        final boolean inTeids;

        Filter(String text) {
            this.text = text;
            // SEIDs are decimal; TEIDs "0x" and lower-case hex, comma-separated, or "-".
            this.inSeids = text.chars().allMatch(Character::isDigit);
            this.inTeids = text.chars().allMatch(c -> Character.digit(c, 16) >= 0 && !Character.isUpperCase(c)
                    || c == 'x' || c == ',' || c == '-');
        }
    }

    private static boolean matches(PfcpSession s, Filter f, Set<Ip4Address> onSwitch) {
        String want = f.text;
        if (f.inSeids && (Long.toUnsignedString(s.upSeid).contains(want)
                || Long.toUnsignedString(s.cpSeid).contains(want))) {
            return true;
        }
        Optional<Ip4Address> ue = HupfViewModel.ueAddress(s);
        if (ue.map(Ip4Address::toString).orElse(HupfViewModel.NONE).contains(want)) {
            return true;
        }
        String path = ue.filter(onSwitch::contains).isPresent() ? HupfViewModel.HW : HupfViewModel.SW;
        return path.toLowerCase(Locale.ROOT).equals(want) || f.inTeids
                && (HupfViewModel.teids(s, true).contains(want) || HupfViewModel.teids(s, false).contains(want));
    }
}

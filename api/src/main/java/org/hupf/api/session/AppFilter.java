package org.hupf.api.session;

import org.onlab.packet.Ip4Prefix;

import java.util.Objects;

/**
 * The application part of an SDF filter's IPFilterRule (RFC 6733 §4.3, as used by TS 29.244 §5.2.1A):
 * remote prefix, remote L4 port range, IP protocol. hupf reads rules of the form
 * {@code permit out <proto> from <remote> [ports] to assigned|<ue>} and rejects anything else.
 */
public final class AppFilter {

    public final Ip4Prefix prefix;
    public final Integer portLow;
    public final Integer portHigh;
    public final Integer proto;

    AppFilter(Ip4Prefix prefix, Integer portLow, Integer portHigh, Integer proto) {
        this.prefix = prefix;
        this.portLow = portLow;
        this.portHigh = portHigh;
        this.proto = proto;
    }

    /** @return true if the filter matches everything (the default application, id 0) */
    public boolean isWildcard() {
        return prefix == null && portLow == null && proto == null;
    }

    /** @return a stable key for sharing application ids between sessions */
    public String key() {
        return (prefix == null ? "*" : prefix.toString()) + "|"
                + (portLow == null ? "*" : portLow + "-" + portHigh) + "|" + (proto == null ? "*" : proto);
    }

    /**
     * Parses a flow description.
     *
     * @param fd flow description
     * @return filter
     * @throws IllegalArgumentException with the reason when the rule is not of the supported form
     */
    public static AppFilter parse(String fd) {
        String[] t = fd.trim().split("\\s+");
        int i = 0;
        if (t.length < 6 || !t[i++].equals("permit") || !t[i++].equals("out")) {
            throw new IllegalArgumentException("SDF filter '" + fd + "' is not 'permit out <proto> from ... to ...'");
        }
        Integer proto = protocol(t[i++], fd);
        if (!t[i++].equals("from")) {
            throw new IllegalArgumentException("SDF filter '" + fd + "' has no 'from'");
        }
        Ip4Prefix prefix = address(t[i++], fd);
        Integer lo = null;
        Integer hi = null;
        if (i < t.length && !t[i].equals("to")) {
            int[] ports = ports(t[i++], fd);
            lo = ports[0];
            hi = ports[1];
        }
        if (i >= t.length || !t[i++].equals("to") || i >= t.length) {
            throw new IllegalArgumentException("SDF filter '" + fd + "' has no 'to <ue>'");
        }
        i++;
        if (i < t.length) {
            throw new IllegalArgumentException("SDF filter '" + fd + "': UE-side ports and options are not supported");
        }
        return new AppFilter(prefix, lo, hi, proto);
    }

    private static Integer protocol(String p, String fd) {
        switch (p) {
            case "ip":
                return null;
            case "icmp":
                return 1;
            case "tcp":
                return 6;
            case "udp":
                return 17;
            default:
                try {
                    int v = Integer.parseInt(p);
                    if (v >= 0 && v <= 255) {
                        return v;
                    }
                } catch (NumberFormatException e) {
                    // Fall through to the error below.
                }
                throw new IllegalArgumentException("SDF filter '" + fd + "': unknown protocol " + p);
        }
    }

    private static Ip4Prefix address(String a, String fd) {
        if (a.equals("any")) {
            return null;
        }
        try {
            return Ip4Prefix.valueOf(a.contains("/") ? a : a + "/32");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SDF filter '" + fd + "': bad IPv4 address " + a);
        }
    }

    private static int[] ports(String p, String fd) {
        try {
            String[] r = p.split("-", 2);
            int lo = Integer.parseInt(r[0]);
            int hi = r.length == 2 ? Integer.parseInt(r[1]) : lo;
            if (lo < 0 || hi > 65535 || lo > hi) {
                throw new NumberFormatException();
            }
            return new int[]{lo, hi};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SDF filter '" + fd + "': bad port or range " + p
                                                       + " (lists are not supported)");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AppFilter && ((AppFilter) o).key().equals(key());
    }

    @Override
    public int hashCode() {
        return Objects.hash(key());
    }

    @Override
    public String toString() {
        return key();
    }
}

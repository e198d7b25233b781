package org.hupf.core.session;

import org.hupf.api.session.PfcpSession;
import org.hupf.core.site.Site;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.onlab.packet.Ip4Address;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where {@link SessionManager} writes a session: the site it is placed at, and the devices that hold that site's
 * sessions (its switch's hybrid device and its backends). A deployment without sites has one, serving every
 * session on every device.
 */
public interface SessionSites {

    /** @return the sites, each written and reconciled on its own devices only */
    List<String> sites();

    /**
     * @param s a session the translator placed
     * @return the site it is served at
     */
    String siteOf(PfcpSession s);

    /**
     * @param site one of {@link #sites()}
     * @return the devices holding its sessions now, read at every use
     */
    Collection<HupfUpfDevice> devices(String site);

    /**
     * @param s a session, placed or not
     * @return the N3 address its chosen F-TEIDs take: its site's, or null for the deployment's first
     */
    Ip4Address n3Of(PfcpSession s);

    /**
     * The one implicit site of a deployment without sites: every session on every device.
     *
     * @param devices every device, read at every use
     * @return the sites
     */
    static SessionSites one(Supplier<Collection<HupfUpfDevice>> devices) {
        return new SessionSites() {
            @Override
            public List<String> sites() {
                return List.of(Site.IMPLICIT_ID);
            }

            @Override
            public String siteOf(PfcpSession s) {
                return Site.IMPLICIT_ID;
            }

            @Override
            public Collection<HupfUpfDevice> devices(String site) {
                return devices.get();
            }

            @Override
            public Ip4Address n3Of(PfcpSession s) {
                return null;
            }
        };
    }

    /**
     * Sites that place a session by {@code placement} and write it to its site's devices.
     *
     * @param sites   the sites' names
     * @param siteOf  the site of a session the translator accepted
     * @param devices each site's devices, read at every use
     * @param n3Of    the N3 address of a session's chosen F-TEIDs (null: the deployment's first)
     * @return the sites
     */
    static SessionSites of(List<String> sites, Function<PfcpSession, String> siteOf,
                           Function<String, Collection<HupfUpfDevice>> devices,
                           Function<PfcpSession, Ip4Address> n3Of) {
        List<String> names = List.copyOf(sites);
        return new SessionSites() {
            @Override
            public List<String> sites() {
                return names;
            }

            @Override
            public String siteOf(PfcpSession s) {
                return siteOf.apply(s);
            }

            @Override
            public Collection<HupfUpfDevice> devices(String site) {
                return devices.apply(site);
            }

            @Override
            public Ip4Address n3Of(PfcpSession s) {
                return n3Of.apply(s);
            }
        };
    }
}

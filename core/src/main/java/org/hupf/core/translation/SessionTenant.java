package org.hupf.core.translation;

import org.hupf.api.TenantOverlay;
import org.hupf.pipeconf.dataplane.Tenant;

import java.util.Objects;

/**
 * A VXLAN tenant as sessions see it: the Network Instance (TS 29.244 §8.2.4) that binds a session to it, its
 * netcfg entry, and the overlay its gNBs sit in, if any: a bound session's tunnel peer gets a
 * {@code peer_vxlan} entry with it and is routed towards the edge VTEP (docs/PIPELINE_CONTRACT.md, "VXLAN
 * tenants").
 */
public final class SessionTenant {

    public final String networkInstance;
    /** The tenant's data-plane entry (its VNI is the overlay's). */
    public final Tenant entry;
    /** Null when the tenant's gNBs are reached without VXLAN. */
    public final TenantOverlay overlay;

    public SessionTenant(String networkInstance, Tenant entry, TenantOverlay overlay) {
        this.networkInstance = Objects.requireNonNull(networkInstance, "networkInstance");
        this.entry = Objects.requireNonNull(entry, "entry");
        this.overlay = overlay;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SessionTenant)) {
            return false;
        }
        SessionTenant t = (SessionTenant) o;
        return networkInstance.equals(t.networkInstance) && entry.equals(t.entry) && Objects.equals(overlay, t.overlay);
    }

    @Override
    public int hashCode() {
        return Objects.hash(networkInstance, entry, overlay);
    }

    @Override
    public String toString() {
        return "SessionTenant{" + networkInstance + ", " + entry
                + (overlay == null ? "" : ", edge VTEP " + overlay.vtepDst) + "}";
    }
}

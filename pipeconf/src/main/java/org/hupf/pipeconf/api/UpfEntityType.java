package org.hupf.pipeconf.api;

/**
 * Kinds of UPF entity; each maps to one table, meter or counter of docs/PIPELINE_CONTRACT.md.
 */
public enum UpfEntityType {
    /** {@code HupfIngress.upf.interfaces}. */
    INTERFACE("interface"),
    /** {@code HupfIngress.upf.uplink_sessions}. */
    SESSION_UPLINK("session_uplink"),
    /** {@code HupfIngress.upf.downlink_sessions}. */
    SESSION_DOWNLINK("session_downlink"),
    /** {@code HupfIngress.upf.uplink_terminations}. */
    TERMINATION_UPLINK("termination_uplink"),
    /** {@code HupfIngress.upf.downlink_terminations}. */
    TERMINATION_DOWNLINK("termination_downlink"),
    /** {@code HupfIngress.upf.ig_tunnel_peers} and {@code HupfEgress.upf.eg_tunnel_peers}. */
    TUNNEL_PEER("tunnel_peer"),
    /** {@code HupfEgress.tenant.peer_vxlan}: a tunnel peer's VXLAN overlay (absent from pipelines without it). */
    PEER_VXLAN("peer_vxlan"),
    /** {@code HupfIngress.upf.applications}. */
    APPLICATION("application"),
    /** {@code HupfIngress.upf.session_meter}. */
    SESSION_METER("session_meter"),
    /** {@code HupfIngress.upf.app_meter}. */
    APPLICATION_METER("application_meter"),
    /** {@code pre_qos_counter} and {@code post_qos_counter}, read together by index. */
    COUNTER("counter");

    private final String humanReadableName;

    UpfEntityType(String humanReadableName) {
        this.humanReadableName = humanReadableName;
    }

    /**
     * Returns a lower-case name for logs, CLI and REST.
     *
     * @return the name
     */
    public String humanReadableName() {
        return humanReadableName;
    }
}

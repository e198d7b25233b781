package org.hupf.api;

/**
 * Retroactive Packet Sampling as an ONOS service, for the REST API and the CLI: the settings in force, what the
 * devices' data planes counted and what the export did.
 */
public interface RpsService {

    /**
     * Returns RPS's status now: the settings, each device's {@code rps.events} read from it (with its pipeline's
     * sizes and the settings' warnings for them), and this node's export counts.
     *
     * @return status
     */
    RpsStatus status();
}

package org.hupf.pipeconf.api;

import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.ClassifierModel;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.driver.HandlerBehaviour;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What ONOS's UPF API lacks: on hupf hw devices HK-IPG configuration, MATADOR classifier installation
 * and backend steering, and Retroactive Packet Sampling; on every hupf device the routes no session owns and the VXLAN
 * tenants. Each call replaces the previous
 * configuration of its kind.
 */
public interface HupfDataplaneConfig extends HandlerBehaviour {

    /**
     * Sets the HK-IPG parameters and the tau table computed from them (thesis Eq. 4.9).
     *
     * @param config parameters
     * @throws UpfProgrammableException if the device lacks HK-IPG or refuses an entry
     */
    void configureHh(HhConfig config) throws UpfProgrammableException;

    /**
     * Installs a classifier model (docs/IDENTIFICATION.md).
     *
     * @param model model
     * @throws UpfProgrammableException if the device lacks the classifier or a table is too small
     */
    void installClassifier(ClassifierModel model) throws UpfProgrammableException;

    /**
     * Declares the ports that lead to backends.
     *
     * @param ports switch port numbers
     * @throws UpfProgrammableException if the device refuses an entry
     */
    void setBackendPorts(Collection<Long> ports) throws UpfProgrammableException;

    /**
     * Steers a slice's session misses over its backends (UE-address hash).
     *
     * @param sliceId  slice
     * @param backends backends
     * @throws UpfProgrammableException if the device refuses an entity
     */
    void setBackends(int sliceId, List<Backend> backends) throws UpfProgrammableException;

    /**
     * Makes the device's routes these (a read and a diff: routes already right are left alone).
     *
     * @param routes routes, one per prefix
     * @return entries removed plus entries written
     * @throws UpfProgrammableException if the device has no routes table or refuses an entry
     */
    int setRoutes(Collection<Route> routes) throws UpfProgrammableException;

    /**
     * Makes the device's VXLAN tenants these: the {@code tenants} entries (make before break) and the tenant
     * meter's cells (read and diff). A device whose pipeline has no tenant table is left alone.
     *
     * @param tenants tenants, one per VNI and local VTEP
     * @return entries and meter cells written or removed (0: nothing changed, or no tenant table)
     * @throws UpfProgrammableException if a value does not fit the pipeline or the device refuses an entry
     */
    int setTenants(Collection<Tenant> tenants) throws UpfProgrammableException;

    /**
     * Reads the tenant counter: packets and bytes of each tenant id's VXLAN frames as received.
     *
     * @return {packets, bytes} by tenant id; empty if the pipeline has no tenant counter
     * @throws UpfProgrammableException if the read fails
     */
    Map<Integer, long[]> readTenantCounters() throws UpfProgrammableException;

    /**
     * Makes the device's Retroactive Packet Sampling configuration this one ({@code rps.config},
     * {@code rps.flows}; make before break). A device whose pipeline has no RPS is left alone.
     *
     * @param config mode, quiet time, selection, buffer length and sampled flows
     * @return entries written or removed (0: nothing changed, or no RPS in the pipeline)
     * @throws UpfProgrammableException if a value does not fit the pipeline or the device refuses an entry
     */
    int setRps(RpsConfig config) throws UpfProgrammableException;

    /**
     * Reads the device's Retroactive Packet Sampling: its pipeline's sizes and both observation points'
     * {@code rps.events} counters.
     *
     * @return the state, empty if the pipeline has no RPS
     * @throws UpfProgrammableException if the read fails
     */
    Optional<RpsState> readRps() throws UpfProgrammableException;
}

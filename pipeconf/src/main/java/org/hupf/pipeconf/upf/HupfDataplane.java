package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.ClassifierModel;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.runtime.PiCloneSessionEntry;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiPreReplica;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.CPU_CLONE_SESSION_ID;

/**
 * What hupf's switch needs beyond ONOS's UPF API, written through any {@link PiTarget}, one writer per feature
 * of the P4 program (as its controls are): HK-IPG ({@link HhIpgWriter}), the MATADOR classifier
 * ({@link ClassifierWriter}), steering to the backends ({@link SteeringWriter}), the routes no session owns
 * ({@link RouteWriter}), the VXLAN tenants ({@link TenantWriter}, {@link TenantCounterReader}), Retroactive
 * Packet Sampling ({@link RpsWriter}), the traffic classes' queues ({@link QueueWriter}) and the CPU clone
 * session. Each call replaces what was there.
 */
public final class HupfDataplane {

    private final PiTarget target;
    private final HhIpgWriter hh;
    private final ClassifierWriter classifier;
    private final SteeringWriter steering;
    private final RouteWriter routes;
    private final TenantWriter tenants;
    private final TenantCounterReader tenantCounters;
    private final RpsWriter rps;
    private final QueueWriter queues;

    public HupfDataplane(PiPipelineModel model, PiTarget target) {
        DataplaneTables tables = new DataplaneTables(new PiCodec(model), target);
        this.target = target;
        this.hh = new HhIpgWriter(tables);
        this.classifier = new ClassifierWriter(tables);
        this.steering = new SteeringWriter(tables);
        this.routes = new RouteWriter(tables);
        this.tenants = new TenantWriter(tables);
        this.tenantCounters = new TenantCounterReader(tables);
        this.rps = new RpsWriter(tables);
        this.queues = new QueueWriter(tables);
    }

    /**
     * Entries for an HK-IPG configuration: the {@code hh_config} default entry and the tau ranges.
     *
     * @param c parameters
     * @return entries (default entry first)
     * @throws PiCodecException if this pipeline has no HK-IPG or a value does not fit
     */
    public List<PiTableEntry> hhEntries(HhConfig c) throws PiCodecException {
        return hh.entries(c);
    }

    /**
     * Configures HK-IPG, replacing the tau table.
     *
     * @param c parameters
     * @throws PiCodecException if this pipeline has no HK-IPG or a value does not fit
     * @throws PiTargetException if the device refuses an entry
     */
    public void configureHh(HhConfig c) throws PiCodecException, PiTargetException {
        hh.configure(c);
    }

    /**
     * Installs a classifier, replacing the previous one's entries.
     *
     * @param m model
     * @throws PiCodecException if this pipeline has no classifier or the model exceeds a table
     * @throws PiTargetException if the device refuses an entry
     */
    public void installClassifier(ClassifierModel m) throws PiCodecException, PiTargetException {
        classifier.install(m);
    }

    /**
     * Declares the switch ports that lead to backends: packets from them were processed there.
     *
     * @param ports port numbers
     * @throws PiCodecException if this pipeline has no steering or a port does not fit
     * @throws PiTargetException if the device refuses an entry
     */
    public void setBackendPorts(Collection<Long> ports) throws PiCodecException, PiTargetException {
        steering.setBackendPorts(ports);
    }

    /**
     * Entities that steer a slice's session misses to its backends ({@link SteeringWriter#entities}).
     *
     * @param sliceId  slice
     * @param backends backends (at least one)
     * @return members, then the group, then the table entry
     * @throws PiCodecException if this pipeline has no steering or a value does not fit
     */
    public List<PiEntity> steeringEntities(int sliceId, List<Backend> backends) throws PiCodecException {
        return steering.entities(sliceId, backends);
    }

    /**
     * Steers a slice's session misses to the given backends, replacing its previous backends, make before
     * break ({@link SteeringWriter#setBackends}).
     *
     * @param sliceId  slice
     * @param backends backends
     * @throws PiCodecException if this pipeline has no steering or a value does not fit
     * @throws PiTargetException if the device refuses an entity
     */
    public void setBackends(int sliceId, List<Backend> backends) throws PiCodecException, PiTargetException {
        steering.setBackends(sliceId, backends);
    }

    /**
     * Makes the device's routes these, by a read and a diff ({@link RouteWriter#setRoutes}).
     *
     * @param routes routes (one per prefix)
     * @return entries removed plus entries written (0: the device already held exactly these routes)
     * @throws PiCodecException if this pipeline has no routes, a value does not fit or a prefix repeats
     * @throws PiTargetException if the device refuses an entry
     */
    public int setRoutes(Collection<Route> routes) throws PiCodecException, PiTargetException {
        return this.routes.setRoutes(routes);
    }

    /**
     * Makes the device's tenants these ({@link TenantWriter#setTenants}); a pipeline without the tenant table
     * is left alone.
     *
     * @param tenants tenants (one per VNI and VTEP) with their slices
     * @return entries and cells written or removed (0: nothing changed, or no tenant table)
     * @throws PiCodecException if a value does not fit, a key repeats or a table is too small
     * @throws PiTargetException if the device refuses an entry
     */
    public int setTenants(Collection<Tenant> tenants) throws PiCodecException, PiTargetException {
        return this.tenants.setTenants(tenants);
    }

    /**
     * Reads the tenant counter in one read ({@link TenantCounterReader#tenantCounters}).
     *
     * @return {packets, bytes} by tenant id, every cell the device returned; empty if the pipeline has no tenants
     * @throws PiTargetException if the read fails
     */
    public Map<Integer, long[]> tenantCounters() throws PiTargetException {
        return tenantCounters.tenantCounters();
    }

    /**
     * Reads these cells of the slice counter, one read each ({@link TenantCounterReader#sliceCounters}).
     *
     * @param cells slice cells
     * @return {packets, bytes} by cell; empty if the pipeline has no slice counter
     * @throws PiTargetException if a read fails
     */
    public Map<Long, long[]> sliceCounters(Collection<Long> cells) throws PiTargetException {
        return tenantCounters.sliceCounters(cells);
    }

    /**
     * Makes the device's RPS configuration this one, make before break ({@link RpsWriter#setRps}); a pipeline
     * without RPS is left alone.
     *
     * @param c configuration
     * @return entries written or removed (0 for a pipeline without RPS)
     * @throws PiCodecException if a value does not fit the pipeline
     * @throws PiTargetException if the device refuses an entry
     */
    public int setRps(RpsConfig c) throws PiCodecException, PiTargetException {
        return rps.setRps(c);
    }

    /**
     * Reads the device's RPS sizes and event counters ({@link RpsWriter#readRps}).
     *
     * @return the state, empty for a pipeline without RPS (the sw profile, the TNA program)
     * @throws PiCodecException if the pipeline has RPS's tables without its registers
     * @throws PiTargetException if a read fails
     */
    public Optional<RpsState> readRps() throws PiCodecException, PiTargetException {
        return rps.readRps();
    }

    /**
     * Makes {@code qos.queues} map these traffic classes to these queues, make before break
     * ({@link QueueWriter#setQueues}).
     *
     * @param queueByTc queue (0..7) by traffic class (0..3)
     * @return entries written plus deleted (0: the device already held exactly these)
     * @throws PiCodecException if a class or queue does not fit the P4Info's widths
     * @throws PiTargetException if the device refuses an entry
     */
    public int setQueues(Map<Integer, Integer> queueByTc) throws PiCodecException, PiTargetException {
        return queues.setQueues(queueByTc);
    }

    /**
     * The clone session ACL copies and HH reports use: one replica to the CPU port (contract: Packet I/O).
     *
     * @param cpuPort the target's CPU port
     * @return clone session entry
     */
    public static PiCloneSessionEntry cpuCloneSession(long cpuPort) {
        return PiCloneSessionEntry.builder().withSessionId(CPU_CLONE_SESSION_ID)
                .addReplica(new PiPreReplica(PortNumber.portNumber(cpuPort), 1)).build();
    }

    /**
     * Creates (or updates) the CPU clone session; without it ACL copies and HH reports are lost.
     *
     * @param cpuPort the target's CPU port
     * @throws PiTargetException if the device refuses it
     */
    public void setCpuPort(long cpuPort) throws PiTargetException {
        target.write(List.of(cpuCloneSession(cpuPort)));
    }
}

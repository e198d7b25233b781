package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.gnb.GnbPipeconf;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.driver.Driver;
import org.onosproject.net.driver.DriverAdminService;
import org.onosproject.net.driver.DriverProvider;
import org.onosproject.net.flow.FlowRuleProgrammable;
import org.onosproject.net.group.GroupProgrammable;
import org.onosproject.net.meter.MeterProgrammable;
import org.onosproject.net.pi.model.DefaultPiPipeconf;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.BMV2_JSON;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.CPU_PORT_TXT;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.P4_INFO_TEXT;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.TOFINO_BIN;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.TOFINO_CONTEXT_JSON;

/**
 * Registers the hupf pipeconfs with ONOS: {@code org.hupf.bmv2}, {@code org.hupf.backend} and the gNB's
 * {@code org.hupf.gnb.bmv2} always,
 * {@code org.hupf.tofino} and {@code org.hupf.tofino2} only when their Tofino artifacts were packaged into
 * the bundle. When it stops, the drivers ONOS merged for its pipeconfs go too (see {@link #deactivate}).
 */
@Component(immediate = true)
public class PipeconfLoader {

    private static final Logger log = LoggerFactory.getLogger(PipeconfLoader.class);

    /** Where {@code make -C p4src} puts the compiler outputs inside the bundle. */
    static final String P4C_OUT = "/p4c-out/";
    /** ONOS names a merged driver {@code <base driver>:<pipeconf id>} (PiPipeconfManager). */
    static final String MERGED_DRIVER_SEPARATOR = ":";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DriverAdminService driverAdminService;

    private final List<PiPipeconfId> registered = new ArrayList<>();

    @Activate
    protected void activate() {
        register(HupfPipeconfIds.BMV2, "hw", "bmv2", true);
        register(HupfPipeconfIds.BACKEND, "sw", "bmv2", true);
        register(HupfPipeconfIds.TOFINO, "hw", "tofino", false);
        register(HupfPipeconfIds.TOFINO2, "hw", "tofino2", false);
        register(GnbPipeconf.ID, GnbPipeconf::build, "gnb/bmv2", true);
        log.info("Started, registered {}", registered);
    }

    /**
     * Unregisters the pipeconfs and the drivers ONOS merged for them. ONOS builds a device's driver from its base
     * driver and its pipeconf's behaviour classes once, and keeps it after the pipeconf is unregistered: a
     * reinstalled hupf would find its devices' drivers holding the uninstalled bundle's classes (another
     * {@code HupfUpf} class than the new bundle's, so the app would see no hupf device). Without them ONOS merges
     * the driver anew, from the new bundle, the next time a device's driver is looked up.
     */
    @Deactivate
    protected void deactivate() {
        registered.forEach(pipeconfService::unregister);
        Set<String> suffixes = registered.stream().map(id -> MERGED_DRIVER_SEPARATOR + id.id())
                .collect(Collectors.toSet());
        registered.clear();
        for (DriverProvider provider : Set.copyOf(driverAdminService.getProviders())) {
            Set<String> names = provider.getDrivers().stream().map(Driver::name).collect(Collectors.toSet());
            if (!names.isEmpty() && names.stream().allMatch(n -> suffixes.stream().anyMatch(n::endsWith))) {
                driverAdminService.unregisterProvider(provider);
                log.info("Unregistered the drivers ONOS merged for hupf's pipeconfs: {}", names);
            }
        }
        log.info("Stopped");
    }

    private void register(PiPipeconfId id, String profile, String target, boolean required) {
        register(id, () -> build(id, profile, target), profile + "/" + target, required);
    }

    /** Builds a pipeconf from its packaged artifacts; null when they are not packaged. */
    @FunctionalInterface
    interface Builder {
        PiPipeconf build() throws P4InfoParserException;
    }

    private void register(PiPipeconfId id, Builder builder, String artifacts, boolean required) {
        try {
            PiPipeconf pipeconf = builder.build();
            if (pipeconf == null) {
                if (required) {
                    log.error("Pipeconf {} not registered: {}{}/ is missing from the bundle", id, P4C_OUT, artifacts);
                } else {
                    log.info("Pipeconf {} not registered: no {} artifacts packaged", id, artifacts);
                }
                return;
            }
            pipeconfService.register(pipeconf);
            registered.add(id);
        } catch (P4InfoParserException | IllegalStateException e) {
            log.error("Pipeconf {} not registered: {}", id, e.getMessage());
        }
    }

    /**
     * Builds a pipeconf from the packaged artifacts.
     *
     * @param id      pipeconf id
     * @param profile P4 profile (hw or sw)
     * @param target  bmv2, tofino or tofino2
     * @return pipeconf, or null if its artifacts are not packaged
     * @throws P4InfoParserException if the P4Info does not parse
     */
    static PiPipeconf build(PiPipeconfId id, String profile, String target) throws P4InfoParserException {
        String dir = P4C_OUT + profile + "/" + target + "/";
        URL p4info = resource(dir + "p4info.txt");
        if (p4info == null) {
            return null;
        }
        DefaultPiPipeconf.Builder b = DefaultPiPipeconf.builder().withId(id)
                .withPipelineModel(P4InfoParser.parse(p4info))
                .addBehaviour(PiPipelineInterpreter.class, HupfInterpreter.class)
                .addBehaviour(Pipeliner.class, HupfPipeliner.class)
                .addBehaviour(MeterProgrammable.class, HupfMeters.class)
                .addBehaviour(GroupProgrammable.class, HupfGroups.class)
                .addExtension(P4_INFO_TEXT, p4info);
        if ("hw".equals(profile)) {
            b.addBehaviour(HupfUpf.class, HupfUpfProgrammable.class)
                    .addBehaviour(HupfDataplaneConfig.class, HupfDataplaneConfigImpl.class);
        } else {
            // The backend's tables are hupf's, written in P4Runtime batches: not ONOS flow rules.
            b.addBehaviour(HupfUpf.class, HupfBackendUpf.class)
                    .addBehaviour(HupfDataplaneConfig.class, HupfDataplaneConfigImpl.class)
                    .addBehaviour(FlowRuleProgrammable.class, HupfBackendFlowRules.class);
        }
        if ("bmv2".equals(target)) {
            URL json = resource(dir + "bmv2.json");
            if (json == null) {
                return null;
            }
            b.addExtension(BMV2_JSON, json);
        } else {
            // The binary as bfas names it for the target (tofino.bin, tofino2.bin): Stratum's Tofino binary.
            // Both are packaged gzipped (megabytes of padding and JSON: 1.9 MB and 8.4 MB for Tofino 2).
            URL bin = resource(dir + target + ".bin.gz");
            URL ctx = resource(dir + "context.json.gz");
            if (bin == null || ctx == null) {
                return null;
            }
            b.addExtension(TOFINO_BIN, inflating(bin)).addExtension(TOFINO_CONTEXT_JSON, inflating(ctx));
        }
        // Stratum targets learn the CPU port from this file; bmv2 gets it on its command line.
        URL cpuPort = resource(dir + "cpu_port.txt");
        if (cpuPort != null) {
            b.addExtension(CPU_PORT_TXT, cpuPort);
        }
        return b.build();
    }

    private static URL resource(String path) {
        return PipeconfLoader.class.getResource(path);
    }

    /**
     * A URL whose stream is the gzipped resource's content: ONOS opens an extension's URL whenever it hands the
     * extension to a driver, so the artifact is inflated then and never held inflated by the pipeconf.
     */
    static URL inflating(URL gzipped) {
        URLStreamHandler gunzip = new URLStreamHandler() {
            @Override
            protected URLConnection openConnection(URL u) {
                return new URLConnection(u) {
                    @Override
                    public void connect() {
                    }

                    @Override
                    public InputStream getInputStream() throws IOException {
                        return new GZIPInputStream(gzipped.openStream());
                    }
                };
            }
        };
        try {
            return new URL(null, gzipped.toString(), gunzip);
        } catch (MalformedURLException e) {
            throw new IllegalStateException("not a URL: " + gzipped, e);
        }
    }
}

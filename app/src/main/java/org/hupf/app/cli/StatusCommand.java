package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.SiteStatus;
import org.onlab.osgi.ServiceNotFoundException;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.ReferenceDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Whether hupf runs in this ONOS, from OSGi's own view rather than ONOS's app state (which says ACTIVE even
 * when Karaf refused a bundle): each hupf bundle's state, each component's, and for a component that is not
 * running what keeps it: the services it still waits for, or the exception its activation threw; then the UPF
 * sites, each with its switch, backends and sessions.
 */
@Service
@Command(scope = "hupf", name = "status",
        description = "Shows whether hupf's bundles and components run, and what keeps those that do not")
public class StatusCommand extends HupfCommand {

    /** The bundles of hupf's .oar. */
    static final List<String> BUNDLES = List.of("org.hupf.hupf-pipeconf", "org.hupf.hupf-api",
                                                "org.hupf.hupf-core", "org.hupf.hupf-app");

    @Override
    protected void doExecute() {
        Bundle[] all = FrameworkUtil.getBundle(StatusCommand.class).getBundleContext().getBundles();
        Map<String, String> states = new TreeMap<>();
        List<Bundle> hupf = new ArrayList<>();
        for (Bundle b : all) {
            if (BUNDLES.contains(b.getSymbolicName())) {
                states.put(b.getSymbolicName(), bundleState(b.getState()));
                hupf.add(b);
            }
        }
        ServiceComponentRuntime scr = get(ServiceComponentRuntime.class);
        report(states, scr.getComponentDescriptionDTOs(hupf.toArray(new Bundle[0])),
               scr::getComponentConfigurationDTOs).forEach(this::print);
        List<SiteStatus> sites;
        try {
            sites = SiteStatus.withHybrids(service().sites(), offload());
        } catch (ServiceNotFoundException e) {
            print("sites: unknown (hupf's session core is not running)");
            return;
        }
        print(sitesLine(sites));
    }

    /**
     * The "sites:" line: each site's switch, backends (and those up, where this node drives the site's hybrid),
     * sessions and sessions offloaded.
     *
     * @param sites the netcfg's sites, with their hybrids where this node drives them
     * @return the line
     */
    static String sitesLine(List<SiteStatus> sites) {
        if (sites.isEmpty()) {
            return "sites: one implicit site (the netcfg names none)";
        }
        List<String> each = new ArrayList<>();
        for (SiteStatus s : sites) {
            each.add(String.format("%s switch=%s backends=%d sessions=%d%s", s.siteId,
                                   s.switchId == null ? "none" : s.switchId, s.backends.size(), s.sessions,
                                   s.offloaded == null ? " (not driven by this node)"
                                           : String.format(" backendsUp=%d offloaded=%d", s.backendsUp.size(),
                                                           s.offloaded)));
        }
        return "sites: " + String.join("; ", each);
    }

    /**
     * The status lines: "hupf: running" or "hupf: NOT running", then one line per bundle and per component.
     *
     * @param bundles    hupf's bundles found, by symbolic name, with their state
     * @param components the component descriptions of those bundles
     * @param configs    a description's configurations (the component instances SCR made of it)
     * @return lines to print
     */
    static List<String> report(Map<String, String> bundles, Collection<ComponentDescriptionDTO> components,
                               Function<ComponentDescriptionDTO, Collection<ComponentConfigurationDTO>> configs) {
        List<String> lines = new ArrayList<>();
        boolean ok = true;
        for (String name : BUNDLES) {
            String state = bundles.getOrDefault(name, "not installed");
            ok &= state.equals("Active");
            lines.add(String.format("bundle %s: %s", name, state));
        }
        List<ComponentDescriptionDTO> sorted = new ArrayList<>(components);
        sorted.sort(Comparator.comparing(d -> d.name));
        for (ComponentDescriptionDTO d : sorted) {
            Collection<ComponentConfigurationDTO> cs = configs.apply(d);
            if (cs.isEmpty()) {
                ok = false;
                lines.add(String.format("component %s: %s", d.name, d.defaultEnabled ? "not made by SCR yet"
                        : "disabled"));
            }
            for (ComponentConfigurationDTO c : cs) {
                ok &= c.state == ComponentConfigurationDTO.ACTIVE || c.state == ComponentConfigurationDTO.SATISFIED;
                lines.add(String.format("component %s: %s", d.name, describe(d, c)));
            }
        }
        lines.add(0, ok ? "hupf: running" : "hupf: NOT running (see the lines below)");
        return lines;
    }

    private static String describe(ComponentDescriptionDTO d, ComponentConfigurationDTO c) {
        switch (c.state) {
            case ComponentConfigurationDTO.ACTIVE:
                return "ACTIVE";
            case ComponentConfigurationDTO.SATISFIED:
                return "SATISFIED";
            case ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION:
                return "UNSATISFIED_CONFIGURATION (waits for its configuration " + String.join(",", d.configurationPid)
                        + ")";
            case ComponentConfigurationDTO.UNSATISFIED_REFERENCE:
                List<String> missing = new ArrayList<>();
                for (UnsatisfiedReferenceDTO u : c.unsatisfiedReferences) {
                    missing.add(u.name + " (" + interfaceOf(d, u.name) + (u.target == null ? "" : " " + u.target)
                                        + ")");
                }
                return "UNSATISFIED_REFERENCE (waits for " + String.join(", ", missing) + ")";
            case ComponentConfigurationDTO.FAILED_ACTIVATION:
                return "FAILED_ACTIVATION: " + c.failure;
            default:
                return "state " + c.state;
        }
    }

    private static String interfaceOf(ComponentDescriptionDTO d, String reference) {
        return Arrays.stream(d.references).filter(r -> r.name.equals(reference)).map((ReferenceDTO r) -> r.interfaceName)
                .findFirst().orElse("?");
    }

    private static String bundleState(int state) {
        switch (state) {
            case Bundle.ACTIVE:
                return "Active";
            case Bundle.RESOLVED:
                return "Resolved (not started)";
            case Bundle.STARTING:
                return "Starting";
            case Bundle.STOPPING:
                return "Stopping";
            case Bundle.INSTALLED:
                return "Installed (not resolved: a package it imports is missing)";
            default:
                return "state " + state;
        }
    }
}

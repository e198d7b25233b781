package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;

import java.net.URL;
import java.util.List;

/** The committed P4Info of each profile and target, as packaged in the bundle, parsed by ONOS's parser. */
public final class Pipelines {

    private Pipelines() {
    }

    /**
     * (profile, target) of every committed P4Info: both profiles on bmv2, the hw profile compiled for Tofino 1 and
     * Tofino 2 (the TNA program: its own ids, a ternary application prefix, 20-bit range keys).
     */
    public static List<String[]> upfPipelines() {
        return List.of(new String[]{"hw", "bmv2"}, new String[]{"sw", "bmv2"}, new String[]{"hw", "tofino"},
                       new String[]{"hw", "tofino2"});
    }

    public static URL p4infoUrl(String profile) {
        return p4infoUrl(profile, "bmv2");
    }

    /** The P4Info of a profile compiled for a target (bmv2, or tofino or tofino2 for the hw profile). */
    public static URL p4infoUrl(String profile, String target) {
        URL url = Pipelines.class.getResource("/p4c-out/" + profile + "/" + target + "/p4info.txt");
        if (url == null) {
            throw new IllegalStateException("no committed P4Info for profile " + profile + " on " + target
                                                    + " (run make -C p4src)");
        }
        return url;
    }

    public static PiPipelineModel model(String profile) {
        return model(profile, "bmv2");
    }

    public static PiPipelineModel model(String profile, String target) {
        try {
            return P4InfoParser.parse(p4infoUrl(profile, target));
        } catch (P4InfoParserException e) {
            throw new IllegalStateException(e);
        }
    }
}

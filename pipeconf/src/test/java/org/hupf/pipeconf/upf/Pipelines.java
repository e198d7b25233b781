package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;

import java.net.URL;

/** The committed P4Info of each profile, as packaged in the bundle, parsed by ONOS's parser. */
public final class Pipelines {

    private Pipelines() {
    }

    public static URL p4infoUrl(String profile) {
        URL url = Pipelines.class.getResource("/p4c-out/" + profile + "/bmv2/p4info.txt");
        if (url == null) {
            throw new IllegalStateException("no committed P4Info for profile " + profile
                                                    + " (run make -C p4src)");
        }
        return url;
    }

    public static PiPipelineModel model(String profile) {
        try {
            return P4InfoParser.parse(p4infoUrl(profile));
        } catch (P4InfoParserException e) {
            throw new IllegalStateException(e);
        }
    }
}

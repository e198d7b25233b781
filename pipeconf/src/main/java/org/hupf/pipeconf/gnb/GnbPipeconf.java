package org.hupf.pipeconf.gnb;

import org.onosproject.net.pi.model.DefaultPiPipeconf;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;

import java.net.URL;

import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.BMV2_JSON;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.P4_INFO_TEXT;

/**
 * The pipeconf of hupf's gNB user-plane program on bmv2 (p4src/gnb/, docs/GNB.md): its P4Info and bmv2 JSON as
 * {@code make -C p4src/gnb} packages them. Its entries are PI entities ({@link GnbEntries}); it has no interpreter,
 * as the program exchanges no packets with the controller.
 */
public final class GnbPipeconf {

    public static final PiPipeconfId ID = new PiPipeconfId("org.hupf.gnb.bmv2");
    /** Where {@code make -C p4src/gnb} puts the compiler outputs inside the bundle. */
    static final String DIR = "/p4c-out/gnb/bmv2/";

    private GnbPipeconf() {
    }

    /**
     * @return the pipeconf, or null when its artifacts are not packaged
     * @throws P4InfoParserException if the P4Info does not parse
     */
    public static PiPipeconf build() throws P4InfoParserException {
        URL p4info = GnbPipeconf.class.getResource(DIR + "p4info.txt");
        URL json = GnbPipeconf.class.getResource(DIR + "bmv2.json");
        if (p4info == null || json == null) {
            return null;
        }
        return DefaultPiPipeconf.builder().withId(ID).withPipelineModel(P4InfoParser.parse(p4info))
                .addExtension(P4_INFO_TEXT, p4info).addExtension(BMV2_JSON, json).build();
    }
}

package org.hupf.standalone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.core.config.SitesParser;
import org.hupf.core.site.Site;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The standalone host's UPF sites ({@code --sites FILE}): a JSON object whose {@code "sites"} list is the block
 * of hupf's netcfg, read and checked by the same code ({@link SitesParser#sites}). The host's one in-memory device
 * holds every site's sessions: the file places sessions and refuses what no site serves, as in ONOS.
 */
final class SitesFile {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SitesFile() {
    }

    /**
     * Reads a sites file.
     *
     * @param path file
     * @return its sites, in the order given
     * @throws IOException if it cannot be read or is not JSON
     * @throws IllegalArgumentException naming the file and, as the netcfg does, the entry and field at fault
     */
    static List<Site> load(Path path) throws IOException {
        JsonNode root = MAPPER.readTree(path.toFile());
        if (root == null || !root.isObject() || root.size() != 1 || !root.has("sites")) {
            throw new IllegalArgumentException(path + ": an object {\"sites\": [...]} expected");
        }
        try {
            return SitesParser.sites(root);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage());
        }
    }
}

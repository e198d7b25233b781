package org.hupf.standalone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.core.config.TenantsParser;
import org.hupf.core.translation.SessionTenant;
import org.hupf.pipeconf.dataplane.Tenant;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The standalone host's VXLAN tenants ({@code --tenants FILE}): a JSON object whose {@code "tenants"} list is
 * the block of hupf's netcfg, read and checked by the same code as the netcfg's
 * ({@link TenantsParser#tenants}, {@link TenantsParser#sessionTenants}).
 */
final class TenantsFile {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    final List<Tenant> entries;
    final Map<String, SessionTenant> bindable;

    private TenantsFile(List<Tenant> entries, Map<String, SessionTenant> bindable) {
        this.entries = entries;
        this.bindable = bindable;
    }

    /** No tenants: the host without {@code --tenants}. */
    static TenantsFile none() {
        return new TenantsFile(List.of(), Map.of());
    }

    /**
     * Reads a tenants file.
     *
     * @param path file
     * @return its tenants
     * @throws IOException if it cannot be read or is not JSON
     * @throws IllegalArgumentException naming the file and, as the netcfg does, the entry and field at fault
     */
    static TenantsFile load(Path path) throws IOException {
        JsonNode root = MAPPER.readTree(path.toFile());
        if (root == null || !root.isObject() || root.size() != 1 || !root.has("tenants")) {
            throw new IllegalArgumentException(path + ": an object {\"tenants\": [...]} expected");
        }
        try {
            return new TenantsFile(TenantsParser.tenants(root), TenantsParser.sessionTenants(root));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage());
        }
    }
}

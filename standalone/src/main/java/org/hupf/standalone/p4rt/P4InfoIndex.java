package org.hupf.standalone.p4rt;

import com.google.protobuf.TextFormat;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.ActionProfile;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.Counter;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.Meter;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Name ↔ id lookups of one P4Info: P4Runtime messages carry ids, ONOS PI entities carry names.
 * Match fields and action parameters are scoped by their table or action.
 */
public final class P4InfoIndex {

    private final P4Info p4info;
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, String> names = new HashMap<>();
    private final Map<String, Integer> scopedIds = new HashMap<>();
    private final Map<String, String> scopedNames = new HashMap<>();
    private final Map<String, Integer> widths = new HashMap<>();

    public P4InfoIndex(P4Info p4info) {
        this.p4info = p4info;
        for (Table t : p4info.getTablesList()) {
            put(t.getPreamble().getId(), t.getPreamble().getName());
            for (MatchField f : t.getMatchFieldsList()) {
                putScoped(t.getPreamble().getId(), f.getId(), f.getName(), f.getBitwidth());
            }
        }
        for (Action a : p4info.getActionsList()) {
            put(a.getPreamble().getId(), a.getPreamble().getName());
            for (Action.Param p : a.getParamsList()) {
                putScoped(a.getPreamble().getId(), p.getId(), p.getName(), p.getBitwidth());
            }
        }
        for (Counter c : p4info.getCountersList()) {
            put(c.getPreamble().getId(), c.getPreamble().getName());
        }
        for (Meter m : p4info.getMetersList()) {
            put(m.getPreamble().getId(), m.getPreamble().getName());
        }
        for (ActionProfile ap : p4info.getActionProfilesList()) {
            put(ap.getPreamble().getId(), ap.getPreamble().getName());
        }
        for (ControllerPacketMetadata cpm : p4info.getControllerPacketMetadataList()) {
            put(cpm.getPreamble().getId(), cpm.getPreamble().getName());
            for (ControllerPacketMetadata.Metadata md : cpm.getMetadataList()) {
                putScoped(cpm.getPreamble().getId(), md.getId(), md.getName(), md.getBitwidth());
            }
        }
    }

    /**
     * Parses a P4Info in protobuf text format.
     *
     * @param url location of the P4Info text
     * @return index
     * @throws IOException if it cannot be read or parsed
     */
    public static P4InfoIndex parse(URL url) throws IOException {
        P4Info.Builder b = P4Info.newBuilder();
        try (Reader r = new InputStreamReader(url.openStream(), StandardCharsets.UTF_8)) {
            TextFormat.getParser().merge(r, b);
        }
        return new P4InfoIndex(b.build());
    }

    public P4Info p4info() {
        return p4info;
    }

    private void put(int id, String name) {
        ids.put(name, id);
        names.put(id, name);
    }

    private void putScoped(int scope, int id, String name, int width) {
        scopedIds.put(scope + "/" + name, id);
        scopedNames.put(scope + "/" + id, name);
        widths.put(scope + "/" + name, width);
    }

    /**
     * Returns the id of a table, action, counter, meter, action profile or packet metadata header.
     *
     * @param name fully qualified P4Info name
     * @return id
     * @throws P4RuntimeException if the P4Info has no such object
     */
    public int id(String name) throws P4RuntimeException {
        Integer id = ids.get(name);
        if (id == null) {
            throw new P4RuntimeException("P4Info has no object named " + name);
        }
        return id;
    }

    /**
     * Returns the name of an object by id.
     *
     * @param id P4Info id
     * @return name
     * @throws P4RuntimeException if unknown
     */
    public String name(int id) throws P4RuntimeException {
        String name = names.get(id);
        if (name == null) {
            throw new P4RuntimeException("P4Info has no object with id " + id);
        }
        return name;
    }

    /**
     * Returns the id of a match field, action parameter or packet metadata within its parent.
     *
     * @param scope parent id
     * @param name  member name
     * @return member id
     * @throws P4RuntimeException if unknown
     */
    public int memberId(int scope, String name) throws P4RuntimeException {
        Integer id = scopedIds.get(scope + "/" + name);
        if (id == null) {
            throw new P4RuntimeException(name(scope) + " has no member named " + name);
        }
        return id;
    }

    /**
     * Returns the name of a member by id.
     *
     * @param scope parent id
     * @param id    member id
     * @return member name
     * @throws P4RuntimeException if unknown
     */
    public String memberName(int scope, int id) throws P4RuntimeException {
        String name = scopedNames.get(scope + "/" + id);
        if (name == null) {
            throw new P4RuntimeException(name(scope) + " has no member with id " + id);
        }
        return name;
    }

    /**
     * Returns the bit width of a member.
     *
     * @param scope parent id
     * @param name  member name
     * @return bit width
     * @throws P4RuntimeException if unknown
     */
    public int memberWidth(int scope, String name) throws P4RuntimeException {
        Integer w = widths.get(scope + "/" + name);
        if (w == null) {
            throw new P4RuntimeException(name(scope) + " has no member named " + name);
        }
        return w;
    }
}

package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.dataplane.Tenant;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parses the netcfg's QoS blocks: {@code queues} (traffic class → queue) and {@code qfiToTc}.
 */
public final class QosParser {

    public static final String QUEUES = "queues";
    public static final String QFI_TO_TC = "qfiToTc";
    /** The highest v1model priority (qos.queues' qid, bit&lt;3&gt;). */
    private static final int MAX_QUEUE = 7;

    private QosParser() {
    }

    /**
     * Returns {@code qos.queues} as the netcfg gives it ({@code queues}: {@code {"tc": queue}}, the v1model
     * priority of each traffic class: bmv2's priority queue, the backend's egress queue on a port with a rate),
     * written to every device with the tenants; a class left out takes queue 0.
     *
     * @param root the netcfg's hupf object
     * @return queue (0..7) by traffic class (0..3), by class; empty without the field
     * @throws IllegalArgumentException naming the class that is not one or the queue out of range
     */
    public static Map<Integer, Integer> queues(JsonNode root) {
        Map<Integer, Integer> out = new TreeMap<>();
        JsonNode m = root.path(QUEUES);
        if (!m.isMissingNode() && !m.isObject()) {
            throw new IllegalArgumentException(QUEUES + ": an object {\"tc\": queue} expected, got " + m);
        }
        Iterator<Map.Entry<String, JsonNode>> it = m.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            int tc;
            try {
                tc = Integer.parseInt(e.getKey());
            } catch (NumberFormatException ex) {
                tc = -1;
            }
            if (tc < 0 || tc > Tenant.MAX_TC) {
                throw new IllegalArgumentException(QUEUES + ": key " + e.getKey() + " is not a traffic class (0 to "
                                                           + Tenant.MAX_TC + ")");
            }
            JsonNode q = e.getValue();
            if (!q.isInt() || q.asInt() < 0 || q.asInt() > MAX_QUEUE) {
                throw new IllegalArgumentException(QUEUES + ": " + e.getKey() + ": a queue in [0, " + MAX_QUEUE
                                                           + "] expected, got " + q);
            }
            out.put(tc, q.asInt());
        }
        return out;
    }

    /**
     * @param root the netcfg's hupf object
     * @return QFI to traffic class
     */
    public static Map<Integer, Integer> qfiToTc(JsonNode root) {
        Map<Integer, Integer> out = new HashMap<>();
        JsonNode m = root.path(QFI_TO_TC);
        Iterator<Map.Entry<String, JsonNode>> it = m.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            int qfi;
            try {
                qfi = Integer.parseInt(e.getKey());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(QFI_TO_TC + ": key " + e.getKey() + " is not a QFI");
            }
            if (qfi < 0 || qfi > 63 || !e.getValue().isInt() || e.getValue().asInt() < 0 || e.getValue().asInt() > 3) {
                throw new IllegalArgumentException(QFI_TO_TC + ": QFI in [0, 63] to class in [0, 3] expected at "
                                                           + e.getKey());
            }
            out.put(qfi, e.getValue().asInt());
        }
        return out;
    }
}

package org.hupf.core.pfcp.codec;

import org.hupf.api.session.Cause;

import java.util.Map;
import java.util.Set;

/**
 * PFCP IE types (TS 29.244 §8.1.2) that hupf reads or writes, and which of them are grouped.
 */
public final class IeType {
    public static final int CREATE_PDR = 1;
    public static final int PDI = 2;
    public static final int CREATE_FAR = 3;
    public static final int FORWARDING_PARAMETERS = 4;
    public static final int CREATE_URR = 6;
    public static final int CREATE_QER = 7;
    public static final int CREATED_PDR = 8;
    public static final int UPDATE_PDR = 9;
    public static final int UPDATE_FAR = 10;
    public static final int UPDATE_FORWARDING_PARAMETERS = 11;
    public static final int UPDATE_URR = 13;
    public static final int UPDATE_QER = 14;
    public static final int REMOVE_PDR = 15;
    public static final int REMOVE_FAR = 16;
    public static final int REMOVE_URR = 17;
    public static final int REMOVE_QER = 18;
    public static final int CAUSE = 19;
    public static final int SOURCE_INTERFACE = 20;
    public static final int F_TEID = 21;
    public static final int NETWORK_INSTANCE = 22;
    public static final int SDF_FILTER = 23;
    public static final int GATE_STATUS = 25;
    public static final int MBR = 26;
    public static final int GBR = 27;
    public static final int PRECEDENCE = 29;
    public static final int VOLUME_THRESHOLD = 31;
    public static final int REPORTING_TRIGGERS = 37;
    public static final int REPORT_TYPE = 39;
    public static final int OFFENDING_IE = 40;
    public static final int DESTINATION_INTERFACE = 42;
    public static final int UP_FUNCTION_FEATURES = 43;
    public static final int APPLY_ACTION = 44;
    public static final int DOWNLINK_DATA_SERVICE_INFORMATION = 45;
    public static final int PDR_ID = 56;
    public static final int F_SEID = 57;
    public static final int NODE_ID = 60;
    public static final int MEASUREMENT_METHOD = 62;
    public static final int USAGE_REPORT_TRIGGER = 63;
    public static final int MEASUREMENT_PERIOD = 64;
    public static final int VOLUME_MEASUREMENT = 66;
    public static final int DURATION_MEASUREMENT = 67;
    public static final int START_TIME = 75;
    public static final int END_TIME = 76;
    public static final int QUERY_URR = 77;
    public static final int USAGE_REPORT_MODIFICATION = 78;
    public static final int USAGE_REPORT_DELETION = 79;
    public static final int USAGE_REPORT_REPORT = 80;
    public static final int URR_ID = 81;
    public static final int DOWNLINK_DATA_REPORT = 83;
    public static final int OUTER_HEADER_CREATION = 84;
    public static final int CREATE_BAR = 85;
    public static final int UPDATE_BAR_SESSION_MODIFICATION = 86;
    public static final int REMOVE_BAR = 87;
    public static final int BAR_ID = 88;
    public static final int CP_FUNCTION_FEATURES = 89;
    public static final int UE_IP_ADDRESS = 93;
    public static final int OUTER_HEADER_REMOVAL = 95;
    public static final int RECOVERY_TIME_STAMP = 96;
    public static final int UR_SEQN = 104;
    public static final int FAR_ID = 108;
    public static final int QER_ID = 109;
    public static final int ASSOCIATION_RELEASE_REQUEST = 111;
    public static final int FAILED_RULE_ID = 114;
    public static final int QFI = 124;

    /** Grouped IEs: their value is a sequence of IEs (TS 29.244 §8.1.2, "Extendable"/grouped). */
    private static final Set<Integer> GROUPED = Set.of(
            CREATE_PDR, PDI, CREATE_FAR, FORWARDING_PARAMETERS, 5, CREATE_URR, CREATE_QER, CREATED_PDR,
            UPDATE_PDR, UPDATE_FAR, UPDATE_FORWARDING_PARAMETERS, 12,
            UPDATE_URR, UPDATE_QER, REMOVE_PDR, REMOVE_FAR, REMOVE_URR, REMOVE_QER, 51, 54, 58, 59, 68,
            QUERY_URR, USAGE_REPORT_MODIFICATION, USAGE_REPORT_DELETION, USAGE_REPORT_REPORT,
            DOWNLINK_DATA_REPORT, CREATE_BAR, UPDATE_BAR_SESSION_MODIFICATION, REMOVE_BAR, 99, 102, 105,
            118, 127, 128, 129, 130, 132, 133, 147);

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(CREATE_PDR, "Create PDR"), Map.entry(PDI, "PDI"), Map.entry(CREATE_FAR, "Create FAR"),
            Map.entry(FORWARDING_PARAMETERS, "Forwarding Parameters"), Map.entry(CREATE_URR, "Create URR"),
            Map.entry(CREATE_QER, "Create QER"), Map.entry(CREATED_PDR, "Created PDR"),
            Map.entry(UPDATE_PDR, "Update PDR"), Map.entry(UPDATE_FAR, "Update FAR"),
            Map.entry(UPDATE_FORWARDING_PARAMETERS, "Update Forwarding Parameters"),
            Map.entry(UPDATE_URR, "Update URR"), Map.entry(UPDATE_QER, "Update QER"),
            Map.entry(REMOVE_PDR, "Remove PDR"), Map.entry(REMOVE_FAR, "Remove FAR"),
            Map.entry(REMOVE_URR, "Remove URR"), Map.entry(REMOVE_QER, "Remove QER"), Map.entry(CAUSE, "Cause"),
            Map.entry(SOURCE_INTERFACE, "Source Interface"), Map.entry(F_TEID, "F-TEID"),
            Map.entry(NETWORK_INSTANCE, "Network Instance"), Map.entry(SDF_FILTER, "SDF Filter"),
            Map.entry(GATE_STATUS, "Gate Status"),
            Map.entry(MBR, "MBR"), Map.entry(GBR, "GBR"), Map.entry(PRECEDENCE, "Precedence"),
            Map.entry(VOLUME_THRESHOLD, "Volume Threshold"), Map.entry(REPORTING_TRIGGERS, "Reporting Triggers"),
            Map.entry(REPORT_TYPE, "Report Type"), Map.entry(OFFENDING_IE, "Offending IE"),
            Map.entry(DESTINATION_INTERFACE, "Destination Interface"),
            Map.entry(UP_FUNCTION_FEATURES, "UP Function Features"), Map.entry(APPLY_ACTION, "Apply Action"),
            Map.entry(DOWNLINK_DATA_SERVICE_INFORMATION, "Downlink Data Service Information"),
            Map.entry(PDR_ID, "PDR ID"), Map.entry(F_SEID, "F-SEID"), Map.entry(NODE_ID, "Node ID"),
            Map.entry(MEASUREMENT_METHOD, "Measurement Method"),
            Map.entry(USAGE_REPORT_TRIGGER, "Usage Report Trigger"),
            Map.entry(MEASUREMENT_PERIOD, "Measurement Period"),
            Map.entry(VOLUME_MEASUREMENT, "Volume Measurement"),
            Map.entry(DURATION_MEASUREMENT, "Duration Measurement"), Map.entry(START_TIME, "Start Time"),
            Map.entry(END_TIME, "End Time"), Map.entry(QUERY_URR, "Query URR"),
            Map.entry(USAGE_REPORT_MODIFICATION, "Usage Report (Session Modification Response)"),
            Map.entry(USAGE_REPORT_DELETION, "Usage Report (Session Deletion Response)"),
            Map.entry(USAGE_REPORT_REPORT, "Usage Report (Session Report Request)"), Map.entry(URR_ID, "URR ID"),
            Map.entry(DOWNLINK_DATA_REPORT, "Downlink Data Report"),
            Map.entry(OUTER_HEADER_CREATION, "Outer Header Creation"), Map.entry(CREATE_BAR, "Create BAR"),
            Map.entry(UPDATE_BAR_SESSION_MODIFICATION, "Update BAR"), Map.entry(REMOVE_BAR, "Remove BAR"),
            Map.entry(BAR_ID, "BAR ID"), Map.entry(CP_FUNCTION_FEATURES, "CP Function Features"),
            Map.entry(UE_IP_ADDRESS, "UE IP Address"), Map.entry(OUTER_HEADER_REMOVAL, "Outer Header Removal"),
            Map.entry(RECOVERY_TIME_STAMP, "Recovery Time Stamp"), Map.entry(UR_SEQN, "UR-SEQN"),
            Map.entry(FAR_ID, "FAR ID"), Map.entry(QER_ID, "QER ID"),
            Map.entry(ASSOCIATION_RELEASE_REQUEST, "PFCP Association Release Request"),
            Map.entry(FAILED_RULE_ID, "Failed Rule ID"), Map.entry(QFI, "QFI"));

    private IeType() {
    }

    /**
     * Returns whether an IE type is grouped.
     *
     * @param type IE type
     * @return true if its value is a list of IEs
     */
    public static boolean isGrouped(int type) {
        return GROUPED.contains(type);
    }

    /**
     * Returns a readable name with the number, e.g. "F-TEID(21)".
     *
     * @param type IE type
     * @return name
     */
    public static String name(int type) {
        return NAMES.getOrDefault(type, "IE") + "(" + type + ")";
    }
}

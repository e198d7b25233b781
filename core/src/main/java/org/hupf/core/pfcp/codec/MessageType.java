package org.hupf.core.pfcp.codec;

/**
 * PFCP message types (TS 29.244 §7.3) that hupf sends or answers.
 */
public final class MessageType {
    public static final int HEARTBEAT_REQUEST = 1;
    public static final int HEARTBEAT_RESPONSE = 2;
    public static final int ASSOCIATION_SETUP_REQUEST = 5;
    public static final int ASSOCIATION_SETUP_RESPONSE = 6;
    public static final int ASSOCIATION_UPDATE_REQUEST = 7;
    public static final int ASSOCIATION_UPDATE_RESPONSE = 8;
    public static final int ASSOCIATION_RELEASE_REQUEST = 9;
    public static final int ASSOCIATION_RELEASE_RESPONSE = 10;
    public static final int VERSION_NOT_SUPPORTED_RESPONSE = 11;
    public static final int SESSION_ESTABLISHMENT_REQUEST = 50;
    public static final int SESSION_ESTABLISHMENT_RESPONSE = 51;
    public static final int SESSION_MODIFICATION_REQUEST = 52;
    public static final int SESSION_MODIFICATION_RESPONSE = 53;
    public static final int SESSION_DELETION_REQUEST = 54;
    public static final int SESSION_DELETION_RESPONSE = 55;
    public static final int SESSION_REPORT_REQUEST = 56;
    public static final int SESSION_REPORT_RESPONSE = 57;

    private MessageType() {
    }

    /**
     * Returns whether a message type belongs to the session-related range, whose header carries a SEID.
     *
     * @param type message type
     * @return true for session messages (50..99)
     */
    public static boolean isSessionMessage(int type) {
        return type >= 50 && type < 100;
    }

    /**
     * Returns whether a type is a request hupf answers or sends. Requests have odd types here.
     *
     * @param type message type
     * @return true for a known request
     */
    public static boolean isKnownRequest(int type) {
        switch (type) {
            case HEARTBEAT_REQUEST:
            case ASSOCIATION_SETUP_REQUEST:
            case ASSOCIATION_UPDATE_REQUEST:
            case ASSOCIATION_RELEASE_REQUEST:
            case SESSION_ESTABLISHMENT_REQUEST:
            case SESSION_MODIFICATION_REQUEST:
            case SESSION_DELETION_REQUEST:
            case SESSION_REPORT_REQUEST:
                return true;
            default:
                return false;
        }
    }
}

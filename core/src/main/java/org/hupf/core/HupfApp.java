package org.hupf.core;

/**
 * Names shared by the hupf application's components.
 */
public final class HupfApp {

    /** ONOS application name, as in the .oar's app.xml; also the topic of hupf's cluster leadership. */
    public static final String APP_NAME = "org.hupf.app";

    private HupfApp() {
    }
}

package org.hupf.standalone.p4rt;

/**
 * Where a device's connection stands, as a status API shows it.
 */
public enum DeviceState {
    /** Primary, pipeline in place, reconciled: writes go through. */
    UP,
    /** The stream is lost (device dead or unreachable): reconnecting with backoff; writes fail. */
    DOWN,
    /** Primary again: checking the pipeline and putting every session back. */
    RECONCILING
}

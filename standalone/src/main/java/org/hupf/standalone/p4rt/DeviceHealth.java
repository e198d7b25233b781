package org.hupf.standalone.p4rt;

/**
 * A device connection's health, for status reports (REST, CLI, the lab's status file).
 */
public interface DeviceHealth {

    /** @return the device's address, e.g. 127.0.0.1:9559/1 (host:port/device id) */
    String address();

    /** @return current state */
    DeviceState state();

    /** @return the last failure (stream loss, failed reconnect or recovery), or null if none yet */
    String lastError();

    /** @return when the state last changed, epoch ms */
    long sinceMillis();

    /** @return how many times the connection was re-established after a loss */
    long reconnects();

    /** @return Write RPCs sent so far, answered or not: with the requests served, what batching achieved */
    long writes();

    /** @return Read RPCs sent so far, answered or not */
    long reads();

    /** @return of the Writes, those answered over hupf-backend's local write channel (docs/PIPELINE_CONTRACT.md) */
    long localWrites();
}

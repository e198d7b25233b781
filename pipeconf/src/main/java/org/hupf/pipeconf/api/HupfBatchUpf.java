package org.hupf.pipeconf.api;

/**
 * A hupf device inside ONOS whose UPF entities are written in batches, one P4Runtime WriteRequest per batch
 * through ONOS's P4Runtime client (the backend: millions of entries that ONOS's flow rule subsystem does not
 * hold; hupf's session store is their source of truth). Its batches are {@link BatchUpfDevice} writes, the one batch
 * contract of every hupf device, and its counter cells are read together ({@link BatchCounterReader}).
 */
public interface HupfBatchUpf extends HupfUpf, BatchUpfDevice, BatchCounterReader {
}

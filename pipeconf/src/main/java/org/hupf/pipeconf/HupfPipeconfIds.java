package org.hupf.pipeconf;

import org.onosproject.net.pi.model.PiPipeconfId;

/**
 * Identifiers of the pipeconfs that hupf registers: one per (P4 profile, target) pair.
 */
public final class HupfPipeconfIds {

    /** hw profile on bmv2 simple_switch_grpc / Stratum-bmv2. */
    public static final PiPipeconfId BMV2 = new PiPipeconfId("org.hupf.bmv2");
    /** hw profile on Tofino (registered only when its compiled artifacts are packaged). */
    public static final PiPipeconfId TOFINO = new PiPipeconfId("org.hupf.tofino");
    /** sw profile on the x86 DPDK backend. */
    public static final PiPipeconfId BACKEND = new PiPipeconfId("org.hupf.backend");

    private HupfPipeconfIds() {
    }
}

package org.hupf.pipeconf;

import org.onosproject.net.pi.model.PiPipeconfId;

import java.util.Set;

/**
 * Identifiers of the pipeconfs that hupf registers: one per (P4 profile, target) pair.
 */
public final class HupfPipeconfIds {

    /** hw profile on bmv2 simple_switch_grpc / Stratum-bmv2. */
    public static final PiPipeconfId BMV2 = new PiPipeconfId("org.hupf.bmv2");
    /** hw profile on Tofino (registered only when its compiled artifacts are packaged). */
    public static final PiPipeconfId TOFINO = new PiPipeconfId("org.hupf.tofino");
    /** hw profile on Tofino 2 (registered only when its compiled artifacts are packaged). */
    public static final PiPipeconfId TOFINO2 = new PiPipeconfId("org.hupf.tofino2");
    /** sw profile on the x86 DPDK backend. */
    public static final PiPipeconfId BACKEND = new PiPipeconfId("org.hupf.backend");
    /** The hw profile's pipeconfs: a device with one of them is the hybrid's switch. */
    public static final Set<PiPipeconfId> SWITCHES = Set.of(BMV2, TOFINO, TOFINO2);

    private HupfPipeconfIds() {
    }
}

package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.Backend;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiActionProfileMemberId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Writes the switch's steering to the backends: the ports that lead to them ({@code backend_ports}) and, per
 * slice, the {@code backends} action selector's members and group.
 */
final class SteeringWriter {

    /** Member ids are slice * MEMBERS_PER_SLICE + index, so a slice's members are found by id. */
    private static final int MEMBERS_PER_SLICE = 1 << 16;

    private final DataplaneTables tables;

    SteeringWriter(DataplaneTables tables) {
        this.tables = tables;
    }

    /**
     * Declares the switch ports that lead to backends: packets from them were processed there.
     *
     * @param ports port numbers
     * @throws PiCodecException if this pipeline has no steering or a port does not fit
     * @throws PiTargetException if the device refuses an entry
     */
    void setBackendPorts(Collection<Long> ports) throws PiCodecException, PiTargetException {
        PiCodec codec = tables.codec();
        PiTableId t = HUPF_INGRESS_STEERING_BACKEND_PORTS;
        tables.requireFits(t, ports.size());
        List<PiEntity> entries = new ArrayList<>();
        for (long p : ports) {
            entries.add(PiTableEntry.builder().forTable(t)
                                .withMatchKey(PiMatchKey.builder().addFieldMatch(
                                        new PiExactFieldMatch(HDR_IG_PORT, codec.field(t, HDR_IG_PORT, p))).build())
                                .withAction(codec.action(HUPF_INGRESS_STEERING_FROM_BACKEND)).build());
        }
        tables.replace(List.of(t), entries);
    }

    /**
     * Entities that steer a slice's session misses to its backends: one selector member per backend, with
     * the backend's weight in the group, one group per slice (id slice + 1), the {@code backends} entry of the slice pointing at the group.
     *
     * @param sliceId  slice
     * @param backends backends (at least one)
     * @return members, then the group, then the table entry
     * @throws PiCodecException if this pipeline has no steering or a value does not fit
     */
    List<PiEntity> entities(int sliceId, List<Backend> backends) throws PiCodecException {
        PiCodec codec = tables.codec();
        PiTableId t = HUPF_INGRESS_STEERING_BACKENDS;
        long groupMax = codec.model().actionProfiles(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)
                .orElseThrow(() -> new PiCodecException("pipeline has no backend selector")).maxGroupSize();
        if (backends.isEmpty() || (groupMax > 0 && backends.size() > groupMax)) {
            throw new PiCodecException("a slice needs 1.." + groupMax + " backends, got " + backends.size());
        }
        List<PiEntity> out = new ArrayList<>();
        PiActionProfileGroup.Builder group = PiActionProfileGroup.builder()
                .withActionProfileId(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)
                .withId(groupId(sliceId)).withMaxSize((int) groupMax);
        for (int i = 0; i < backends.size(); i++) {
            Backend b = backends.get(i);
            PiActionProfileMember m = PiActionProfileMember.builder()
                    .forActionProfile(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)
                    .withId(memberId(sliceId, i))
                    .withAction(codec.action(HUPF_INGRESS_STEERING_STEER_TO_BACKEND,
                                             PORT, b.port(), DST_MAC, b.mac().toLong()))
                    .build();
            out.add(m);
            group.addMember(m.id(), b.weight());
        }
        out.add(group.build());
        out.add(PiTableEntry.builder().forTable(t)
                        .withMatchKey(PiMatchKey.builder().addFieldMatch(
                                new PiExactFieldMatch(HDR_SLICE_ID, codec.field(t, HDR_SLICE_ID, sliceId))).build())
                        .withAction(groupId(sliceId)).build());
        return out;
    }

    /**
     * Steers a slice's session misses to the given backends, replacing its previous backends. Make before
     * break: the members and the group are written in place (inserted, or modified where they exist) and the
     * slice's entry kept, so that its misses always have a backend to go to (a backend that dies, or comes
     * back, moves its UEs without a gap); only then go the members the group no longer holds.
     *
     * @param sliceId  slice
     * @param backends backends
     * @throws PiCodecException if this pipeline has no steering or a value does not fit
     * @throws PiTargetException if the device refuses an entity
     */
    void setBackends(int sliceId, List<Backend> backends) throws PiCodecException, PiTargetException {
        PiTarget target = tables.target();
        target.write(entities(sliceId, backends));
        List<PiEntity> stale = new ArrayList<>();
        for (PiActionProfileMember m : target.readMembers(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)) {
            int id = m.id().id();
            if (id / MEMBERS_PER_SLICE == sliceId && id % MEMBERS_PER_SLICE >= backends.size()) {
                stale.add(m);
            }
        }
        target.delete(stale);
    }

    static PiActionProfileGroupId groupId(int sliceId) {
        return PiActionProfileGroupId.of(sliceId + 1);
    }

    static PiActionProfileMemberId memberId(int sliceId, int index) {
        return PiActionProfileMemberId.of(sliceId * MEMBERS_PER_SLICE + index);
    }
}

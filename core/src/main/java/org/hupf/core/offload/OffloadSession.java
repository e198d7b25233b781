package org.hupf.core.offload;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;

import java.util.Arrays;
import java.util.Collection;
import java.util.Set;

/**
 * What the offload manager knows of one UE session: its UE address (the HH flow key), the attributes
 * that policy pins look at, and the per-session UPF entities the translator produced for it.
 * Interfaces and applications are device-wide and are not part of a session.
 */
public final class OffloadSession {

    private final Ip4Address ueAddress;
    private final int ueBits;
    private final int sliceId;
    private final Set<Integer> qfis;
    private final ImmutableList<UpfEntity> entities;

    private OffloadSession(Ip4Address ueAddress, int ueBits, int sliceId, Set<Integer> qfis,
                           ImmutableList<UpfEntity> entities) {
        this.ueAddress = ueAddress;
        this.ueBits = ueBits;
        this.sliceId = sliceId;
        this.qfis = qfis;
        this.entities = entities;
    }

    /**
     * Creates a session view.
     *
     * @param ueAddress UE IPv4 address
     * @param sliceId   slice of the session
     * @param qfis      QoS flow identifiers of its flows
     * @param entities  sessions, terminations, tunnel peers and meters of this session
     * @return the session
     * @throws IllegalArgumentException if an entity is device-wide or a counter cell
     */
    public static OffloadSession of(Ip4Address ueAddress, int sliceId, Collection<Integer> qfis,
                                    Collection<? extends UpfEntity> entities) {
        if (ueAddress == null) {
            throw new IllegalArgumentException("ueAddress is required");
        }
        return of(ueAddress, Ip4Bits.of(ueAddress), sliceId, qfis, entities);
    }

    /** {@link #of(Ip4Address, int, Collection, Collection)} with the address's bits worked out already. */
    static OffloadSession of(Ip4Address ueAddress, int ueBits, int sliceId, Collection<Integer> qfis,
                             Collection<? extends UpfEntity> entities) {
        for (UpfEntity e : entities) {
            UpfEntityType t = e.type();
            if (t == UpfEntityType.INTERFACE || t == UpfEntityType.APPLICATION || t == UpfEntityType.COUNTER) {
                throw new IllegalArgumentException("a session cannot carry a " + t.humanReadableName() + " entity");
            }
        }
        return new OffloadSession(ueAddress, ueBits, sliceId, ImmutableSet.copyOf(qfis),
                                  ImmutableList.copyOf(entities));
    }

    public Ip4Address ueAddress() {
        return ueAddress;
    }

    /** @return the UE address's 32 bits ({@link Ip4Bits#of}), worked out once */
    int ueBits() {
        return ueBits;
    }

    public int sliceId() {
        return sliceId;
    }

    public Set<Integer> qfis() {
        return qfis;
    }

    public ImmutableList<UpfEntity> entities() {
        return entities;
    }

    /** @return the backend counter cells its terminations count in, ascending, each once */
    int[] counterIds() {
        int[] ids = new int[entities.size()];
        int n = 0;
        for (UpfEntity e : entities) {
            if (e instanceof UpfTerminationUplink) {
                ids[n++] = ((UpfTerminationUplink) e).counterId();
            } else if (e instanceof UpfTerminationDownlink) {
                ids[n++] = ((UpfTerminationDownlink) e).counterId();
            }
        }
        Arrays.sort(ids, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (distinct == 0 || ids[i] != ids[distinct - 1]) {
                ids[distinct++] = ids[i];
            }
        }
        return Arrays.copyOf(ids, distinct);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("OffloadSession").add("ue", ueAddress).add("slice", sliceId)
                .add("qfis", qfis).add("entities", entities.size()).toString();
    }
}

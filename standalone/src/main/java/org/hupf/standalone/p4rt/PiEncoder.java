package org.hupf.standalone.p4rt;

import com.google.protobuf.ByteString;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiActionProfileMemberId;
import org.onosproject.net.pi.runtime.PiCloneSessionEntry;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;
import org.onosproject.net.pi.runtime.PiPreReplica;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.MeterConfig;
import p4.v1.P4RuntimeOuterClass.MeterEntry;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketMetadata;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;

/**
 * ONOS PI entities ↔ P4Runtime v1 messages, names resolved to ids through the P4Info.
 * Values are sent padded to their P4Info bit width (accepted by every P4Runtime server) and accepted
 * in any length back, as long as the value fits the width; decoded values are padded to the width.
 */
public final class PiEncoder {

    private static final String PACKET_OUT = "packet_out";
    private static final String PACKET_IN = "packet_in";

    private final P4InfoIndex p4info;

    public PiEncoder(P4InfoIndex p4info) {
        this.p4info = p4info;
    }

    public P4InfoIndex p4info() {
        return p4info;
    }

    /**
     * Encodes an entity for a Write.
     *
     * @param entity table entry, meter cell configuration, counter cell (its value), action profile member or
     *               group, clone session
     * @return the P4Runtime entity
     * @throws P4RuntimeException if the entity is of another kind or does not fit the P4Info
     */
    public Entity encode(PiEntity entity) throws P4RuntimeException {
        switch (entity.piEntityType()) {
            case TABLE_ENTRY:
                return Entity.newBuilder().setTableEntry(tableEntry((PiTableEntry) entity)).build();
            case METER_CELL_CONFIG:
                return Entity.newBuilder().setMeterEntry(meterEntry((PiMeterCellConfig) entity)).build();
            case COUNTER_CELL:
                return Entity.newBuilder().setCounterEntry(counterEntry((PiCounterCell) entity)).build();
            case ACTION_PROFILE_MEMBER:
                return Entity.newBuilder().setActionProfileMember(member((PiActionProfileMember) entity)).build();
            case ACTION_PROFILE_GROUP:
                return Entity.newBuilder().setActionProfileGroup(group((PiActionProfileGroup) entity)).build();
            case PRE_ENTRY:
                if (entity instanceof PiCloneSessionEntry) {
                    return Entity.newBuilder().setPacketReplicationEngineEntry(
                            PacketReplicationEngineEntry.newBuilder()
                                    .setCloneSessionEntry(cloneSession((PiCloneSessionEntry) entity))).build();
                }
                throw new P4RuntimeException("hupf writes clone sessions only, not " + entity);
            default:
                throw new P4RuntimeException("hupf does not write " + entity.piEntityType() + " entities");
        }
    }

    /**
     * Decodes an entity of a ReadResponse.
     *
     * @param entity P4Runtime entity
     * @return PI entity
     * @throws P4RuntimeException if it refers to unknown ids or is of an unsupported kind
     */
    public PiEntity decode(Entity entity) throws P4RuntimeException {
        switch (entity.getEntityCase()) {
            case TABLE_ENTRY:
                return piTableEntry(entity.getTableEntry());
            case METER_ENTRY:
                return piMeterCell(entity.getMeterEntry());
            case COUNTER_ENTRY:
                return piCounterCell(entity.getCounterEntry());
            case ACTION_PROFILE_MEMBER:
                return piMember(entity.getActionProfileMember());
            case ACTION_PROFILE_GROUP:
                return piGroup(entity.getActionProfileGroup());
            case PACKET_REPLICATION_ENGINE_ENTRY:
                if (entity.getPacketReplicationEngineEntry().hasCloneSessionEntry()) {
                    return piCloneSession(entity.getPacketReplicationEngineEntry().getCloneSessionEntry());
                }
                throw new P4RuntimeException("cannot decode a multicast group entry");
            default:
                throw new P4RuntimeException("cannot decode a " + entity.getEntityCase() + " entity");
        }
    }

    // ---- wildcard reads

    public Entity readTable(PiTableId table) throws P4RuntimeException {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(p4info.id(table.id()))).build();
    }

    /**
     * Reads one counter cell, or all with a negative index.
     *
     * @param counter counter id
     * @param index   cell index or -1
     * @return read entity
     * @throws P4RuntimeException if the counter is unknown
     */
    public Entity readCounter(PiCounterId counter, long index) throws P4RuntimeException {
        CounterEntry.Builder b = CounterEntry.newBuilder().setCounterId(p4info.id(counter.id()));
        if (index >= 0) {
            b.setIndex(Index.newBuilder().setIndex(index));
        }
        return Entity.newBuilder().setCounterEntry(b).build();
    }

    private CounterEntry counterEntry(PiCounterCell c) throws P4RuntimeException {
        return CounterEntry.newBuilder().setCounterId(p4info.id(c.cellId().counterId().id()))
                .setIndex(Index.newBuilder().setIndex(c.cellId().index()))
                .setData(CounterData.newBuilder().setPacketCount(c.data().packets()).setByteCount(c.data().bytes()))
                .build();
    }

    public Entity readMeter(PiMeterId meter) throws P4RuntimeException {
        return Entity.newBuilder().setMeterEntry(MeterEntry.newBuilder().setMeterId(p4info.id(meter.id()))).build();
    }

    public Entity readMembers(PiActionProfileId profile) throws P4RuntimeException {
        return Entity.newBuilder().setActionProfileMember(
                ActionProfileMember.newBuilder().setActionProfileId(p4info.id(profile.id()))).build();
    }

    public Entity readGroups(PiActionProfileId profile) throws P4RuntimeException {
        return Entity.newBuilder().setActionProfileGroup(
                ActionProfileGroup.newBuilder().setActionProfileId(p4info.id(profile.id()))).build();
    }

    // ---- table entries

    /**
     * Encodes a table entry.
     *
     * @param e table entry
     * @return P4Runtime table entry
     * @throws P4RuntimeException if a name or value does not fit the P4Info
     */
    public TableEntry tableEntry(PiTableEntry e) throws P4RuntimeException {
        int tableId = p4info.id(e.table().id());
        TableEntry.Builder b = TableEntry.newBuilder().setTableId(tableId);
        if (e.isDefaultAction()) {
            b.setIsDefaultAction(true);
        }
        for (PiFieldMatch m : e.matchKey().fieldMatches()) {
            b.addMatch(fieldMatch(tableId, m));
        }
        e.priority().ifPresent(b::setPriority);
        if (e.action() != null) {
            b.setAction(tableAction(e.action()));
        }
        return b.build();
    }

    private FieldMatch fieldMatch(int tableId, PiFieldMatch m) throws P4RuntimeException {
        String name = m.fieldId().id();
        int width = p4info.memberWidth(tableId, name);
        FieldMatch.Builder b = FieldMatch.newBuilder().setFieldId(p4info.memberId(tableId, name));
        switch (m.type()) {
            case EXACT:
                return b.setExact(FieldMatch.Exact.newBuilder()
                                          .setValue(bytes(((PiExactFieldMatch) m).value(), width, name))).build();
            case LPM:
                PiLpmFieldMatch lpm = (PiLpmFieldMatch) m;
                return b.setLpm(FieldMatch.LPM.newBuilder().setValue(bytes(lpm.value(), width, name))
                                        .setPrefixLen(lpm.prefixLength())).build();
            case TERNARY:
                PiTernaryFieldMatch t = (PiTernaryFieldMatch) m;
                return b.setTernary(FieldMatch.Ternary.newBuilder().setValue(bytes(t.value(), width, name))
                                            .setMask(bytes(t.mask(), width, name))).build();
            case RANGE:
                PiRangeFieldMatch r = (PiRangeFieldMatch) m;
                return b.setRange(FieldMatch.Range.newBuilder().setLow(bytes(r.lowValue(), width, name))
                                          .setHigh(bytes(r.highValue(), width, name))).build();
            default:
                throw new P4RuntimeException("match type " + m.type() + " of " + name + " is not supported");
        }
    }

    private TableAction tableAction(PiTableAction a) throws P4RuntimeException {
        switch (a.type()) {
            case ACTION:
                return TableAction.newBuilder().setAction(action((PiAction) a)).build();
            case ACTION_PROFILE_GROUP_ID:
                return TableAction.newBuilder().setActionProfileGroupId(((PiActionProfileGroupId) a).id()).build();
            case ACTION_PROFILE_MEMBER_ID:
                return TableAction.newBuilder().setActionProfileMemberId(((PiActionProfileMemberId) a).id()).build();
            default:
                throw new P4RuntimeException("table action type " + a.type() + " is not supported");
        }
    }

    private Action action(PiAction a) throws P4RuntimeException {
        int actionId = p4info.id(a.id().id());
        Action.Builder b = Action.newBuilder().setActionId(actionId);
        for (PiActionParam p : a.parameters()) {
            String name = p.id().id();
            b.addParams(Action.Param.newBuilder().setParamId(p4info.memberId(actionId, name))
                                .setValue(bytes(p.value(), p4info.memberWidth(actionId, name), name)));
        }
        return b.build();
    }

    /**
     * Decodes a table entry.
     *
     * @param e P4Runtime table entry
     * @return PI table entry
     * @throws P4RuntimeException if it refers to unknown ids
     */
    public PiTableEntry piTableEntry(TableEntry e) throws P4RuntimeException {
        PiTableEntry.Builder b = PiTableEntry.builder().forTable(PiTableId.of(p4info.name(e.getTableId())));
        PiMatchKey.Builder key = PiMatchKey.builder();
        for (FieldMatch m : e.getMatchList()) {
            key.addFieldMatch(piFieldMatch(e.getTableId(), m));
        }
        b.withMatchKey(e.getMatchCount() == 0 ? PiMatchKey.EMPTY : key.build());
        if (e.getPriority() != 0) {
            b.withPriority(e.getPriority());
        }
        if (e.hasAction()) {
            b.withAction(piTableAction(e.getAction()));
        }
        return b.build();
    }

    private PiFieldMatch piFieldMatch(int tableId, FieldMatch m) throws P4RuntimeException {
        String name = p4info.memberName(tableId, m.getFieldId());
        PiMatchFieldId id = PiMatchFieldId.of(name);
        int w = p4info.memberWidth(tableId, name);
        switch (m.getFieldMatchTypeCase()) {
            case EXACT:
                return new PiExactFieldMatch(id, piBytes(m.getExact().getValue(), w, name));
            case LPM:
                return new PiLpmFieldMatch(id, piBytes(m.getLpm().getValue(), w, name), m.getLpm().getPrefixLen());
            case TERNARY:
                return new PiTernaryFieldMatch(id, piBytes(m.getTernary().getValue(), w, name),
                                               piBytes(m.getTernary().getMask(), w, name));
            case RANGE:
                return new PiRangeFieldMatch(id, piBytes(m.getRange().getLow(), w, name),
                                             piBytes(m.getRange().getHigh(), w, name));
            default:
                throw new P4RuntimeException("match type " + m.getFieldMatchTypeCase() + " is not supported");
        }
    }

    private PiTableAction piTableAction(TableAction a) throws P4RuntimeException {
        switch (a.getTypeCase()) {
            case ACTION:
                return piAction(a.getAction());
            case ACTION_PROFILE_GROUP_ID:
                return PiActionProfileGroupId.of(a.getActionProfileGroupId());
            case ACTION_PROFILE_MEMBER_ID:
                return PiActionProfileMemberId.of(a.getActionProfileMemberId());
            default:
                throw new P4RuntimeException("table action " + a.getTypeCase() + " is not supported");
        }
    }

    private PiAction piAction(Action a) throws P4RuntimeException {
        PiAction.Builder b = PiAction.builder().withId(PiActionId.of(p4info.name(a.getActionId())));
        for (Action.Param p : a.getParamsList()) {
            String name = p4info.memberName(a.getActionId(), p.getParamId());
            b.withParameter(new PiActionParam(PiActionParamId.of(name),
                                              piBytes(p.getValue(), p4info.memberWidth(a.getActionId(), name), name)));
        }
        return b.build();
    }

    // ---- meters and counters

    private MeterEntry meterEntry(PiMeterCellConfig c) throws P4RuntimeException {
        MeterEntry.Builder b = MeterEntry.newBuilder()
                .setMeterId(p4info.id(c.cellId().meterId().id()))
                .setIndex(Index.newBuilder().setIndex(c.cellId().index()));
        // No config = reset the cell to "all packets green" (P4Runtime §9.5).
        if (!c.meterBands().isEmpty()) {
            if (c.committedBand() == null || c.peakBand() == null) {
                throw new P4RuntimeException("meter cell " + c.cellId() + " needs both committed and peak band");
            }
            b.setConfig(MeterConfig.newBuilder()
                                .setCir(c.committedBand().rate()).setCburst(c.committedBand().burst())
                                .setPir(c.peakBand().rate()).setPburst(c.peakBand().burst()));
        }
        return b.build();
    }

    private PiMeterCellConfig piMeterCell(MeterEntry m) throws P4RuntimeException {
        PiMeterCellId id = PiMeterCellId.ofIndirect(PiMeterId.of(p4info.name(m.getMeterId())),
                                                    m.getIndex().getIndex());
        MeterConfig c = m.getConfig();
        if (!m.hasConfig() || c.equals(MeterConfig.getDefaultInstance())) {
            return PiMeterCellConfig.reset(id);
        }
        return PiMeterCellConfig.builder().withMeterCellId(id)
                .withCommittedBand(c.getCir(), c.getCburst()).withPeakBand(c.getPir(), c.getPburst()).build();
    }

    private PiCounterCell piCounterCell(CounterEntry c) throws P4RuntimeException {
        return new PiCounterCell(PiCounterCellId.ofIndirect(PiCounterId.of(p4info.name(c.getCounterId())),
                                                            c.getIndex().getIndex()),
                                 c.getData().getPacketCount(), c.getData().getByteCount());
    }

    // ---- action profiles

    private ActionProfileMember member(PiActionProfileMember m) throws P4RuntimeException {
        return ActionProfileMember.newBuilder()
                .setActionProfileId(p4info.id(m.actionProfile().id()))
                .setMemberId(m.id().id())
                .setAction(action(m.action())).build();
    }

    private PiActionProfileMember piMember(ActionProfileMember m) throws P4RuntimeException {
        return PiActionProfileMember.builder()
                .forActionProfile(PiActionProfileId.of(p4info.name(m.getActionProfileId())))
                .withId(PiActionProfileMemberId.of(m.getMemberId()))
                .withAction(piAction(m.getAction())).build();
    }

    private ActionProfileGroup group(PiActionProfileGroup g) throws P4RuntimeException {
        ActionProfileGroup.Builder b = ActionProfileGroup.newBuilder()
                .setActionProfileId(p4info.id(g.actionProfile().id()))
                .setGroupId(g.id().id())
                .setMaxSize(g.maxSize());
        for (PiActionProfileGroup.WeightedMember m : g.members()) {
            b.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(m.id().id()).setWeight(m.weight()));
        }
        return b.build();
    }

    private PiActionProfileGroup piGroup(ActionProfileGroup g) throws P4RuntimeException {
        PiActionProfileGroup.Builder b = PiActionProfileGroup.builder()
                .withActionProfileId(PiActionProfileId.of(p4info.name(g.getActionProfileId())))
                .withId(PiActionProfileGroupId.of(g.getGroupId()))
                .withMaxSize(g.getMaxSize());
        for (ActionProfileGroup.Member m : g.getMembersList()) {
            b.addMember(PiActionProfileMemberId.of(m.getMemberId()), m.getWeight());
        }
        return b.build();
    }

    // ---- packet replication

    private static CloneSessionEntry cloneSession(PiCloneSessionEntry c) {
        CloneSessionEntry.Builder b = CloneSessionEntry.newBuilder().setSessionId(c.sessionId())
                .setClassOfService(c.classOfService()).setPacketLengthBytes(c.maxPacketLengthBytes());
        for (PiPreReplica r : c.replicas()) {
            b.addReplicas(Replica.newBuilder().setEgressPort((int) r.egressPort().toLong()).setInstance(r.instanceId()));
        }
        return b.build();
    }

    private static PiCloneSessionEntry piCloneSession(CloneSessionEntry c) {
        PiCloneSessionEntry.Builder b = PiCloneSessionEntry.builder().withSessionId(c.getSessionId())
                .withClassOfService(c.getClassOfService()).withMaxPacketLengthBytes(c.getPacketLengthBytes());
        for (Replica r : c.getReplicasList()) {
            b.addReplica(new PiPreReplica(PortNumber.portNumber(r.getEgressPort()), r.getInstance()));
        }
        return b.build();
    }

    // ---- packet I/O

    /**
     * Encodes a packet-out; its metadata names must be those of the P4Info's {@code packet_out} header.
     *
     * @param op packet operation
     * @return packet-out message
     * @throws P4RuntimeException if a metadata is unknown or does not fit
     */
    public PacketOut packetOut(PiPacketOperation op) throws P4RuntimeException {
        if (op.type() != PiPacketOperationType.PACKET_OUT) {
            throw new P4RuntimeException("not a packet-out: " + op.type());
        }
        int hdr = p4info.id(PACKET_OUT);
        PacketOut.Builder b = PacketOut.newBuilder().setPayload(ByteString.copyFrom(op.data().asArray()));
        for (PiPacketMetadata md : op.metadatas()) {
            String name = md.id().id();
            b.addMetadata(PacketMetadata.newBuilder().setMetadataId(p4info.memberId(hdr, name))
                                  .setValue(bytes(md.value(), p4info.memberWidth(hdr, name), name)));
        }
        return b.build();
    }

    /**
     * Decodes a packet-in.
     *
     * @param in packet-in message
     * @return packet operation with named metadata
     * @throws P4RuntimeException if a metadata id is unknown
     */
    public PiPacketOperation packetIn(PacketIn in) throws P4RuntimeException {
        int hdr = p4info.id(PACKET_IN);
        PiPacketOperation.Builder b = PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(in.getPayload().toByteArray()));
        for (PacketMetadata md : in.getMetadataList()) {
            String name = p4info.memberName(hdr, md.getMetadataId());
            b.withMetadata(PiPacketMetadata.builder().withId(PiPacketMetadataId.of(name))
                                   .withValue(piBytes(md.getValue(), p4info.memberWidth(hdr, name), name)).build());
        }
        return b.build();
    }

    // ---- byte strings

    /**
     * Encodes a value padded to {@code width} bits' bytes.
     *
     * @param v     value
     * @param width bit width
     * @param what  name for the error message
     * @return byte string
     * @throws P4RuntimeException if the value needs more than {@code width} bits
     */
    static ByteString bytes(ImmutableByteSequence v, int width, String what) throws P4RuntimeException {
        BigInteger n = new BigInteger(1, v.asArray());
        if (n.bitLength() > width) {
            throw new P4RuntimeException(what + " = 0x" + n.toString(16) + " does not fit in " + width + " bits");
        }
        byte[] raw = n.toByteArray();
        byte[] out = new byte[(width + 7) / 8];
        int copy = Math.min(raw.length, out.length);
        System.arraycopy(raw, raw.length - copy, out, out.length - copy, copy);
        return ByteString.copyFrom(out);
    }

    /**
     * Decodes a value to its width's byte length, as ONOS builds values: servers may answer with the
     * canonical (shortest) form (P4Runtime §8.4).
     */
    private static ImmutableByteSequence piBytes(ByteString b, int width, String what) throws P4RuntimeException {
        return ImmutableByteSequence.copyFrom(bytes(ImmutableByteSequence.copyFrom(b.toByteArray()), width, what)
                                                      .toByteArray());
    }
}

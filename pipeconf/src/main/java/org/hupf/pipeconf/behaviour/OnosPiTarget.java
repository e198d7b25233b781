package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.upf.PiTarget;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.PiWrites;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellHandle;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiEntityType;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.p4runtime.api.P4RuntimeClient;
import org.onosproject.p4runtime.api.P4RuntimeReadClient;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@link PiTarget} inside ONOS. On the switch, table entries go through the flow rule service, so that ONOS
 * keeps them (its P4Runtime flow rule programmable removes entries it does not know); on the backend (no flow
 * rule service given) they go straight to the device's P4Runtime client, as meter cells, counters and action
 * profile members/groups always do: the backend's pipeconf keeps ONOS's flow rule subsystem off its tables.
 */
public final class OnosPiTarget implements PiTarget {

    /** Priority of entries in tables without ternary/range keys, where P4Runtime ignores it. */
    static final int DEFAULT_PRIORITY = 10;

    private final DeviceId deviceId;
    private final ApplicationId appId;
    private final FlowRuleService flowRules;
    private final P4RuntimeClient client;
    private final long p4DeviceId;
    private final PiPipeconf pipeconf;
    private final PrimaryGate primary;

    /** Returns once this node's P4Runtime client may write to the device (it is the primary one). */
    @FunctionalInterface
    public interface PrimaryGate {
        /**
         * @throws PiTargetException if this node does not become the device's master in time
         */
        void await() throws PiTargetException;
    }

    /**
     * @param deviceId   device
     * @param appId      owner of the flow rules
     * @param flowRules  flow rule service, or null to write and read table entries through the client
     * @param client     the device's P4Runtime client
     * @param p4DeviceId P4Runtime device id
     * @param pipeconf   the device's pipeconf
     * @param primary    waits until this node may write to the device
     */
    public OnosPiTarget(DeviceId deviceId, ApplicationId appId, FlowRuleService flowRules,
                        P4RuntimeClient client, long p4DeviceId, PiPipeconf pipeconf, PrimaryGate primary) {
        this.deviceId = deviceId;
        this.appId = appId;
        this.flowRules = flowRules;
        this.client = client;
        this.p4DeviceId = p4DeviceId;
        this.pipeconf = pipeconf;
        this.primary = primary;
    }

    /**
     * Expresses a PI table entry as an ONOS flow rule (PI criterion + PI table action).
     *
     * @param e        table entry
     * @param deviceId device
     * @param appId    owner application
     * @return flow rule
     * @throws PiTargetException if the priority is beyond what ONOS flow rules hold
     */
    public static FlowRule toFlowRule(PiTableEntry e, DeviceId deviceId, ApplicationId appId)
            throws PiTargetException {
        int priority = e.priority().orElse(DEFAULT_PRIORITY);
        if (priority > FlowRule.MAX_PRIORITY) {
            throw new PiTargetException("priority " + priority + " of a " + e.table() + " entry exceeds ONOS's "
                                                + "flow rule maximum " + FlowRule.MAX_PRIORITY);
        }
        TrafficSelector.Builder sel = DefaultTrafficSelector.builder();
        if (!e.matchKey().fieldMatches().isEmpty()) {
            PiCriterion.Builder c = PiCriterion.builder();
            e.matchKey().fieldMatches().forEach(c::add);
            sel.matchPi(c.build());
        }
        return DefaultFlowRule.builder().forDevice(deviceId).forTable(e.table()).fromApp(appId)
                .withSelector(sel.build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(e.action()).build())
                .withPriority(priority).makePermanent().build();
    }

    /**
     * Reads a flow rule made by {@link #toFlowRule} back as a PI table entry.
     *
     * @param r flow rule
     * @return table entry
     * @throws PiTargetException if the rule is not expressed in PI terms
     */
    public static PiTableEntry toTableEntry(FlowRule r) throws PiTargetException {
        if (!(r.table() instanceof PiTableId)) {
            throw new PiTargetException("flow rule " + r.id() + " is not in a PI table");
        }
        PiMatchKey.Builder key = PiMatchKey.builder();
        for (Criterion c : r.selector().criteria()) {
            if (!(c instanceof PiCriterion)) {
                throw new PiTargetException("flow rule " + r.id() + " has a non-PI criterion " + c);
            }
            ((PiCriterion) c).fieldMatches().forEach(key::addFieldMatch);
        }
        List<Instruction> ins = r.treatment().allInstructions();
        if (ins.size() != 1 || !(ins.get(0) instanceof PiInstruction)) {
            throw new PiTargetException("flow rule " + r.id() + " has no single PI action: " + ins);
        }
        PiTableEntry.Builder b = PiTableEntry.builder().forTable((PiTableId) r.table())
                .withMatchKey(r.selector().criteria().isEmpty() ? PiMatchKey.EMPTY : key.build())
                .withAction(((PiInstruction) ins.get(0)).action());
        boolean needsPriority = r.selector().criteria().stream()
                .flatMap(c -> ((PiCriterion) c).fieldMatches().stream())
                .anyMatch(m -> m.type() == org.onosproject.net.pi.model.PiMatchType.TERNARY
                        || m.type() == org.onosproject.net.pi.model.PiMatchType.RANGE);
        if (needsPriority) {
            b.withPriority(r.priority());
        }
        return b.build();
    }

    /**
     * Table entries as flow rules go in write-rank stages ({@link OrderedFlowRules}), after the meter cells and
     * action profile members and groups they refer to, and are removed before them; written straight to the
     * device (the backend), a call is one P4Runtime WriteRequest.
     */
    @Override
    public boolean keepsWriteRank() {
        return flowRules != null;
    }

    @Override
    public void write(Collection<? extends PiEntity> entities) throws PiTargetException {
        List<FlowRule> rules = new ArrayList<>();
        List<PiEntity> direct = new ArrayList<>();
        split(entities, rules, direct);
        // Meter cells always exist (modify); action profile members and groups are new (insert): hupf
        // deletes a slice's old ones first. They are written (and acknowledged) before the table entries
        // that refer to them: a steering entry that reaches the device before its selector group is refused
        // ("invalid member / group id").
        if (!direct.isEmpty()) {
            primary.await();
            // Insert, or modify what exists (a group given other members, a member another backend).
            List<PiEntity> existing = new ArrayList<>();
            submit(() -> {
                P4RuntimeWriteClient.WriteRequest req = client.write(p4DeviceId, pipeconf);
                for (PiEntity e : direct) {
                    req.entity(e, PiWrites.isModifyOnly(e)
                            ? P4RuntimeWriteClient.UpdateType.MODIFY : P4RuntimeWriteClient.UpdateType.INSERT);
                }
                return req;
            }, NotPrimary.BUDGET_MS, existing);
            if (!existing.isEmpty()) {
                submit(() -> client.write(p4DeviceId, pipeconf).entities(existing,
                        P4RuntimeWriteClient.UpdateType.MODIFY), NotPrimary.BUDGET_MS, null);
            }
        }
        if (!rules.isEmpty()) {
            OrderedFlowRules.install(flowRules, rules, OrderedFlowRules.CONFIRM_WAIT_MS);
        }
    }

    @Override
    public void delete(Collection<? extends PiEntity> entities) throws PiTargetException {
        List<FlowRule> rules = new ArrayList<>();
        List<PiEntity> direct = new ArrayList<>();
        split(entities, rules, direct);
        if (!rules.isEmpty()) {
            OrderedFlowRules.remove(flowRules, rules, OrderedFlowRules.CONFIRM_WAIT_MS);
        }
        if (!direct.isEmpty()) {
            primary.await();
            List<org.onosproject.net.pi.runtime.PiHandle> handles = new ArrayList<>();
            direct.forEach(e -> handles.add(e.handle(deviceId)));
            submit(() -> client.write(p4DeviceId, pipeconf).delete(handles), NotPrimary.BUDGET_MS, null);
        }
    }

    private void split(Collection<? extends PiEntity> entities, List<FlowRule> rules, List<PiEntity> direct)
            throws PiTargetException {
        for (PiEntity e : entities) {
            if (e.piEntityType() == PiEntityType.TABLE_ENTRY && flowRules != null) {
                rules.add(toFlowRule((PiTableEntry) e, deviceId, appId));
            } else {
                direct.add(e);
            }
        }
    }

    /**
     * Writes a request, again while the device refuses it whole for want of primacy ({@link NotPrimary}), for
     * up to {@code deniedBudgetMs}.
     *
     * @param requests       the request, made anew for each attempt
     * @param deniedBudgetMs how long a request refused for want of primacy is written again
     * @param existing       where the inserts the device answered ALREADY_EXIST go; null: they are failures
     * @throws PiTargetException if the device refused some of it, or all of it for longer than the budget
     */
    static void submit(Supplier<P4RuntimeWriteClient.WriteRequest> requests, long deniedBudgetMs,
                       List<PiEntity> existing) throws PiTargetException {
        long deadline = System.nanoTime() + deniedBudgetMs * 1_000_000L;
        while (true) {
            P4RuntimeWriteClient.WriteResponse resp = requests.get().submitSync();
            if (resp.isSuccess()) {
                return;
            }
            if (existing != null && resp.failed().stream().allMatch(
                    f -> f.status() == P4RuntimeWriteClient.EntityUpdateStatus.ALREADY_EXIST)) {
                resp.failed().forEach(f -> existing.add(f.entity()));
                return;
            }
            Throwable rpc = NotPrimary.rpcError(resp);
            boolean again = rpc != null && NotPrimary.isPermissionDenied(rpc)
                    && System.nanoTime() + NotPrimary.RETRY_PAUSE_MS * 1_000_000L < deadline;
            if (!again) {
                StringBuilder why = new StringBuilder("P4Runtime write failed:");
                resp.failed().forEach(f -> why.append("\n  ").append(f.entityType()).append(' ')
                        .append(f.status()).append(' ').append(f.explanation()));
                throw new PiTargetException(why.toString());
            }
            try {
                Thread.sleep(NotPrimary.RETRY_PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PiTargetException("interrupted while writing again a request refused for want of primacy");
            }
        }
    }

    @Override
    public Collection<PiTableEntry> readTable(PiTableId table) throws PiTargetException {
        if (flowRules == null) {
            List<PiTableEntry> entries = new ArrayList<>();
            for (PiTableEntry e : read(client.read(p4DeviceId, pipeconf).tableEntries(table), PiTableEntry.class)) {
                if (!e.isDefaultAction()) {
                    entries.add(e);
                }
            }
            return entries;
        }
        List<PiTableEntry> out = new ArrayList<>();
        for (FlowEntry r : flowRules.getFlowEntriesById(appId)) {
            if (r.deviceId().equals(deviceId) && table.equals(r.table())) {
                out.add(toTableEntry(r));
            }
        }
        return out;
    }

    @Override
    public Collection<PiCounterCell> readCounter(PiCounterId counter, long index) throws PiTargetException {
        P4RuntimeReadClient.ReadRequest req = client.read(p4DeviceId, pipeconf);
        if (index < 0) {
            req.counterCells(counter);
        } else {
            req.handle(PiCounterCellHandle.of(deviceId, PiCounterCellId.ofIndirect(counter, index)));
        }
        return read(req, PiCounterCell.class);
    }

    @Override
    public Collection<PiCounterCell> readCounterCells(Collection<PiCounterCellId> cells) throws PiTargetException {
        List<PiCounterCellHandle> handles = new ArrayList<>(cells.size());
        cells.forEach(c -> handles.add(PiCounterCellHandle.of(deviceId, c)));
        return read(client.read(p4DeviceId, pipeconf).handles(handles), PiCounterCell.class);
    }

    @Override
    public Collection<PiMeterCellConfig> readMeter(PiMeterId meter) throws PiTargetException {
        return read(client.read(p4DeviceId, pipeconf).meterCells(meter), PiMeterCellConfig.class);
    }

    @Override
    public Collection<PiActionProfileMember> readMembers(PiActionProfileId profile) throws PiTargetException {
        return read(client.read(p4DeviceId, pipeconf).actionProfileMembers(profile), PiActionProfileMember.class);
    }

    @Override
    public Collection<PiActionProfileGroup> readGroups(PiActionProfileId profile) throws PiTargetException {
        return read(client.read(p4DeviceId, pipeconf).actionProfileGroups(profile), PiActionProfileGroup.class);
    }

    /** Reads; a read that timed out (ONOS's fixed 10 s) on a device that still answers is made again. */
    private <E extends PiEntity> Collection<E> read(P4RuntimeReadClient.ReadRequest req, Class<E> type)
            throws PiTargetException {
        P4RuntimeReadClient.ReadResponse resp = TimedOut.again(req::submitSync,
                r -> r.isSuccess() ? null : r.throwable(), client::probeService, TimedOut.BUDGET_MS);
        if (!resp.isSuccess()) {
            throw new PiTargetException("P4Runtime read failed: " + resp.explanation(), resp.throwable());
        }
        return resp.all(type);
    }
}

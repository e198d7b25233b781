package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.ClassifierModel;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Installs a MATADOR classifier: the {@code cls_config} default action, the six feature range tables, the
 * decision table and class → traffic class.
 */
final class ClassifierWriter {

    private static final Map<String, PiTableId> FEATURE_TABLES = Map.of(
            "pkts_up", HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_UP, "pkts_dn", HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_DN,
            "ps_up", HUPF_INGRESS_CLASSIFIER_FEATURE_PS_UP, "ps_dn", HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN,
            "ipg_up", HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_UP, "ipg_dn", HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_DN);
    private static final Map<String, PiActionId> FEATURE_ACTIONS = Map.of(
            "pkts_up", HUPF_INGRESS_CLASSIFIER_SET_CODE_PKTS_UP, "pkts_dn", HUPF_INGRESS_CLASSIFIER_SET_CODE_PKTS_DN,
            "ps_up", HUPF_INGRESS_CLASSIFIER_SET_CODE_PS_UP, "ps_dn", HUPF_INGRESS_CLASSIFIER_SET_CODE_PS_DN,
            "ipg_up", HUPF_INGRESS_CLASSIFIER_SET_CODE_IPG_UP, "ipg_dn", HUPF_INGRESS_CLASSIFIER_SET_CODE_IPG_DN);
    private static final List<PiMatchFieldId> DECISION_KEYS = List.of(
            HDR_CODE_PKTS_UP, HDR_CODE_PKTS_DN, HDR_CODE_PS_UP, HDR_CODE_PS_DN, HDR_CODE_IPG_UP, HDR_CODE_IPG_DN);

    private final DataplaneTables tables;

    ClassifierWriter(DataplaneTables tables) {
        this.tables = tables;
    }

    /**
     * Entries of a classifier model: {@code cls_config} default entry, six feature tables, decision,
     * class → tc.
     *
     * @param m model
     * @return entries
     * @throws PiCodecException if this pipeline has no classifier or the model exceeds a table
     */
    List<PiTableEntry> entries(ClassifierModel m) throws PiCodecException {
        PiCodec codec = tables.codec();
        codec.table(HUPF_INGRESS_CLASSIFIER_CLS_CONFIG);
        List<PiTableEntry> out = new ArrayList<>();
        out.add(DataplaneTables.defaultEntry(HUPF_INGRESS_CLASSIFIER_CLS_CONFIG, codec.action(
                HUPF_INGRESS_CLASSIFIER_SET_CLS_PARAMS, tables.withAlphaShift(
                        HUPF_INGRESS_CLASSIFIER_SET_CLS_PARAMS, m.alphaShift(), WINDOW_US, m.windowUs()))));
        for (String f : ClassifierModel.FEATURES) {
            PiTableId t = FEATURE_TABLES.get(f);
            List<PiTableEntry> ranges = new ArrayList<>();
            for (ClassifierModel.Range r : m.ranges(f)) {
                tables.rangeEntry(t, HDR_VALUE, r.lo, r.hi, codec.action(FEATURE_ACTIONS.get(f), CODE, r.code))
                        .ifPresent(ranges::add);
            }
            tables.requireFits(t, ranges.size());
            out.addAll(ranges);
        }
        PiTableId decision = HUPF_INGRESS_CLASSIFIER_DECISION;
        tables.requireFits(decision, m.decisions().size());
        for (ClassifierModel.Decision d : m.decisions()) {
            PiMatchKey.Builder key = PiMatchKey.builder();
            for (int i = 0; i < DECISION_KEYS.size(); i++) {
                key.addFieldMatch(new PiExactFieldMatch(DECISION_KEYS.get(i),
                                                        codec.field(decision, DECISION_KEYS.get(i), d.codes.get(i))));
            }
            out.add(PiTableEntry.builder().forTable(decision).withMatchKey(key.build())
                            .withAction(codec.action(HUPF_INGRESS_CLASSIFIER_SET_CLASS, CLASS_ID, d.classId))
                            .build());
        }
        PiTableId tcTable = HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC;
        tables.requireFits(tcTable, m.classTc().size());
        for (Map.Entry<Integer, Integer> e : m.classTc().entrySet()) {
            out.add(PiTableEntry.builder().forTable(tcTable)
                            .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiExactFieldMatch(
                                    HDR_CLASS_ID, codec.field(tcTable, HDR_CLASS_ID, e.getKey()))).build())
                            .withAction(codec.action(HUPF_INGRESS_CLASSIFIER_SET_TC, TC, e.getValue())).build());
        }
        return out;
    }

    /**
     * Installs a classifier, replacing the previous one's entries.
     *
     * @param m model
     * @throws PiCodecException if this pipeline has no classifier or the model exceeds a table
     * @throws PiTargetException if the device refuses an entry
     */
    void install(ClassifierModel m) throws PiCodecException, PiTargetException {
        List<PiTableId> all = new ArrayList<>(FEATURE_TABLES.values());
        all.add(HUPF_INGRESS_CLASSIFIER_DECISION);
        all.add(HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC);
        tables.replace(all, entries(m));
    }
}

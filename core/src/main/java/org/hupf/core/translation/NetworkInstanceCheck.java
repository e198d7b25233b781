package org.hupf.core.translation;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a rule naming a Network Instance that is neither a tenant's nor one this UPF serves: the session would
 * be accepted without the isolation or the network its SMF asked for.
 */
final class NetworkInstanceCheck {

    private NetworkInstanceCheck() {
    }

    /**
     * Checks every rule's Network Instance, PDRs first, each kind by rule id.
     *
     * @param s                session
     * @param known            tenants by network instance
     * @param networkInstances the names served beside the tenants'; null: any
     * @throws RuleException 73 naming the first rule with an unknown name, Offending IE Network Instance
     */
    static void check(PfcpSession s, Map<String, SessionTenant> known, Set<String> networkInstances)
            throws RuleException {
        if (networkInstances == null || allKnown(s, known, networkInstances)) {
            return;
        }
        List<Pdr> pdrs = new ArrayList<>(s.pdrs.values());
        pdrs.sort(Comparator.comparingInt(p -> p.pdrId));
        for (Pdr p : pdrs) {
            check(p.networkInstance, known, networkInstances, 0, p.pdrId, "PDR " + p.pdrId);
        }
        List<Far> fars = new ArrayList<>(s.fars.values());
        fars.sort(Comparator.comparingLong(f -> f.farId));
        for (Far f : fars) {
            check(f.networkInstance, known, networkInstances, 1, f.farId, "FAR " + f.farId);
        }
    }

    /** Whether every name is known: a session's commonly are, and then its rules need no sorting. */
    private static boolean allKnown(PfcpSession s, Map<String, SessionTenant> known, Set<String> networkInstances) {
        for (Pdr p : s.pdrs.values()) {
            if (!known(p.networkInstance, known, networkInstances)) {
                return false;
            }
        }
        for (Far f : s.fars.values()) {
            if (!known(f.networkInstance, known, networkInstances)) {
                return false;
            }
        }
        return true;
    }

    private static boolean known(String name, Map<String, SessionTenant> known, Set<String> networkInstances) {
        return name == null || known.containsKey(name) || networkInstances.contains(name);
    }

    private static void check(String name, Map<String, SessionTenant> known, Set<String> networkInstances,
                              int ruleType, long ruleId, String rule) throws RuleException {
        if (!known(name, known, networkInstances)) {
            Set<String> served = new TreeSet<>(networkInstances);
            served.addAll(known.keySet());
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, ruleType, ruleId,
                                    RuleException.NETWORK_INSTANCE_IE, rule + ": unknown Network Instance '" + name
                                            + "' (served: " + String.join(", ", served) + ")");
        }
    }
}

package org.hupf.core.pfcp;

import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.ModificationRequest;
import org.hupf.core.pfcp.message.ModificationResponse;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.UsageReport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Session Modification (TS 29.244 §7.5.4) of a session the requesting peer owns: its rules edited, the usage
 * reports it asks for (Query URR) or ends (a URR removed); answered once every device acknowledged.
 */
final class SessionModification {

    private static final int TYPE = MessageType.SESSION_MODIFICATION_REQUEST;

    private final SessionAnswers answers;
    private final UsageReporter usage;

    SessionModification(SessionAnswers answers, UsageReporter usage) {
        this.answers = answers;
        this.usage = usage;
    }

    CompletableFuture<PfcpResponse> answer(ModificationRequest req, Exchange ex) {
        PfcpSession old = answers.owned(ex.peer, req.seid);
        if (old == null) {
            return CompletableFuture.completedFuture(answers.noSession(TYPE, req));
        }
        SessionEditor ed = new SessionEditor(old);
        try {
            ed.apply(req.rules);
        } catch (RuleException e) {
            return CompletableFuture.completedFuture(answers.reject(TYPE, old.cpSeid, req.sequence, e));
        }
        List<UsageReport> reports = new ArrayList<>();
        for (long urrId : req.queryUrrIds) {
            if (old.urrs.containsKey(urrId)) {
                reports.add(usage.report(old, old.urrs.get(urrId), IeType.USAGE_REPORT_MODIFICATION,
                                         UsageReporter.IMMER));
            }
        }
        for (Long removed : old.urrs.keySet()) {
            if (!ed.urrs().containsKey(removed)) {
                reports.add(usage.report(old, old.urrs.get(removed), IeType.USAGE_REPORT_MODIFICATION,
                                         UsageReporter.TERMR));
            }
        }
        FSeid f = req.cpFseid;
        long cpSeid = f != null ? f.seid : old.cpSeid;
        String cpAddress = f != null && f.ipv4 != null ? f.ipv4.getHostAddress() : old.cpAddress;
        PfcpSession edited = new PfcpSession(old.upSeid, cpSeid, cpAddress, old.nodeId, ed.pdrs(), ed.fars(),
                                             ed.qers(), ed.urrs(), old.allocations);
        return answers.kept(kept -> answers.sessions.modifyAsync(edited, kept).thenApply(s -> {
            usage.sessionChanged(s);
            return s;
        }), (PfcpSession s) -> new ModificationResponse(req.sequence, s.cpSeid, Cause.REQUEST_ACCEPTED, null, null,
                                                        SessionAnswers.createdPdrs(s, old), reports),
            e -> answers.reject(TYPE, old.cpSeid, req.sequence, e), ex);
    }
}

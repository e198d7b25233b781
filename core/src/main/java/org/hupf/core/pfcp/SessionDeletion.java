package org.hupf.core.pfcp;

import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Urr;
import org.hupf.core.session.DeletedSession;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.message.DeletionRequest;
import org.hupf.core.pfcp.message.DeletionResponse;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.UsageReport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Session Deletion (TS 29.244 §7.5.6) of a session the requesting peer owns: answered once every device
 * acknowledged the removal, with each URR's final usage from the counts the deletion read.
 */
final class SessionDeletion {

    private static final int TYPE = MessageType.SESSION_DELETION_REQUEST;

    private final SessionAnswers answers;
    private final UsageReporter usage;

    SessionDeletion(SessionAnswers answers, UsageReporter usage) {
        this.answers = answers;
        this.usage = usage;
    }

    CompletableFuture<PfcpResponse> answer(DeletionRequest req, Exchange ex) {
        PfcpSession s = answers.owned(ex.peer, req.seid);
        if (s == null) {
            return CompletableFuture.completedFuture(answers.noSession(TYPE, req));
        }
        return answers.kept(kept -> answers.sessions.deleteWithUsage(s.upSeid, kept).thenApply(deleted -> {
            if (deleted != null) {
                usage.forget(s.upSeid);
            }
            return deleted;
        }), (DeletedSession deleted) -> {
            if (deleted == null) {
                return answers.noSession(TYPE, req);
            }
            List<UsageReport> reports = new ArrayList<>();
            for (Urr u : s.urrs.values()) {
                reports.add(usage.finalReport(deleted, u));
            }
            return new DeletionResponse(req.sequence, s.cpSeid, Cause.REQUEST_ACCEPTED, null, null, reports);
        }, e -> answers.reject(TYPE, s.cpSeid, req.sequence, e), ex);
    }
}

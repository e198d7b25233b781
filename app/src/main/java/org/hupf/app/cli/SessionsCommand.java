package org.hupf.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lists sessions: one line each (with its site where the netcfg names sites), or JSON with -j.
 */
@Service
@Command(scope = "hupf", name = "sessions", description = "Lists hupf sessions")
public class SessionsCommand extends HupfCommand {

    @Override
    protected void doExecute() {
        List<PfcpSession> all = service().sessions().stream()
                .sorted(Comparator.comparingLong(s -> s.upSeid)).collect(Collectors.toList());
        if (outputJson()) {
            ArrayNode a = mapper().createArrayNode();
            all.forEach(s -> a.add(SessionJson.encode(s)));
            print("%s", a);
            return;
        }
        for (PfcpSession s : all) {
            String ue = s.pdrs.values().stream().filter(p -> p.ueAddress != null).map(p -> p.ueAddress.toString())
                    .findFirst().orElse("-");
            String site = service().siteOf(s);
            print("upSeid=%s cpSeid=%s node=%s ue=%s pdrs=%d fars=%d qers=%d urrs=%d%s",
                  Long.toUnsignedString(s.upSeid), Long.toUnsignedString(s.cpSeid), s.nodeId, ue, s.pdrs.size(),
                  s.fars.size(), s.qers.size(), s.urrs.size(), site == null ? "" : " site=" + site);
        }
        print("%d session(s)", all.size());
    }
}

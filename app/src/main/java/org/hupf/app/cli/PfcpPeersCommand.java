package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.Association;

/**
 * Lists PFCP associations.
 */
@Service
@Command(scope = "hupf", name = "pfcp-peers", description = "Lists PFCP associations")
public class PfcpPeersCommand extends HupfCommand {

    @Override
    protected void doExecute() {
        for (Association a : service().pfcpPeers()) {
            print("nodeId=%s address=%s:%d recoveryTimeStamp=%d", a.nodeId, a.peer.getAddress().getHostAddress(),
                  a.peer.getPort(), a.recoveryTimeStamp);
        }
    }
}

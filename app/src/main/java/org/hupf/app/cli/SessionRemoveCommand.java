package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;

/**
 * Deletes a session.
 */
@Service
@Command(scope = "hupf", name = "session-remove", description = "Deletes a session")
public class SessionRemoveCommand extends HupfCommand {

    @Argument(name = "upSeid", description = "UP SEID of the session", required = true)
    @Completion(SessionIdCompleter.class)
    String upSeid;

    @Override
    protected void doExecute() {
        try {
            if (service().deleteSession(seid(upSeid))) {
                print("removed session %s", upSeid);
            } else {
                error("no session %s", upSeid);
            }
        } catch (IllegalArgumentException e) {
            error("%s", e.getMessage());
        }
    }
}

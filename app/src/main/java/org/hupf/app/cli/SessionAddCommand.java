package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.support.completers.FileCompleter;
import org.hupf.api.BoundedJson;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.SessionJson;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Creates a session from its JSON (the REST format), given inline or as a file.
 */
@Service
@Command(scope = "hupf", name = "session-add", description = "Creates a session from JSON (inline or a file)")
public class SessionAddCommand extends HupfCommand {

    @Argument(name = "json", description = "session JSON, or the path of a file holding it", required = true)
    @Completion(FileCompleter.class)
    String json;

    @Override
    protected void doExecute() {
        // Read within the REST limits: no JSON nested past them reaches Jackson's recursive tree builder.
        try (InputStream in = json.trim().startsWith("{") ? new ByteArrayInputStream(json.getBytes(UTF_8))
                : Files.newInputStream(Paths.get(json))) {
            PfcpSession s = service().createSession(SessionJson.decode(BoundedJson.read(in)));
            print("created session upSeid=%s", Long.toUnsignedString(s.upSeid));
        } catch (IOException e) {
            error("cannot read session JSON: %s", e.getMessage());
        } catch (IllegalArgumentException e) {
            error("invalid session: %s", e.getMessage());
        } catch (RuleException e) {
            error("session refused (PFCP cause %d): %s", e.cause(), e.getMessage());
        }
    }
}

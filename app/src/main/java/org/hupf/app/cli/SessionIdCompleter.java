package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.HupfService;
import org.onosproject.cli.AbstractChoicesCompleter;
import org.onosproject.cli.AbstractShellCommand;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Completes UP SEIDs of existing sessions.
 */
@Service
public class SessionIdCompleter extends AbstractChoicesCompleter {

    /** @return the hupf service */
    protected HupfService service() {
        return AbstractShellCommand.get(HupfService.class);
    }

    @Override
    protected List<String> choices() {
        return service().sessions().stream().map(s -> Long.toUnsignedString(s.upSeid)).sorted()
                .collect(Collectors.toList());
    }
}

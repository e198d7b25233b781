package org.hupf.app.cli;

import org.junit.rules.ExternalResource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What a command prints (Karaf commands print to System.out and System.err), put back after each test. */
final class ConsoleCapture extends ExternalResource {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;

    @Override
    protected void before() {
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Override
    protected void after() {
        System.setOut(oldOut);
        System.setErr(oldErr);
    }

    /** @return what was printed since the last call, standard output then standard error */
    String take() {
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        out.reset();
        err.reset();
        return printed;
    }
}

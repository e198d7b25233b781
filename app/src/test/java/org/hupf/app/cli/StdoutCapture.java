package org.hupf.app.cli;

import org.junit.rules.ExternalResource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What a command prints during a test: Karaf's {@code print} writes to {@link System#out}. */
public class StdoutCapture extends ExternalResource {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream oldOut;

    @Override
    protected void before() {
        oldOut = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    @Override
    protected void after() {
        System.setOut(oldOut);
    }

    /** Forgets what was printed so far. */
    public void reset() {
        out.reset();
    }

    /** @return what was printed so far */
    public String text() {
        return out.toString(StandardCharsets.UTF_8);
    }
}

package org.hupf.core.pfcp;

import org.junit.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A bounded, seeded Jazzer run (coverage-guided, from Maven Central) of {@link PfcpFuzzTarget}, seeded with
 * the scapy golden vectors: no input may make an exception escape the PFCP handler, nor may a datagram from an
 * address outside the allowlist change any session or association.
 */
public class JazzerFuzzTest {

    private static final int RUNS = 15_000;
    private static final long TIMEOUT_S = 300;

    @Test
    public void handlerSurvivesCoverageGuidedFuzzing() throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        // Without a logging binding the handler's per-message warnings stay quiet.
        String classpath = Stream.of(cp.split(File.pathSeparator)).filter(p -> !p.contains("slf4j-jdk14"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue("jazzer is not on the test classpath", classpath.contains("jazzer"));
        Path corpus = Files.createTempDirectory("pfcp-corpus");
        try (Stream<Path> vectors = Files.list(Paths.get("..", "tests", "pfcp", "vectors"))) {
            for (Path v : vectors.filter(p -> p.toString().endsWith(".bin")).collect(Collectors.toList())) {
                Files.copy(v, corpus.resolve(v.getFileName()));
            }
        }
        List<String> cmd = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                "com.code_intelligence.jazzer.Jazzer", "--target_class=" + PfcpFuzzTarget.class.getName(),
                "-runs=" + RUNS, "-seed=8805", "-max_len=2048", corpus.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue("jazzer did not finish in " + TIMEOUT_S + " s", p.waitFor(TIMEOUT_S, TimeUnit.SECONDS));
        String tail = out.lines().filter(l -> l.startsWith("Done ") || l.contains("FuzzerSecurityIssue")
                || l.contains("Exception") || l.contains("ERROR")).collect(Collectors.joining("\n"));
        System.out.println("jazzer: " + tail);
        assertEquals("jazzer found a crash:\n" + tail, 0, p.exitValue());
        assertTrue(tail, tail.contains("Done " + RUNS + " runs"));
        deleteTree(corpus);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path x : s.sorted((a, b) -> b.compareTo(a)).collect(Collectors.toList())) {
                Files.delete(x);
            }
        }
    }
}

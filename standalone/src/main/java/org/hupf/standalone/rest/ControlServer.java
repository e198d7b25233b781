package org.hupf.standalone.rest;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;

/**
 * The HTTP server under the control API, for the standalone host and the lab runner alike: Jetty 9.4 on
 * loopback. A connection is read by Jetty's selector without holding a worker until its request head is
 * complete, and is closed after {@code idleTimeoutMs} without a byte either way (half a request head
 * included), so a client that stalls costs one connection for that long and nobody else anything. Requests
 * run on a bounded pool with a bounded queue; past both, a connection is refused rather than queued without
 * end (docs/SECURITY.md, "Control API").
 */
final class ControlServer {

    private static final Logger log = LoggerFactory.getLogger(ControlServer.class);

    /** Idle time after which a connection is closed, whatever state its request is in. */
    static final long DEFAULT_IDLE_TIMEOUT_MS = 30_000;
    /** Workers for requests; the acceptor and the selector take two threads more. */
    private static final int WORKERS = 16;
    private static final int MIN_THREADS = 4;
    /** Requests waiting for a worker, beyond which Jetty refuses (closes) a new one. */
    private static final int QUEUED = 256;
    private static final int THREAD_IDLE_MS = 60_000;
    /** A request head (line and headers) larger than this is a 431. */
    private static final int MAX_HEAD_BYTES = 8192;

    private ControlServer() {
    }

    /**
     * Starts a server.
     *
     * @param handler       what serves the requests (Jersey's container)
     * @param port          TCP port on loopback, 0 for any free one
     * @param idleTimeoutMs per-connection idle timeout
     * @return the started server
     * @throws IOException if the port cannot be bound or the server does not start
     */
    static Server start(Handler handler, int port, long idleTimeoutMs) throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(WORKERS + 2, MIN_THREADS, THREAD_IDLE_MS,
                                                        new BlockingArrayQueue<>(QUEUED, QUEUED, QUEUED));
        threads.setName("hupf-control");
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(MAX_HEAD_BYTES);
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(port);
        connector.setIdleTimeout(idleTimeoutMs);
        server.addConnector(connector);
        server.setHandler(handler);
        server.setStopAtShutdown(false);
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly(server);
            throw e;
        } catch (Exception e) {
            stopQuietly(server);
            throw new IOException("control API did not start: " + e, e);
        }
        return server;
    }

    /** @return the port the server's connector is bound to */
    static int port(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** Stops a server; a failure to stop is logged, not the caller's to handle (it is going away). */
    static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("control API did not stop cleanly: {}", e.toString());
        }
    }
}

package org.hupf.standalone.systemd;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Tells systemd (a {@code Type=notify} unit, {@code tools/systemd/hupf-standalone.service}) that the host is
 * ready, through {@code systemd-notify}: the JDK's Unix-domain sockets are stream sockets only (JEP 380) and
 * {@code $NOTIFY_SOCKET} is a datagram socket, so the message goes through systemd's own tool rather than a
 * native library extracted at run time. {@code systemd-notify} (systemd 246 and later) waits until the service
 * manager processed the message (a barrier), so systemd attributes it to the unit although it comes from a
 * child process ({@code NotifyAccess=all}). Outside systemd ({@code NOTIFY_SOCKET} unset) nothing is sent.
 */
public final class ServiceManager {

    /** systemd-notify returns once the manager has the message; a manager that never reads it is not waited for. */
    private static final long NOTIFY_TIMEOUT_S = 10;

    private ServiceManager() {
    }

    /**
     * Sends READY=1 with a status line, when started by a service manager.
     *
     * @param status what the host serves (systemctl status shows it)
     * @return whether the manager took it; false outside systemd or when systemd-notify failed (said on stderr)
     */
    public static boolean ready(String status) {
        if (System.getenv("NOTIFY_SOCKET") == null) {
            return false;
        }
        try {
            Process p = new ProcessBuilder(List.of("systemd-notify", "--ready", "--status=" + status))
                    .inheritIO().start();
            if (!p.waitFor(NOTIFY_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                System.err.println("systemd-notify did not return in " + NOTIFY_TIMEOUT_S + " s: readiness not sent");
                return false;
            }
            if (p.exitValue() != 0) {
                System.err.println("systemd-notify exited with " + p.exitValue() + ": readiness not sent");
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            System.err.println("systemd-notify could not run: " + e.getMessage() + ": readiness not sent");
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

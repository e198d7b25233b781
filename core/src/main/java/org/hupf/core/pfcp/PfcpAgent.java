package org.hupf.core.pfcp;

import org.hupf.api.Association;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.Shutdowns;
import org.hupf.core.pfcp.codec.DecodeException;
import org.hupf.core.pfcp.codec.IeFields;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.codec.ReportCodec;
import org.hupf.core.pfcp.message.SessionReportRequest;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.store.AssociationStore;
import org.hupf.core.store.InMemoryAssociationStore;
import org.hupf.core.store.InMemoryUsageBaselineStore;
import org.hupf.core.store.UsageBaselineStore;
import org.onlab.packet.Ip4Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The PFCP (N4) agent: a UDP socket, the request handler, and the requests hupf originates itself
 * (heartbeats to associated peers, Session Report Requests for usage and downlink data), which
 * {@link OutgoingRequests} retransmits every T1 up to N1 times.
 *
 * <p>Session requests are carried by the PFCP thread ({@link PfcpLoop}) from datagram to answer, one message at a
 * time per session (SEID) until its answer is sent, so the devices' acknowledgement of one message is awaited
 * before the session's next; Session Establishment Requests (no UP SEID yet) run side by side. Node messages
 * (heartbeats, association procedures) have their own thread, one at a time per peer, so that they are never
 * queued behind session work.
 */
public final class PfcpAgent implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PfcpAgent.class);
    /** Report Type bits (§8.2.21). */

    private final PfcpConfig config;
    private final SessionManager sessions;
    private final PfcpStats stats = new PfcpStats();
    private final UsageReporter usage;
    private final PfcpHandler handler;
    private final PfcpLoop loop;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            r -> new Thread(r, "hupf-pfcp-timers"));
    private final ExecutorService nodeWorker = Executors.newSingleThreadExecutor(daemon("hupf-pfcp-node"));
    private final KeyedSerialExecutor nodeLanes = new KeyedSerialExecutor(nodeWorker);
    private final OutgoingRequests requests;
    private final VolumeThresholdCheck thresholds;
    /** Downlink PDRs already reported for the current buffering episode: "upSeid/pdrId". */
    private final Set<String> notified = ConcurrentHashMap.newKeySet();

    /**
     * Binds the socket and starts the agent.
     *
     * @param config   settings
     * @param sessions session manager
     * @throws SocketException if the address cannot be bound
     */
    public PfcpAgent(PfcpConfig config, SessionManager sessions) throws SocketException {
        this(config, sessions, new InMemoryAssociationStore(), startTimeStamp());
    }

    /**
     * Binds the socket and starts the agent with associations kept in a store: a host that restarts with
     * its sessions and associations passes the Recovery Time Stamp it had, so its CP functions see no
     * restart (a new one tells them this UP function restarted and lost its sessions).
     *
     * @param config            settings
     * @param sessions          session manager
     * @param associations      association store
     * @param recoveryTimeStamp this UP function's Recovery Time Stamp, NTP seconds
     * @throws SocketException if the address cannot be bound
     */
    public PfcpAgent(PfcpConfig config, SessionManager sessions, AssociationStore associations,
                     long recoveryTimeStamp) throws SocketException {
        this(config, sessions, associations, recoveryTimeStamp, new InMemoryUsageBaselineStore());
    }

    /**
     * Binds the socket and starts the agent with associations and usage baselines kept in stores: a new
     * hupf leader reports only the usage its predecessor had not reported.
     *
     * @param config            settings
     * @param sessions          session manager
     * @param associations      association store
     * @param recoveryTimeStamp this UP function's Recovery Time Stamp, NTP seconds
     * @param baselines         usage baseline store
     * @throws SocketException if the address cannot be bound
     */
    public PfcpAgent(PfcpConfig config, SessionManager sessions, AssociationStore associations,
                     long recoveryTimeStamp, UsageBaselineStore baselines) throws SocketException {
        this.config = config;
        this.sessions = sessions;
        this.usage = new UsageReporter(sessions, System::currentTimeMillis, baselines);
        this.handler = new PfcpHandler(config, sessions, usage, recoveryTimeStamp, stats, associations);
        this.requests = new OutgoingRequests(config, stats, this::send);
        this.thresholds = new VolumeThresholdCheck(sessions, usage);
        handler.onAskRecovery(this::recoveryOf);
        sessions.store().all().forEach(usage::sessionChanged);
        try {
            this.loop = new PfcpLoop(new InetSocketAddress(config.listenAddress, config.port), handler, stats, this::sort);
        } catch (IOException e) {
            SocketException bind = new SocketException("PFCP socket " + config.listenAddress + ":" + config.port
                                                       + ": " + e.getMessage());
            bind.initCause(e);
            throw bind;
        }
        timers.scheduleWithFixedDelay(this::tick, config.reportTickMillis, config.reportTickMillis,
                                      TimeUnit.MILLISECONDS);
        if (config.heartbeatIntervalMillis > 0) {
            timers.scheduleWithFixedDelay(this::heartbeats, config.heartbeatIntervalMillis,
                                          config.heartbeatIntervalMillis, TimeUnit.MILLISECONDS);
        }
        log.info("PFCP agent on {}:{} as Node ID {}", config.listenAddress, loop.port(), config.nodeId);
    }

    /** @return now as a Recovery Time Stamp: NTP seconds */
    public static long startTimeStamp() {
        return System.currentTimeMillis() / 1000 + UsageReporter.NTP_OFFSET;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** @return the bound UDP port (useful when configured as 0) */
    public int port() {
        return loop.port();
    }

    public PfcpStats stats() {
        return stats;
    }

    public Collection<Association> associations() {
        return handler.associations();
    }

    /**
     * Sorts a datagram for the PFCP thread: answers to hupf's requests are matched there, node messages go to
     * the node worker, session requests stay with the PFCP thread.
     */
    private PfcpCodec.Header sort(InetSocketAddress peer, byte[] datagram) {
        PfcpCodec.Header h;
        try {
            h = PfcpCodec.header(datagram, datagram.length);
        } catch (DecodeException e) {
            if (isResponseToUs(datagram)) {
                requests.dropMalformed(peer, e);
            } else {
                handler.truncated(peer, e);
            }
            return null;
        }
        if (h.type == MessageType.HEARTBEAT_RESPONSE || h.type == MessageType.SESSION_REPORT_RESPONSE) {
            requests.onResponse(peer, h, datagram, datagram.length);
            return null;
        }
        if (h.hasSeid && h.type >= MessageType.SESSION_ESTABLISHMENT_REQUEST) {
            return h;
        }
        nodeLanes.submit(peer, () -> guarded(peer, () -> answer(peer, h, datagram)));
        return null;
    }

    private CompletableFuture<?> answer(InetSocketAddress peer, PfcpCodec.Header h, byte[] datagram) {
        long now = System.currentTimeMillis();
        return handler.handleAsync(peer, h, datagram, datagram.length, now).thenAccept(out -> {
            if (out != null) {
                send(peer, out);
            }
        }).exceptionally(e -> {
            internalError(peer, e);
            return null;
        });
    }

    /** Runs one message's work; a bug must cost that message, never the agent. */
    private CompletableFuture<?> guarded(InetSocketAddress peer, java.util.function.Supplier<CompletableFuture<?>> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            internalError(peer, e);
            return CompletableFuture.completedFuture(null);
        }
    }

    private void internalError(InetSocketAddress peer, Throwable e) {
        stats.inc("error.internal");
        log.error("internal error handling a message from {}", peer, e);
    }

    /** A datagram too short for its header whose type says it answers one of hupf's requests. */
    private static boolean isResponseToUs(byte[] d) {
        return d.length >= 2 && (d[1] == MessageType.HEARTBEAT_RESPONSE || d[1] == MessageType.SESSION_REPORT_RESPONSE);
    }

    private void send(InetSocketAddress peer, byte[] bytes) {
        if (!loop.send(peer, bytes)) {
            stats.inc("error.send");
        }
    }

    private void tick() {
        try {
            long now = System.currentTimeMillis();
            handler.evictResponses(now);
            requests.retransmit(now);
            rearmNotifications();
            List<UsageReporter.Due> due = new ArrayList<>(usage.periodicDue());
            due.addAll(thresholds.due(now));
            for (UsageReporter.Due d : due) {
                UsageReport report = usage.report(d.session, d.urr, IeType.USAGE_REPORT_REPORT, d.trigger);
                sessionReport(d.session, sequence -> SessionReportRequest.usage(sequence, d.session.cpSeid, report));
            }
        } catch (RuntimeException e) {
            stats.inc("error.internal");
            log.error("PFCP timer failed", e);
        }
    }

    /**
     * Tells the agent, from now on, the UEs whose usage changed (each counter poll's, see
     * OffloadManager#addUsageListener): volume thresholds are then checked for their sessions only, where
     * without it every session's are, against a bulk read of every cell.
     *
     * @return where to send the UEs whose usage changed
     */
    public Consumer<Collection<Ip4Address>> usageChanges() {
        return thresholds.usageChanges();
    }

    private void heartbeats() {
        for (Association a : handler.associations()) {
            recoveryOf(a.peer).thenAccept(ts -> {
                if (ts != null) {
                    handler.peerRecovery(a.peer, ts);
                }
            });
        }
    }

    /**
     * Asks a peer its Recovery Time Stamp with a Heartbeat Request. The answer is acted on by the node worker,
     * in turn with the node messages (a setup waiting for it among them).
     *
     * @return completes with the stamp answered, or null: no answer after N1 attempts, or none in it
     */
    private CompletableFuture<Long> recoveryOf(InetSocketAddress peer) {
        CompletableFuture<Long> answer = new CompletableFuture<>();
        PfcpMessage heartbeat = PfcpMessage.node(MessageType.HEARTBEAT_REQUEST, requests.nextSequence(),
                List.of(IeFields.RECOVERY_TIME_STAMP.encode(handler.recoveryTimeStamp())));
        requests.send(peer, heartbeat, m -> {
            Long stamp = null;
            try {
                stamp = IeFields.RECOVERY_TIME_STAMP.optional(m);
            } catch (DecodeException e) {
                log.warn("bad Recovery Time Stamp from {}: {}", peer, e.getMessage());
            }
            Long answered = stamp;
            nodeWorker.execute(() -> answer.complete(answered));
        }, () -> nodeWorker.execute(() -> answer.complete(null)));
        return answer;
    }

    private Association associationOf(PfcpSession s) {
        for (Association a : handler.associations()) {
            if (a.nodeId.equals(s.nodeId)) {
                return a;
            }
        }
        return null;
    }

    private void sessionReport(PfcpSession s, IntFunction<SessionReportRequest> request) {
        Association a = associationOf(s);
        if (a == null) {
            stats.inc("drop.report_without_association");
            return;
        }
        requests.send(a.peer, ReportCodec.encode(request.apply(requests.nextSequence())), m -> {
            try {
                Integer cause = IeFields.CAUSE.optional(m);
                if (cause != null && cause == Cause.SESSION_CONTEXT_NOT_FOUND) {
                    log.warn("CP function {} no longer knows session {}: deleting it", a, s.upSeid);
                    sessions.deleteAsync(s.upSeid).whenComplete((deleted, failure) -> {
                        if (failure == null) {
                            usage.forget(s.upSeid);
                        } else {
                            log.warn("deleting session {} failed: {}", s.upSeid, failure.getMessage());
                        }
                    });
                }
            } catch (DecodeException e) {
                log.warn("bad Cause in Session Report Response from {}", a);
            }
        });
    }

    /**
     * Reports buffered downlink data for a UE to its CP function (a DOWNLINK_BUFFER packet-in, or the
     * backend's notification). Sent once per buffering episode: a later modification of the FAR re-arms it.
     *
     * @param ue UE address of the buffered packet
     * @return true if a Downlink Data Report was sent
     */
    public boolean notifyDownlinkData(Ip4Address ue) {
        PfcpSession s = sessions.sessionOfUe(ue);
        if (s != null) {
            for (Pdr p : s.pdrs.values()) {
                Far far = p.farId == null ? null : s.fars.get(p.farId);
                if (p.isUplink() || !ue.equals(p.ueAddress) || far == null || !far.buffers() || !far.notifiesCp()) {
                    continue;
                }
                if (!notified.add(s.upSeid + "/" + p.pdrId)) {
                    return false;
                }
                sessionReport(s, sequence -> SessionReportRequest.downlinkData(sequence, s.cpSeid, p.pdrId));
                return true;
            }
        }
        stats.inc("drop.ddn_without_buffering_session");
        return false;
    }

    /**
     * Re-arms downlink data reports for PDRs whose FAR no longer buffers: a look at the PDRs reported, not at
     * every session (a tick's cost must not grow with the sessions held).
     */
    private void rearmNotifications() {
        notified.removeIf(key -> {
            int slash = key.indexOf('/');
            PfcpSession s = sessions.store().get(Long.parseLong(key.substring(0, slash)));
            Pdr p = s == null ? null : s.pdrs.get(Integer.parseInt(key.substring(slash + 1)));
            Far far = p == null || p.farId == null ? null : s.fars.get(p.farId);
            return far == null || !far.buffers();
        });
    }

    /**
     * Stops taking messages, then lets the requests already taken finish: an association release interrupted
     * between its association and its sessions would leave sessions that no association owns.
     */
    @Override
    public void close() {
        loop.close();
        Shutdowns.finish(nodeWorker, "hupf-pfcp-node");
        Shutdowns.interrupt(timers, "hupf-pfcp-timers");
    }
}

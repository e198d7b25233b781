package org.hupf.core.rps;

import org.hupf.pipeconf.packet.RpsReceipt;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The controller's part of RPS between the data plane's records and the monitor, run by the exporter's thread:
 * in mode HYBRID the reference algorithm ({@link ReferenceRps}, one per device and observation point) turns the
 * data plane's receipts (kind 3) into the disclosures and warnings it makes; disclosures and warnings the data
 * plane made itself (mode DATA_PLANE) go through as they are. A receipt while the host runs no algorithm (the data
 * plane still in HYBRID after a change of mode) is counted and not exported: the monitor only reads kinds 1, 2, 4.
 */
final class HostRps implements BiFunction<Integer, RpsReceipt, List<RpsReceipt>> {

    private final RpsSettings settings;
    private final Map<Integer, ReferenceRps> points = new HashMap<>();
    private volatile long receiptsNotRun;

    HostRps(RpsSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<RpsReceipt> apply(Integer device, RpsReceipt r) {
        if (r.kind() != RpsReceipt.KIND_RECEIPT) {
            return List.of(r);
        }
        if (!settings.runsReferenceAlgorithm()) {
            receiptsNotRun++;
            return List.of();
        }
        return points.computeIfAbsent(device << 1 | r.point(), k -> new ReferenceRps(
                settings.hostBuffer(), settings.config().quietUs(), settings.config().selectThreshold(),
                settings::discThreshold)).observe(r);
    }

    /** @return receipts (kind 3) that arrived while the host ran no reference algorithm */
    long receiptsNotRun() {
        return receiptsNotRun;
    }
}

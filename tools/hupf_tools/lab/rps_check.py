"""RPS in the lab (`tools/lab.sh --rps DATA_PLANE|HYBRID`, a switch needed): the runner's `rps` block (the netcfg's
format) sampling the UE pool's uplink and downlink, and the summary's check over what the collector received.

The lab's loss lies mostly before IN (a host or bmv2 queue drops the frame before the pipeline sees it), which RPS
does not observe: the senders' and receivers' counts are shown beside the estimate, not checked against it."""
from hupf_tools.lab import scenario
from hupf_tools.rps import records as rec
from hupf_tools.rps import verifier

TENANT = "lab"
UPLINK_FLOW, DOWNLINK_FLOW = 1, 2
# A direct disclosure for 1 packet in 32 of a flow; half the receipts older than the quiet time disclosed.
DISC_THRESHOLD = rec.U32 // 32
SIGMA = 0.5
QUIET_US = 2000
# Receipts per point: with two flows, a flow's packets in the buffer see ~1 disclosure (a tracker of 4 is plenty).
BUFFER = 64


def block(mode, monitor_port):
    """The runner's rps block."""
    flows = [{"tenant": TENANT, "uePrefix": str(scenario.UE_POOL), "direction": d, "flowId": f,
              "discThreshold": DISC_THRESHOLD} for d, f in (("uplink", UPLINK_FLOW), ("downlink", DOWNLINK_FLOW))]
    return {"mode": mode, "quietUs": QUIET_US, "sigma": SIGMA, "monitor": "127.0.0.1:%d" % monitor_port,
            "bufferLen": BUFFER, "hostBuffer": BUFFER, "flows": flows}


def _pkts(stats, key):
    return sum(c.get("pkts", 0) for c in stats.get(key, {}).values())


def check(records, rps_block, final_status, tx, rx):
    """(name, passed, detail): the runner exported records (none dropped or malformed), both points disclosed,
    and the verifier matched them into delay samples; its loss estimate is shown beside the lab's counts.
    tx: [gNB sender, DN sender], rx: [gNB receiver, DN receiver] statistics."""
    counts = final_status.get("rps", {})
    report = verifier.verify(records, verifier.Config(rps_block))
    lab = report["tenants"].get(TENANT)
    points = {r.point for r in records if r.kind in (rec.DIRECT, rec.DELAYED)}
    ok = (counts.get("exported", 0) > 0 and counts.get("dropped", 0) == 0 and counts.get("malformed", 0) == 0
          and counts.get("send_failures", 0) == 0 and points == {rec.IN, rec.OUT}
          and lab is not None and lab["delay"]["samples"] > 0 and not lab["ambiguous_digests"])
    counted = {"uplink": (_pkts(tx[0], "tx"), _pkts(rx[1], "rx")), "downlink": (_pkts(tx[1], "tx"), _pkts(rx[0], "rx"))}
    detail = "runner %s; %d records collected" % (
        ", ".join("%s %s" % kv for kv in sorted(counts.items())) or "no RPS counts", len(records))
    if lab is not None:
        d, loss = lab["delay"], lab["loss"]
        if d["samples"]:
            detail += "; delay p50 %d us, p99 %d us, max %d us (%d samples)" % (
                d["p50_us"], d["p99_us"], d["max_us"], d["samples"])
        detail += "; sampled loss %d/%d, interval [%.4f, %.4f]; %d late-disclosure gaps; %d digests disclosed " \
                  "more than once" % (loss["lost"], loss["samples"], loss["interval"][0], loss["interval"][1],
                                      lab["gaps"], lab["ambiguous_digests"])
    detail += "; lab counts (sent/received) " + ", ".join("%s %d/%d" % (k, *v) for k, v in counted.items())
    return ("RPS disclosures of both points reach the monitor and match", ok, detail)

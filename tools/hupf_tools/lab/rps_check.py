"""RPS in the lab (`tools/lab.sh --rps DATA_PLANE|HYBRID`, a switch needed): the runner's `rps` block (the netcfg's
format) sampling the UE pool's uplink and downlink, and the summary's check over what the collector received.

The lab's loss lies mostly before IN (a host or bmv2 queue drops the frame before the pipeline sees it), which RPS
does not observe: the senders' and receivers' counts are shown beside the estimate, not checked against it. What is
checked against it is the switch's own count of the packets each point observed (`rps.events`, RPS_EV_OBSERVED): the
loss between IN and OUT, which is what the estimate estimates."""
import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from hupf_tools.lab import scenario
from hupf_tools.model import rps as model
from hupf_tools.rps import records as rec
from hupf_tools.rps import verifier

TENANT = "lab"
UPLINK_FLOW, DOWNLINK_FLOW = 1, 2
# A direct disclosure for 1 packet in 128 of a flow; half the receipts older than the quiet time disclosed.
DISC_THRESHOLD = rec.U32 // 128
SIGMA = 0.5
# The seed's quiet time: it must exceed the spread of hupf's delays (seed §2.5.3), or a packet overtaken between IN
# and OUT is judged by another disclosure at OUT and looks lost (bmv2's queues spread the delays by tens of ms).
QUIET_US = 100_000
# Receipts per point: at the lab's few hundred packets/s the buffer spans about a second, several quiet times, and
# with two flows a flow's packets in it see ~1 disclosure (a tracker of 4 is plenty).
BUFFER = 256
# The counted loss must lie in the estimate's interval at this confidence: at 95 % one good lab run in twenty fails.
CHECK_CONFIDENCE = 0.999
EVENTS_PER_POINT = 8   # RPS_EVENTS (define.p4): a point's cells in its events counter
EVENTS = {model.POINT_IN: "HupfIngress.rps.events", model.POINT_OUT: "HupfEgress.rps.events"}


def block(mode, monitor_port):
    """The runner's rps block."""
    flows = [{"tenant": TENANT, "uePrefix": str(scenario.UE_POOL), "direction": d, "flowId": f,
              "discThreshold": DISC_THRESHOLD} for d, f in (("uplink", UPLINK_FLOW), ("downlink", DOWNLINK_FLOW))]
    return {"mode": mode, "quietUs": QUIET_US, "sigma": SIGMA, "monitor": "127.0.0.1:%d" % monitor_port,
            "bufferLen": BUFFER, "hostBuffer": BUFFER, "flows": flows}


def point_counts(grpc_addr, p4info_path, device_id=1):
    """{"in": N, "out": M}: the packets the switch observed at IN and at OUT (RPS_EV_OBSERVED of each point's
    events counter), read over P4Runtime (a Read needs no mastership: the runner stays the switch's master)."""
    info = p4info_pb2.P4Info()
    with open(p4info_path) as f:
        text_format.Parse(f.read(), info)
    ids = {c.preamble.name: c.preamble.id for c in info.counters}
    req = p4runtime_pb2.ReadRequest(device_id=device_id)
    for point, name in EVENTS.items():
        e = req.entities.add().counter_entry
        e.counter_id, e.index.index = ids[name], point * EVENTS_PER_POINT + model.EV_OBSERVED
    with grpc.insecure_channel(grpc_addr) as ch:
        got = {(e.counter_entry.counter_id, e.counter_entry.index.index): e.counter_entry.data.packet_count
               for resp in p4runtime_pb2_grpc.P4RuntimeStub(ch).Read(req, timeout=10) for e in resp.entities}
    return {key: got[(ids[EVENTS[point]], point * EVENTS_PER_POINT + model.EV_OBSERVED)]
            for key, point in (("in", model.POINT_IN), ("out", model.POINT_OUT))}


def _pkts(stats, key):
    return sum(c.get("pkts", 0) for c in stats.get(key, {}).values())


def check(records, rps_block, final_status, tx, rx, observed=None):
    """(name, passed, detail): the runner exported records (none dropped or malformed), both points disclosed,
    the verifier matched them into delay samples and, given the switch's observed counts ({"in", "out"}), their
    loss ratio lies in its interval; its loss estimate is shown beside the lab's counts.
    tx: [gNB sender, DN sender], rx: [gNB receiver, DN receiver] statistics."""
    counts = final_status.get("rps", {})
    report = verifier.verify(records, verifier.Config(rps_block), {TENANT: observed} if observed else None,
                             CHECK_CONFIDENCE)
    lab = report["tenants"].get(TENANT)
    counter_check = report.get("counter_check", [])
    points = {r.point for r in records if r.kind in (rec.DIRECT, rec.DELAYED)}
    ok = (counts.get("exported", 0) > 0 and counts.get("dropped", 0) == 0 and counts.get("malformed", 0) == 0
          and counts.get("send_failures", 0) == 0 and points == {rec.IN, rec.OUT}
          and lab is not None and lab["delay"]["samples"] > 0 and not lab["ambiguous_digests"]
          and all(c["consistent"] is not False for c in counter_check))
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
    for c in counter_check:
        detail += "; switch observed %d at IN, %d at OUT (loss %s): %s at %g" % (
            c["in"], c["out"], c["counted_ratio"], {True: "in the interval", False: "OUTSIDE the interval",
                                                     None: "unchecked"}[c["consistent"]], CHECK_CONFIDENCE)
    detail += "; lab counts (sent/received) " + ", ".join("%s %d/%d" % (k, *v) for k, v in counted.items())
    return ("RPS disclosures of both points reach the monitor and match", ok, detail)

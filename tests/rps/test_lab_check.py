"""The lab's RPS block is one the control plane accepts (the netcfg's format) and its check reads the records."""
from hupf_tools.lab import rps_check
from hupf_tools.rps import records as rec
from hupf_tools.rps import verifier


def test_the_block_has_the_netcfg_format_and_samples_both_directions():
    b = rps_check.block("DATA_PLANE", 9700)
    assert set(b) <= {"mode", "quietUs", "sigma", "monitor", "bufferLen", "hostBuffer", "flows"}
    cfg = verifier.Config(b)
    assert cfg.flows == {1: ("lab", "uplink"), 2: ("lab", "downlink")}


def _records():
    out = []
    for i in range(50):
        digest = 1000 + i
        out.append(rec.Record(0, rec.IN, rec.DIRECT, 1, digest, 10_000 + 100 * i, i))
        out.append(rec.Record(0, rec.OUT, rec.DIRECT, 1, digest, 10_300 + 100 * i, i))
    return out


def _stats(pkts):
    return {"tx": {"0": {"pkts": pkts}}, "rx": {"0": {"pkts": pkts}}}


def test_the_check_passes_on_matched_disclosures_and_names_what_is_missing():
    b = rps_check.block("DATA_PLANE", 9700)
    status = {"rps": {"records": 100, "exported": 100, "dropped": 0, "malformed": 0, "send_failures": 0}}
    name, ok, detail = rps_check.check(_records(), b, status, [_stats(80), _stats(70)], [_stats(70), _stats(80)])
    assert ok, detail
    assert "delay p50 300 us" in detail and "uplink 80/80" in detail
    _, ok, _ = rps_check.check(_records(), b, dict(status, rps=dict(status["rps"], dropped=3)),
                               [_stats(1), _stats(1)], [_stats(1), _stats(1)])
    assert not ok
    only_in = [r for r in _records() if r.point == rec.IN]
    _, ok, detail = rps_check.check(only_in, b, status, [_stats(1), _stats(1)], [_stats(1), _stats(1)])
    assert not ok and "100 records" not in detail


def test_the_check_holds_the_switchs_observed_counts_against_the_loss_interval():
    """No sampled packet lost: the switch counting as many packets at OUT as at IN agrees, half of them lost at OUT
    does not (0 of 50 sampled is not a loss of 50 %)."""
    b = rps_check.block("DATA_PLANE", 9700)
    status = {"rps": {"records": 100, "exported": 100, "dropped": 0, "malformed": 0, "send_failures": 0}}
    stats = [_stats(1000), _stats(1000)]
    _, ok, detail = rps_check.check(_records(), b, status, stats, stats, {"in": 1000, "out": 1000})
    assert ok and "switch observed 1000 at IN, 1000 at OUT" in detail, detail
    _, ok, detail = rps_check.check(_records(), b, status, stats, stats, {"in": 1000, "out": 500})
    assert not ok and "OUTSIDE the interval" in detail, detail

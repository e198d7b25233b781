"""bmv2's drops from its log (tools/hupf_tools/lab/bmv2_log.py), on lines in simple_switch's own format."""
from hupf_tools.lab import bmv2_log

PREFIX = "[19:11:14.068] [bmv2] [D] [thread 1895] [%s] [cxt 0] %s\n"


def line(pkt, msg):
    return PREFIX % (pkt, msg)


def write(path, *lines):
    with open(path, "a") as f:
        f.write("".join(lines))


def test_each_packet_of_a_data_port_is_delivered_or_counted(tmp_path, monkeypatch):
    monkeypatch.setattr(bmv2_log, "QUIET_S", 0.0)
    kernel_rx = {"s1-eth1": 5, "s1-eth2": 0}
    monkeypatch.setattr(bmv2_log, "rx_packets", lambda ifname: kernel_rx[ifname])
    log = bmv2_log.Bmv2Log(str(tmp_path / "bmv2"), {1: "s1-eth1", 2: "s1-eth2"}, pid=7)
    write(log.path,
          # transmitted, with an HH report clone (a copy: not the senders')
          line("0.0", "Processing packet received on port 1"), line("0.0", "Cloning packet at ingress"),
          line("0.0", "Egress port is 2"), line("0.1", "Pipeline 'egress': start"),
          line("0.0", "Pipeline 'egress': start"), line("0.0", "Transmitting packet of size 120 out of port 2"),
          # refused by the full egress queue of port 2: its egress never starts
          line("1.0", "Processing packet received on port 1"), line("1.0", "Egress port is 2"),
          # dropped by the ingress pipeline
          line("2.0", "Processing packet received on port 1"), line("2.0", "Egress port is 511"),
          line("2.0", "Dropping packet at the end of ingress"),
          # a packet-out from the controller: not tracked
          line("3.0", "Processing packet received on port 255"), line("3.0", "Egress port is 2"),
          line("4.0", "Processing packet received on port 1"), line("4.0", "Egress port is 2"),
          "[19:11:14.070] [bmv2] [D] [thread 1895] [4.0] [cxt 0] Pipeline 'egr")  # a line bmv2 is still writing
    log._read()
    write(log.path, "ess': start\n")  # packet 4's egress line complete: it is no drop
    drops = log.collect()
    assert drops["room"] == {"bmv2": {"egress queue of port 2 full": 1},
                             "kernel": {"bmv2's pcap socket on s1-eth1 full": 1}}
    assert drops["verdicts"] == {"bmv2": {"dropped at the end of ingress": 1}}
    assert drops["pids"] == {"bmv2": 7}


def test_a_packet_still_moving_is_waited_for(tmp_path, monkeypatch):
    monkeypatch.setattr(bmv2_log, "QUIET_S", 0.3)
    monkeypatch.setattr(bmv2_log, "rx_packets", lambda ifname: 1)
    log = bmv2_log.Bmv2Log(str(tmp_path / "bmv2"), {1: "s1-eth1"})
    write(log.path, line("0.0", "Processing packet received on port 1"), line("0.0", "Egress port is 1"))
    log._read()
    write(log.path, line("0.0", "Pipeline 'egress': start"))
    assert log.collect()["room"] == {"bmv2": {}, "kernel": {}}


def test_simple_switch_is_told_to_write_a_fresh_log_whole(tmp_path):
    write(str(tmp_path / "bmv2.txt"), line("0.0", "Processing packet received on port 1"))
    args = bmv2_log.fresh_log_args(str(tmp_path / "bmv2"))
    assert args[args.index("--log-level") + 1] == "debug" and "--log-flush" in args
    assert not (tmp_path / "bmv2.txt").exists()

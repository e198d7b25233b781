"""SMF emulator command: associates with a UPF over PFCP, establishes N UE sessions, keeps them alive.

    python smf_cli.py --upf 127.0.0.1:8805 --sessions 100 --ue-pool 10.250.0.0/16 --gnb 198.51.100.1

Each session gets an uplink PDR (F-TEID CHOOSE) and a downlink PDR forwarding to --gnb with TEID
--teid-base + i. With --hold S it sends heartbeats for S seconds (0: until Ctrl-C), then deletes every
session it made and releases nothing else. Exit status 1 if any request is refused.
"""
import argparse
import ipaddress
import signal
import sys
import time

from scapy.contrib import pfcp as P

from smf import Smf, cause, ie

ACCEPTED = 1


def host_port(text):
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upf", type=host_port, default=("127.0.0.1", 8805), help="UPF PFCP address host:port")
    ap.add_argument("--node-id", default="127.0.0.1", help="this SMF's Node ID (IPv4 or FQDN)")
    ap.add_argument("--bind", default="0.0.0.0", help="local address to send from")
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--ue-pool", type=ipaddress.ip_network, default=ipaddress.ip_network("10.250.0.0/16"))
    ap.add_argument("--gnb", default="198.51.100.1", help="gNB N3 address for downlink encapsulation")
    ap.add_argument("--teid-base", type=int, default=0x1000)
    ap.add_argument("--hold", type=float, default=None,
                    help="seconds to keep the sessions (0: until Ctrl-C); omitted: keep them and exit")
    ap.add_argument("--heartbeat", type=float, default=10.0, help="heartbeat period while holding")
    return ap.parse_args(argv)


def establish(smf, args):
    """Returns {ue: up_seid} of the sessions the UPF accepted; prints each refusal."""
    hosts = args.ue_pool.hosts()
    made = {}
    for i in range(args.sessions):
        ue = str(next(hosts))
        resp, _ = smf.request(smf.establishment(1000 + i, ue, gnb=args.gnb, gnb_teid=args.teid_base + i,
                                                dl_far_action=0x02))
        if cause(resp) != ACCEPTED:
            print("establishment of UE %s refused: cause %d" % (ue, cause(resp)), file=sys.stderr)
            continue
        made[ue] = ie(resp, P.IE_FSEID).seid
    return made


def hold(smf, seconds, period):
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    deadline = time.time() + seconds if seconds else float("inf")
    while not stop and time.time() < deadline:
        smf.request(smf.heartbeat())
        time.sleep(min(period, max(0.0, deadline - time.time())))


def main(argv=None):
    args = parse_args(argv)
    smf = Smf(args.upf, node_id=args.node_id, bind=args.bind)
    try:
        if cause(smf.request(smf.association_setup())[0]) != ACCEPTED:
            print("association refused by %s:%d" % args.upf, file=sys.stderr)
            return 1
        made = establish(smf, args)
        print("sessions established: %d of %d" % (len(made), args.sessions))
        if args.hold is None:
            return 0 if len(made) == args.sessions else 1
        hold(smf, args.hold, args.heartbeat)
        refused = [ue for ue, seid in made.items() if cause(smf.request(smf.deletion(seid))[0]) != ACCEPTED]
        print("sessions deleted: %d of %d" % (len(made) - len(refused), len(made)))
        return 0 if len(made) == args.sessions and not refused else 1
    finally:
        smf.close()


if __name__ == "__main__":
    sys.exit(main())

"""The SMF host's process: the lab's SMF emulator (PFCP over N4 from the SMF host's management address to hupf in
ONOS), driven over stdin/stdout one JSON line at a time so that one association serves the whole run:

    {"op": "establish", "plan": PATH}  -> {"accepted": N}  (PATH rewritten with each UE's UP SEID and uplink TEID)
    {"op": "delete", "plan": PATH}     -> {"deleted": [UE, ...]}
"""
import argparse
import json
import sys

from hupf_tools.lab.smf import LabSmfError, Smf


def serve(smf, lines, out):
    for line in lines:
        cmd = json.loads(line)
        with open(cmd["plan"]) as f:
            plan = json.load(f)
        try:
            if cmd["op"] == "establish":
                answer = {"accepted": smf.establish(plan)}
                with open(cmd["plan"], "w") as f:
                    json.dump(plan, f)
            elif cmd["op"] == "delete":
                answer = {"deleted": sorted(smf.delete_all(plan, lambda: {}))}
            else:
                answer = {"error": "unknown op %r" % cmd["op"]}
        except LabSmfError as e:
            answer = {"error": str(e)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--upf", required=True, help="hupf's N4 address:port")
    ap.add_argument("--node-id", required=True, help="the SMF's Node ID and source address")
    args = ap.parse_args(argv)
    host, port = args.upf.rsplit(":", 1)
    smf = Smf(host, int(port), node_id=args.node_id, bind=args.node_id)
    try:
        serve(smf, sys.stdin, sys.stdout)
    finally:
        smf.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

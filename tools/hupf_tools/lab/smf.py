"""The lab's SMF: the SMF emulator of tests/pfcp (scapy.contrib.pfcp, independent of hupf's codec)
establishing one PFCP session per planned UE, then deleting them and checking both targets."""
import os
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "pfcp"))

from scapy.contrib import pfcp as P  # noqa: E402
import smf as emulator  # noqa: E402

CAUSE_ACCEPTED = 1
GONE_TIMEOUT_S = 5.0
N1 = 3  # attempts per request (TS 29.244 T1/N1: the same sequence number, answered from the UPF's cache)


class LabSmfError(RuntimeError):
    pass


class Smf:
    def __init__(self, host, port, node_id="127.0.0.1", bind="127.0.0.1"):
        self.em = emulator.Smf((host, port), node_id=node_id, bind=bind)
        self.associated = False

    def close(self):
        self.em.close()

    def request(self, spec):
        for attempt in range(N1):
            try:
                return self.em.request(spec)
            except AssertionError:
                if attempt == N1 - 1:
                    raise LabSmfError("no PFCP response to message type %d seq %d after %d attempts"
                                      % (spec["type"], spec["seq"], N1)) from None

    def establish(self, plan):
        """Associates (once: a second Association Setup from this Node ID replaces the association, and the UPF
        deletes its sessions, TS 29.244 §6.2.6.2.2), then establishes every UE's session (uplink F-TEID chosen
        by the UPF, downlink forwarding to the gNB). Records each UE's UP SEID and uplink TEID in the plan;
        returns how many were accepted."""
        if not self.associated:
            resp, _ = self.request(self.em.association_setup())
            if emulator.cause(resp) != CAUSE_ACCEPTED:
                raise LabSmfError("PFCP association refused, cause %s" % emulator.cause(resp))
            self.associated = True
        ok = 0
        for u in plan["ues"]:
            spec = self.em.establishment(u["idx"], u["addr"], dl_far_action=emulator.FORW, gnb=plan["gnb"],
                                         gnb_teid=u["dl_teid"], urr=False)
            resp, _ = self.request(spec)
            if emulator.cause(resp) != CAUSE_ACCEPTED:
                u["ul_teid"] = None
                continue
            u["up_seid"] = emulator.ie(resp, P.IE_FSEID).seid
            created = emulator.ie(resp, P.IE_CreatedPDR)
            fteid = [x for x in created.IE_list if isinstance(x, P.IE_FTEID)] if created is not None else []
            if not fteid:
                raise LabSmfError("session of %s accepted without a Created PDR F-TEID" % u["addr"])
            u["ul_teid"] = fteid[0].TEID
            ok += 1
        return ok

    def delete_all(self, plan, read_status):
        """Deletes every established session over PFCP, then waits until neither target lists their
        UEs. Returns {ue: {"backend": still present, "switch": still present}} for the deleted ones."""
        deleted = []
        for u in plan["ues"]:
            if u.get("up_seid") is None:
                continue
            resp, _ = self.request(self.em.deletion(u["up_seid"]))
            if emulator.cause(resp) == CAUSE_ACCEPTED:
                deleted.append(u["addr"])
        deadline = time.time() + GONE_TIMEOUT_S
        while True:
            targets = read_status().get("targets", {})
            where = {ue: {t: ue in targets.get(t, []) for t in targets} for ue in deleted}
            if time.time() > deadline or not any(any(w.values()) for w in where.values()):
                return where
            time.sleep(0.3)

"""The SMF host's command loop (hupf_tools.fabric.smf_host): one JSON answer a line, the plan rewritten with what
the establishment recorded, the emulator's failures answered as errors (the runner raises them)."""
import io
import json

from hupf_tools.fabric import smf_host
from hupf_tools.lab.smf import LabSmfError


class FakeSmf:
    def __init__(self, fail=None):
        self.fail = fail

    def establish(self, plan):
        if self.fail:
            raise LabSmfError(self.fail)
        for i, u in enumerate(plan["ues"]):
            u["up_seid"] = 100 + i
        return len(plan["ues"])

    def delete_all(self, plan, read_status):
        assert read_status() == {}
        return {u["addr"]: {} for u in plan["ues"] if "up_seid" in u}


def ask(smf, tmp_path, *ops):
    plan = tmp_path / "plan.json"
    if not plan.exists():
        plan.write_text(json.dumps({"ues": [{"addr": "10.250.0.2"}, {"addr": "10.250.0.1"}]}))
    out = io.StringIO()
    smf_host.serve(smf, [json.dumps({"op": op, "plan": str(plan)}) for op in ops], out)
    return [json.loads(line) for line in out.getvalue().splitlines()], json.loads(plan.read_text())


def test_establish_then_delete_answer_a_line_each_and_record_the_seids(tmp_path):
    answers, plan = ask(FakeSmf(), tmp_path, "establish", "delete")
    assert answers == [{"accepted": 2}, {"deleted": ["10.250.0.1", "10.250.0.2"]}]
    assert [u["up_seid"] for u in plan["ues"]] == [100, 101]


def test_a_refused_association_and_an_unknown_op_are_answered_as_errors(tmp_path):
    answers, plan = ask(FakeSmf(fail="PFCP association refused, cause 64"), tmp_path, "establish", "modify")
    assert answers == [{"error": "PFCP association refused, cause 64"}, {"error": "unknown op 'modify'"}]
    assert all("up_seid" not in u for u in plan["ues"])

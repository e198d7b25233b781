"""Vectors of the reference Algorithm 2 (tools/hupf_tools/model/rps.py ReferencePoint) that the Java ReferenceRps
(app) must reproduce: core/src/test/resources/rps/reference_vectors.json. Regenerate with
  PYTHONPATH=tools .venv/bin/python tests/rps/reference_vectors.py
test_reference_vectors.py checks the committed file is what the model gives."""
import json
import pathlib
import random
import sys

from hupf_tools.model import rps as model

PATH = pathlib.Path(__file__).resolve().parents[2] / "core/src/test/resources/rps/reference_vectors.json"


def vectors(seed=3, steps=1500, capacity=48):
    rng = random.Random(seed)
    cfg = model.Config(model.MODE_HYBRID, quiet_us=300, select_threshold=1 << 30)
    thresholds = {1: 1 << 28, 2: 1 << 27, 3: 1 << 29}
    point = model.ReferencePoint(model.POINT_OUT, capacity)
    ts = 0xFFFF0000   # the clock wraps during the run
    out = []
    for _ in range(steps):
        ts = (ts + rng.randint(1, 40)) & model.MASK32
        flow, digest = rng.choice(list(thresholds)), rng.getrandbits(32)
        emitted = point.observe(cfg, flow, thresholds[flow], digest, ts)
        out.append({"receipt": [flow, digest, ts],
                    "emitted": [[r.kind, r.flow_id, r.digest, r.ts, r.dnum] for r in emitted]})
    return {"point": model.POINT_OUT, "capacity": capacity, "quietUs": cfg.quiet_us,
            "selectThreshold": cfg.select_threshold, "thresholds": {str(k): v for k, v in thresholds.items()},
            "steps": out}


def render():
    return json.dumps(vectors(), separators=(",", ":")) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
    sys.exit(0)

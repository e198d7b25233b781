"""Labelled feature rows: what the switch classifies at each window end, per flow.

The features come from the reference model's per-slot transition (model/features.py
`step`), so they carry the P4's integer arithmetic. Each flow runs on a slot of its own
here: training wants clean labels (on the switch, colliding flows share a slot).
"""
import numpy as np

from hupf_tools.model.features import FEATURES, CodeTables, FlowState, step


def flow_windows(trace, params):
    """(X, flow): one row of the six features per finished window, and its flow index."""
    order = np.lexsort((trace.ts_us, trace.flow))
    rows, owners = [], []
    empty = CodeTables()
    state, current = None, -1
    for i in order:
        f = int(trace.flow[i])
        if f != current:
            state, current = FlowState(), f
        state, finished = step(state, trace.packet(i), params, empty)
        if finished is not None:
            rows.append(finished)
            owners.append(f)
    return np.array(rows, dtype=np.int64).reshape(-1, len(FEATURES)), np.array(owners, dtype=np.int64)


def split_flows(labels, test_share, rng):
    """Flow indices for training and testing, split per class (windows of a flow stay together)."""
    train, test = [], []
    for cls in sorted(set(labels)):
        flows = np.flatnonzero(np.array(labels, dtype=object) == cls)
        rng.shuffle(flows)
        n_test = max(1, round(len(flows) * test_share)) if len(flows) > 1 else 0
        test += list(flows[:n_test])
        train += list(flows[n_test:])
    return np.array(sorted(train), dtype=np.int64), np.array(sorted(test), dtype=np.int64)


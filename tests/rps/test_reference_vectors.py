"""The Java ReferenceRps is checked against vectors of the Python reference model: they must be current."""
from collections import Counter

import reference_vectors


def test_the_committed_vectors_are_the_models():
    assert reference_vectors.PATH.read_text() == reference_vectors.render(), \
        "regenerate: PYTHONPATH=tools .venv/bin/python tests/rps/reference_vectors.py"


def test_the_vectors_exercise_every_kind():
    kinds = Counter(e[0] for s in reference_vectors.vectors()["steps"] for e in s["emitted"])
    assert kinds[1] > 20 and kinds[2] > 20 and kinds[4] > 5

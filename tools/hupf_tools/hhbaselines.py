"""Counting baselines for the HK-IPG benchmark, both reset at every fixed window (the
disjoint-window behaviour thesis §4.1 argues against).

Each `run` returns, per key, the largest count estimate the structure held for that key at
one of its own packets: a flow is reported at a packet threshold n exactly when that value
reaches n, so one pass serves every threshold.
"""
import random

MASK32 = 0xFFFFFFFF
# Odd multipliers of the per-row multiplicative hashes (Knuth; any odd constants do).
MULTIPLIERS = (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F)


def _row_index(key, row, width):
    return (((key * MULTIPLIERS[row]) & MASK32) * width) >> 32


class _Windowed:
    """A sketch cleared at every window boundary; `run` records each key's best estimate."""

    def __init__(self, slots, window_us, rows):
        self.width, self.rows, self.window_us = slots // rows, rows, window_us

    def run(self, keys, ts_us):
        best, window = {}, None
        for key, t in zip(keys, ts_us):
            if t // self.window_us != window:
                window = t // self.window_us
                self.clear()
            est = self.update(key)
            if est > best.get(key, 0):
                best[key] = est
        return best


class HeavyKeeperCount(_Windowed):
    """HeavyKeeper (Yang et al., IEEE/ACM ToN 2019) with packet counters ("HK-Count").

    `rows` arrays of (fingerprint, count) buckets share the slots. A packet of a flow
    that owns its bucket increments it; a foreign owner's count decays with probability
    b^-count and is taken over when it reaches 0. Memory: 64 bits per slot.
    """

    bits_per_slot = 64

    def __init__(self, slots, window_us, rows=2, b=1.08, seed=0):
        super().__init__(slots, window_us, rows)
        self.b = b
        self.rng = random.Random(seed)

    def clear(self):
        self.fp = [[0] * self.width for _ in range(self.rows)]
        self.cnt = [[0] * self.width for _ in range(self.rows)]

    def update(self, key):
        est = 0
        for r in range(self.rows):
            fp, cnt = self.fp[r], self.cnt[r]
            i = _row_index(key, r, self.width)
            c = cnt[i]
            if fp[i] == key:
                c += 1
            elif c == 0:
                fp[i], c = key, 1
            elif self.rng.random() < self.b ** -c:
                c -= 1
                if c == 0:
                    fp[i], c = key, 1
            cnt[i] = c
            if fp[i] == key and c > est:
                est = c
        return est


class WindowCountMin(_Windowed):
    """Count-Min sketch of packet counters reset at every window ("fixed-window counter").

    `rows` rows of counters share the slots; the estimate is the row minimum (never below
    the truth). Memory: 32 bits per slot.
    """

    bits_per_slot = 32

    def __init__(self, slots, window_us, rows=2):
        super().__init__(slots, window_us, rows)

    def clear(self):
        self.counters = [[0] * self.width for _ in range(self.rows)]

    def update(self, key):
        est = MASK32
        for r in range(self.rows):
            row = self.counters[r]
            i = _row_index(key, r, self.width)
            row[i] += 1
            est = min(est, row[i])
        return est

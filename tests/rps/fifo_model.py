"""A Python model of the data plane's FIFO RPS (docs/PIPELINE_CONTRACT.md, "RPS", mode 1: Algorithm 3 with
disclosure numbers and the disclosure tracker) for one observation point, to generate record streams for the
verifier's tests."""
import struct
import zlib

from hupf_tools.rps import records as rec

TRACK_DEPTH = 4


def selection_hash(receipt_digest, disclosure_digest):
    return zlib.crc32(struct.pack(">II", receipt_digest, disclosure_digest))


class FifoRps:
    def __init__(self, point, buffer_size, quiet_us, select_threshold, disc_threshold, device=0):
        self.point, self.size, self.quiet, self.select = point, buffer_size, quiet_us, select_threshold
        self.disc_threshold = disc_threshold  # flow -> threshold
        self.device = device
        self.buf = [None] * buffer_size        # (flow, digest, ts, dnum)
        self.head = 0
        self.next_dnum = {}
        self.track = {}                        # (flow, dnum % DEPTH) -> (dnum, digest, ts)
        self.warned = {}                       # flow -> last warned dnum
        self.overruns = 0

    def _record(self, kind, flow, digest, ts, dnum):
        return rec.Record(self.device, self.point, kind, flow, digest, ts % rec.U32, dnum)

    def observe(self, flow, digest, ts):
        """The records one observed packet makes."""
        ts %= rec.U32
        nd = self.next_dnum.get(flow, 0)
        if digest < self.disc_threshold[flow]:
            self.track[(flow, nd % TRACK_DEPTH)] = (nd, digest, ts)
            self.next_dnum[flow] = (nd + 1) & 0xFFFF
            return [self._record(rec.DIRECT, flow, digest, ts, nd)]
        old = self.buf[self.head]
        self.buf[self.head] = (flow, digest, ts, nd)
        self.head = (self.head + 1) % self.size
        if old is None:
            return []
        f, d, t, n = old
        tr = self.track.get((f, n % TRACK_DEPTH))
        if tr is not None and tr[0] == n:
            if (tr[2] - t) % rec.U32 > self.quiet and selection_hash(d, tr[1]) < self.select:
                return [self._record(rec.DELAYED, f, d, t, n)]
            return []
        if n == self.next_dnum.get(f, 0):
            if self.warned.get(f) != n:
                self.warned[f] = n
                return [self._record(rec.LATE_WARNING, f, d, t, n)]
            return []
        self.overruns += 1
        return []

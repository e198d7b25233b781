"""The RPS records and the "HRPS" v1 datagram the control plane sends them in (docs/PIPELINE_CONTRACT.md, "RPS"):
magic "HRPS", version (u8) 1, count (u8), device index (u16), then count 16-byte rps_receipt_t records
{point u8, kind u8, flow_id u16, digest u32, ts u32, dnum u16, pad u16}, all big-endian."""
import dataclasses
import struct

MAGIC = b"HRPS"
VERSION = 1
HEADER = struct.Struct(">4sBBH")
RECORD = struct.Struct(">BBHIIHH")
IN, OUT = 0, 1
DIRECT, DELAYED, RECEIPT, LATE_WARNING = 1, 2, 3, 4
KIND_NAMES = {DIRECT: "direct", DELAYED: "delayed", RECEIPT: "receipt", LATE_WARNING: "late_warning"}
U32 = 1 << 32


@dataclasses.dataclass(frozen=True)
class Record:
    device: int
    point: int
    kind: int
    flow: int
    digest: int
    ts: int
    dnum: int

    def to_json(self):
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(d):
        return Record(**{f.name: int(d[f.name]) for f in dataclasses.fields(Record)})


def parse_datagram(data):
    """Returns the records of one datagram; ValueError saying what is wrong with a datagram that is not one."""
    if len(data) < HEADER.size:
        raise ValueError(f"datagram of {len(data)} bytes is shorter than the {HEADER.size}-byte header")
    magic, version, count, device = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"magic {magic!r} is not {MAGIC!r}")
    if version != VERSION:
        raise ValueError(f"version {version} is not {VERSION}")
    if len(data) != HEADER.size + count * RECORD.size:
        raise ValueError(f"{count} records need {HEADER.size + count * RECORD.size} bytes, the datagram has "
                         f"{len(data)}")
    out = []
    for i in range(count):
        point, kind, flow, digest, ts, dnum, _ = RECORD.unpack_from(data, HEADER.size + i * RECORD.size)
        if point not in (IN, OUT) or kind not in KIND_NAMES:
            raise ValueError(f"record {i}: point {point} / kind {kind} not in the contract")
        out.append(Record(device, point, kind, flow, digest, ts, dnum))
    return out


def encode_datagram(device, records):
    """The datagram of these records (what the control plane's exporter sends)."""
    if not 1 <= len(records) <= 255:
        raise ValueError(f"a datagram carries 1..255 records, not {len(records)}")
    return HEADER.pack(MAGIC, VERSION, len(records), device) + b"".join(
        RECORD.pack(r.point, r.kind, r.flow, r.digest, r.ts, r.dnum, 0) for r in records)

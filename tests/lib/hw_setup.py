"""hw profile helpers: backend steering groups, HK-IPG and classifier configuration,
and state reads of their registers."""
import struct
import time

from scapy.layers.l2 import Ether
from scapy.packet import Raw

import hupf_p4const as C
import upf_setup as U
from hupf_tools.model.features import FlowState
from hupf_tools.model.hkipg import Slot
from packets import mac2int

# state_read_t (p4src/include/headers.p4): index, HK-IPG slot (last_ts bit<48> as 16 + 32 bits),
# classifier slot.
STATE_FORMAT = "!I2IHIHBx9IB3x"

BACKEND_MACS = {U.PORT_BACKEND1: "00:00:00:00:bb:01", U.PORT_BACKEND2: "00:00:00:00:bb:02"}


def backend_group(c, ports, group_id=1, slice_id=U.SLICE):
    for port in ports:
        c.insert_member(C.HUPF_INGRESS_STEERING_BACKEND_SELECTOR, port,
                        C.HUPF_INGRESS_STEERING_STEER_TO_BACKEND,
                        **{C.PORT: port, C.DST_MAC: mac2int(BACKEND_MACS[port])})
    c.write_group(C.HUPF_INGRESS_STEERING_BACKEND_SELECTOR, group_id, ports)
    c.insert_group_entry(C.HUPF_INGRESS_STEERING_BACKENDS, {C.HDR_SLICE_ID: slice_id}, group_id)


def pause(dut, seconds):
    """Let `seconds` pass for the pipeline's timestamps: exactly, on a target with a test clock
    (the backend), or by sleeping (bmv2 stamps packets with its own clock)."""
    if dut.has_test_clock:
        dut.advance_clock(int(seconds * 1e9))
    else:
        time.sleep(seconds)


def start_clock(dut):
    """A test clock that starts at 0 is moved on by 1 s: a timestamp of 0 means "no window yet" to
    MATADOR's registers, as on a switch, whose clock is never 0 once it forwards."""
    if dut.has_test_clock and dut.clock_ns == 0:
        dut.advance_clock(1_000_000_000)


def hh_params(c, tau_th, ipg_init, ipg_th, decay_k, timeslot_us, alpha_shift, key_mode=0):
    c.set_default(C.HUPF_INGRESS_HH_HH_CONFIG, C.HUPF_INGRESS_HH_SET_HH_PARAMS,
                  **{C.TAU_TH: tau_th, C.IPG_INIT: ipg_init, C.IPG_TH: ipg_th,
                     C.DECAY_K: decay_k, C.TIMESLOT_US: timeslot_us,
                     C.ALPHA_SHIFT: alpha_shift, C.KEY_MODE: key_mode})


def tau_entries(c, entries):
    # Earlier entries win, as in hkipg.TauTable (P4Runtime: higher priority wins).
    for i, (lo, hi, tau) in enumerate(entries):
        c.insert(C.HUPF_INGRESS_HH_TAU_TABLE, {C.HDR_IPG_EWMA: (lo, hi)}, C.HUPF_INGRESS_HH_SET_TAU,
                 priority=len(entries) - i, **{C.TAU: tau})


def cls_params(c, window_us, alpha_shift):
    c.set_default(C.HUPF_INGRESS_CLASSIFIER_CLS_CONFIG, C.HUPF_INGRESS_CLASSIFIER_SET_CLS_PARAMS,
                  **{C.WINDOW_US: window_us, C.ALPHA_SHIFT: alpha_shift})


FEATURE_TABLES = {
    "pkts_up": (C.HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_UP, C.HUPF_INGRESS_CLASSIFIER_SET_CODE_PKTS_UP),
    "pkts_dn": (C.HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_DN, C.HUPF_INGRESS_CLASSIFIER_SET_CODE_PKTS_DN),
    "ps_up": (C.HUPF_INGRESS_CLASSIFIER_FEATURE_PS_UP, C.HUPF_INGRESS_CLASSIFIER_SET_CODE_PS_UP),
    "ps_dn": (C.HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN, C.HUPF_INGRESS_CLASSIFIER_SET_CODE_PS_DN),
    "ipg_up": (C.HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_UP, C.HUPF_INGRESS_CLASSIFIER_SET_CODE_IPG_UP),
    "ipg_dn": (C.HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_DN, C.HUPF_INGRESS_CLASSIFIER_SET_CODE_IPG_DN),
}
DECISION_KEYS = (C.HDR_CODE_PKTS_UP, C.HDR_CODE_PKTS_DN, C.HDR_CODE_PS_UP, C.HDR_CODE_PS_DN,
                 C.HDR_CODE_IPG_UP, C.HDR_CODE_IPG_DN)


def install_tree(c, tables):
    """Write a features.CodeTables into the switch's range and decision tables."""
    for name, entries in tables.ranges.items():
        table, action = FEATURE_TABLES[name]
        for i, (lo, hi, code) in enumerate(entries):
            c.insert(table, {C.HDR_VALUE: (lo, hi)}, action, priority=len(entries) - i,
                     **{C.CODE: code})
    for codes, cls in tables.decisions.items():
        c.insert(C.HUPF_INGRESS_CLASSIFIER_DECISION, dict(zip(DECISION_KEYS, codes)),
                 C.HUPF_INGRESS_CLASSIFIER_SET_CLASS, **{C.CLASS_ID: cls})


def slots(c, register):
    """A register's size, from the P4Info."""
    return c.p4info.get("registers", register).size


def read_state(c, index, others=None, timeout=2.0):
    """(HK-IPG Slot, classifier FlowState) at register index, via a state-read packet-out;
    other packet-ins met on the way are appended to `others`."""
    request = Ether(src=U.SWITCH_MAC, dst=U.SWITCH_MAC, type=C.ETHERTYPE_HUPF_STATE) / Raw(
        struct.pack(STATE_FORMAT, index, *([0] * 16)))
    c.packet_out(request, **{C.PKT_META_EGRESS_PORT: C.STATE_READ_PORT})
    while True:
        got = c.packet_in(timeout)
        assert got is not None, "no state-read packet-in for index %d" % index
        payload, md = got
        if md[C.PKT_META_REASON] == C.PKTIN_STATE_READ:
            break
        if others is not None:
            others.append(got)
    fields = struct.unpack(STATE_FORMAT, payload[14:14 + struct.calcsize(STATE_FORMAT)])
    assert fields[0] == index
    flow_id, ipg_ewma, ts_hi, ts_lo, tau, reported = fields[1:7]
    return Slot(flow_id, ipg_ewma, ts_hi << 32 | ts_lo, tau, reported), FlowState(*fields[7:17])

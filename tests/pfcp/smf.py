"""An SMF emulator: speaks PFCP over UDP to a UPF, building and parsing messages with scapy.contrib.pfcp."""
import socket
import time

from scapy.contrib import pfcp as P

from pfcp_spec import (build_message, fseid, fteid, fteid_choose, flags, group, message, network_instance,
                       node_fqdn, node_ipv4, ohc, qfi, sdf, ue_ip, uint, volume, bitrate)

RECOVERY = 3900000000
FORW, BUFF, NOCP, DROP = 0x02, 0x04, 0x08, 0x01


class Smf:
    def __init__(self, upf_addr, node_id="127.0.0.1", bind="127.0.0.1", recovery=RECOVERY):
        self.upf = upf_addr
        self.node_id = node_id
        self.recovery = recovery
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((bind, 0))
        self.seq = 1

    def close(self):
        self.sock.close()

    def next_seq(self):
        self.seq += 1
        return self.seq

    def send_raw(self, data):
        self.sock.sendto(data, self.upf)

    def recv(self, timeout=3.0):
        """Returns (parsed, raw) of the next datagram, or (None, None) on timeout."""
        self.sock.settimeout(timeout)
        try:
            data, _ = self.sock.recvfrom(65535)
        except socket.timeout:
            return None, None
        return P.PFCP(data), data

    def wait_for(self, message_type, timeout=5.0):
        """Returns (parsed, raw) of the next message of a type the UPF sends, or (None, None)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            msg, raw = self.recv(max(0.05, deadline - time.time()))
            if msg is not None and msg.message_type == message_type:
                return msg, raw
        return None, None

    def request(self, spec, timeout=3.0):
        """Sends a spec, returns the parsed response with the same sequence number and its raw bytes. The UPF's
        Heartbeat Requests that arrive meanwhile are answered, as an SMF does (the UPF asks before it lets a new
        Association Setup delete the old association's sessions)."""
        raw = bytes(build_message(spec))
        self.send_raw(raw)
        deadline = time.time() + timeout
        while time.time() < deadline:
            resp, data = self.recv(deadline - time.time())
            if resp is None:
                break
            if resp.message_type == 1:
                self.answer_heartbeat(resp.seq)
            elif resp.seq == spec["seq"] and resp.message_type == spec["type"] + 1:
                return resp, data
        raise AssertionError("no response to message type %d seq %d" % (spec["type"], spec["seq"]))

    # Messages ------------------------------------------------------------------------------------
    def node_ie(self):
        try:
            socket.inet_aton(self.node_id)
            return node_ipv4(self.node_id)
        except OSError:
            return node_fqdn(self.node_id)

    def association_setup(self, recovery=None):
        """An Association Setup Request; recovery, when given, is this SMF's stamp from now on (it restarted)."""
        self.recovery = recovery or self.recovery
        return message(5, self.next_seq(), [self.node_ie(), uint(96, self.recovery)])

    def answer_heartbeat(self, seq, recovery=None):
        """Answers the UPF's Heartbeat Request seq with this SMF's Recovery Time Stamp, or the one given."""
        self.send_raw(bytes(P.PFCP(version=1, S=0, seq=seq, message_type=2)
                            / P.PFCPHeartbeatResponse(IE_list=[P.IE_RecoveryTimeStamp(
                                timestamp=recovery or self.recovery)])))

    def heartbeat(self):
        return message(1, self.next_seq(), [uint(96, self.recovery)])

    def establishment(self, cp_seid, ue, dl_far_action=BUFF | NOCP, gnb=None, gnb_teid=None, urr=True,
                      qer=True, period=None, uplink_sdf=None, teid=None, seid=0, instance="internet"):
        """A Session Establishment Request; teid gives the uplink F-TEID instead of asking CHOOSE, seid the
        header SEID (None: S flag 0), instance the uplink PDI's Network Instance."""
        local = fteid_choose() if teid is None else fteid(teid, "192.168.0.1")
        pdi = [flags(20, 0), local, network_instance(instance), ue_ip(ue, False)]
        if uplink_sdf is not None:
            pdi.append(sdf(uplink_sdf))
        ul_pdr = [uint(56, 1), uint(29, 100), group(2, *pdi), uint(95, 0), uint(108, 1)]
        dl_pdr = [uint(56, 2), uint(29, 100), group(2, flags(20, 1), ue_ip(ue, True)), uint(108, 2)]
        ies = [self.node_ie(), fseid(cp_seid, self.sock.getsockname()[0])]
        if urr:
            ul_pdr.append(uint(81, 1))
            dl_pdr.append(uint(81, 1))
        if qer:
            ul_pdr.append(uint(109, 1))
            dl_pdr.append(uint(109, 1))
        ies += [group(1, *ul_pdr), group(1, *dl_pdr),
                group(3, uint(108, 1), flags(44, FORW), group(4, flags(42, 1)))]
        if gnb is not None:
            ies.append(group(3, uint(108, 2), flags(44, dl_far_action), group(4, flags(42, 0), ohc(gnb_teid, gnb))))
        else:
            ies.append(group(3, uint(108, 2), flags(44, dl_far_action)))
        if urr:
            triggers = 0x01 if period else 0x02
            urr_ies = [uint(81, 1), flags(62, 0x02), flags(37, triggers, 2)]
            urr_ies.append(uint(64, period) if period else volume(31, total=10 ** 12))
            ies.append(group(6, *urr_ies))
        if qer:
            ies.append(group(7, uint(109, 1), flags(25, 0), bitrate(26, 100000, 200000), qfi(9)))
        return message(50, self.next_seq(), ies, seid=seid)

    def modify_to_forward(self, up_seid, gnb, gnb_teid):
        return message(52, self.next_seq(), [
            group(10, uint(108, 2), flags(44, FORW), group(11, flags(42, 0), ohc(gnb_teid, gnb)))], seid=up_seid)

    def modify_query_urr(self, up_seid):
        return message(52, self.next_seq(), [group(77, uint(81, 1))], seid=up_seid)

    def deletion(self, up_seid):
        return message(54, self.next_seq(), [], seid=up_seid)

    def release(self):
        return message(9, self.next_seq(), [self.node_ie()])


def ies_of(resp):
    """Top-level IEs of a parsed response."""
    return resp.payload.IE_list


def ie(resp, cls):
    for x in ies_of(resp):
        if isinstance(x, cls):
            return x
    return None


def cause(resp):
    c = ie(resp, P.IE_Cause)
    return None if c is None else c.cause

"""hupf in a running ONOS 2.7: the .oar's bundles and components really run (Karaf's view, not the REST app
state), the pipeconfs register, hupf's backend becomes a P4Runtime device with the pipeline pushed, and
sessions made over REST, PFCP and the hupf:* CLI reach the backend's tables and leave them again (read back
over P4Runtime from the backend itself), written by hupf through ONOS's P4Runtime client, not as flow rules."""
import copy
import ipaddress
import json
import re
import sys
import time
import zipfile
from pathlib import Path

import grpc
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
from scapy.contrib import pfcp as P

import conftest
import onos_ready
from p4rt import P4Info

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "pfcp"))
import smf as smf_mod  # noqa: E402  (the SMF emulator of tests/pfcp)

SW_P4INFO = REPO / "pipeconf" / "src" / "main" / "resources" / "p4c-out" / "sw" / "bmv2" / "p4info.txt"
HW_P4INFO = SW_P4INFO.parents[2] / "hw" / "bmv2" / "p4info.txt"
ENTRY_TIMEOUT_S = 60
# Components the .oar must bring up (each bundle's OSGI-INF lists them; these must be among them).
KNOWN_COMPONENTS = {"org.hupf.app.impl.HupfManager", "org.hupf.app.offload.OffloadComponent",
                    "org.hupf.pipeconf.behaviour.PipeconfLoader"}
PIPECONFS = ("org.hupf.bmv2", "org.hupf.backend", "org.hupf.tofino", "org.hupf.tofino2")


def oar_bundles(oar):
    """{Bundle-SymbolicName: [component names]} of the bundles packed in the .oar."""
    bundles = {}
    with zipfile.ZipFile(oar) as z:
        for name in z.namelist():
            if not name.endswith(".jar"):
                continue
            with z.open(name) as f, zipfile.ZipFile(f) as jar:
                manifest = re.sub(r"\r?\n ", "", jar.read("META-INF/MANIFEST.MF").decode())
                bsn = re.search(r"^Bundle-SymbolicName: *([^;\s]+)", manifest, re.M).group(1)
                comps = []
                for xml in jar.namelist():
                    if xml.startswith("OSGI-INF/") and xml.endswith(".xml"):
                        m = re.search(r'<(?:\w+:)?component[^>]*\sname="([^"]+)"', jar.read(xml).decode())
                        if m:
                            comps.append(m.group(1))
                bundles[bsn] = comps
    return bundles


# A Read of the backend's tables: its deadline, and how long one timed out is made again.
READ_DEADLINE_S = 30
READ_BUDGET_S = 300


class BackendTables:
    """The backend's table entries read over P4Runtime (a Read needs no arbitration: ONOS stays primary)."""

    def __init__(self, addr, p4info=SW_P4INFO):
        self.channel = grpc.insecure_channel(addr)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        info = P4Info.from_text_file(str(p4info))
        self.tables = {t.preamble.id: t for t in info.msg.tables}
        self.actions = {a.preamble.id: a for a in info.msg.actions}

    def close(self):
        self.channel.close()

    def _read(self, req):
        """The responses of a Read, made again when it passed its deadline: a starved backend (a CPU hog beside
        the suite) can take longer than a deadline to walk its tables, and a Read changes nothing. Gives up
        after READ_BUDGET_S."""
        started = time.monotonic()
        while True:
            try:
                return list(self.stub.Read(req, timeout=READ_DEADLINE_S))
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.DEADLINE_EXCEEDED or time.monotonic() - started > READ_BUDGET_S:
                    raise

    def pipeline_tables(self):
        """Table names of the P4Info the backend was given (by ONOS)."""
        req = p4runtime_pb2.GetForwardingPipelineConfigRequest(
            device_id=1, response_type=p4runtime_pb2.GetForwardingPipelineConfigRequest.P4INFO_AND_COOKIE)
        return {t.preamble.name for t in self.stub.GetForwardingPipelineConfig(req, timeout=30).config.p4info.tables}

    def entries(self):
        """[(table name without its control prefix, {match field: int})] of every non-default entry."""
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().table_entry.table_id = 0
        out = []
        for resp in self._read(req):
            for e in resp.entities:
                te = e.table_entry
                t = self.tables[te.table_id]
                fields = {f.id: f.name for f in t.match_fields}
                match = {}
                for m in te.match:
                    kind = m.WhichOneof("field_match_type")
                    fm = getattr(m, kind)  # a range (the hw profile's HK-IPG and classifier) by its low end
                    match[fields[m.field_id]] = int.from_bytes(fm.low if kind == "range" else fm.value, "big")
                out.append((t.preamble.name.split(".")[-1], match))
        return out

    def routes(self):
        """{"a.b.c.d/len": {action parameter: int}} of the backend's routes_v4 entries."""
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().table_entry.table_id = next(
            i for i, t in self.tables.items() if t.preamble.name.endswith(".routes_v4"))
        out = {}
        for resp in self._read(req):
            for e in resp.entities:
                te = e.table_entry
                lpm = te.match[0].lpm
                prefix = "%s/%d" % (ipaddress.IPv4Address(int.from_bytes(lpm.value, "big")), lpm.prefix_len)
                a = te.action.action
                names = {p.id: p.name for p in self.actions[a.action_id].params}
                out[prefix] = {names[p.param_id]: int.from_bytes(p.value, "big") for p in a.params}
        return out

    def session_entries(self, ue, teid):
        """The entries a session of `ue` (uplink F-TEID `teid`) puts on the backend, by table."""
        ue = int(ipaddress.IPv4Address(ue))
        found = {}
        for table, m in self.entries():
            if (table == "downlink_sessions" and m.get("ue_addr") == ue
                    or table in ("uplink_terminations", "downlink_terminations") and m.get("ue_session_id") == ue
                    or table == "uplink_sessions" and m.get("teid") == teid):
                found[table] = found.get(table, 0) + 1
        return found

    def wait_session(self, ue, teid, present):
        want = {"downlink_sessions": 1, "uplink_sessions": 1, "uplink_terminations": 1, "downlink_terminations": 1}
        deadline = time.monotonic() + ENTRY_TIMEOUT_S
        while True:
            try:
                got = self.session_entries(ue, teid)
            except grpc.RpcError as e:  # a starved backend (shared CPUs) may miss a read's deadline
                if e.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise
                got = "read timed out"
            if got == (want if present else {}):
                return
            assert time.monotonic() < deadline, "backend entries of UE %s (teid %d) after %d s: %s, want %s" % (
                ue, teid, ENTRY_TIMEOUT_S, got, want if present else "none")
            time.sleep(0.5)


def session_json(ue, cp_seid):
    """A REST/CLI session: uplink PDR with an F-TEID chosen by the UPF, downlink PDR buffering."""
    return {"cpSeid": cp_seid, "nodeId": "controller", "pdrs": [
        {"pdrId": 1, "precedence": 10, "pdi": {"sourceInterface": "ACCESS", "fTeid": {"choose": True},
                                               "ueIpAddress": ue}, "farId": 1, "urrIds": [1]},
        {"pdrId": 2, "precedence": 10, "pdi": {"sourceInterface": "CORE", "ueIpAddress": ue}, "farId": 2}],
        "fars": [{"farId": 1, "applyAction": ["FORW"], "forwardingParameters": {"destinationInterface": "CORE"}},
                 {"farId": 2, "applyAction": ["BUFF", "NOCP"]}],
        "urrs": [{"urrId": 1, "measurementMethod": ["VOLUM"], "reportingTriggers": ["PERIO"],
                  "measurementPeriod": 60}]}


def uplink_teid(session):
    return next(p["pdi"]["fTeid"]["teid"] for p in session["pdrs"] if p["pdi"]["sourceInterface"] == "ACCESS")


def device_flows(onos, device):
    """ONOS's flow rules on a device (ONOS 2.7 answers 404 "Device is not found" for a device without any)."""
    status, body = onos.rest("GET", "/onos/v1/flows/%s" % device)
    if status == 404 and onos.rest("GET", "/onos/v1/devices/%s" % device)[0] == 200:
        return []
    assert status == 200, body
    return body["flows"]


def udp_listeners(port):
    """Local addresses with a UDP socket bound to `port` (from /proc/net/udp and udp6)."""
    found = set()
    for name, width in (("udp", 8), ("udp6", 32)):
        for line in Path("/proc/net", name).read_text().splitlines()[1:]:
            local = line.split()[1]
            addr, p = local.split(":")
            if int(p, 16) != port:
                continue
            raw = bytes.fromhex(addr)
            if width == 8:
                found.add(str(ipaddress.IPv4Address(raw[::-1])))
            else:
                words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                v6 = ipaddress.IPv6Address(words)
                found.add(str(v6.ipv4_mapped or v6))
    return found


# -- the .oar in ONOS ----------------------------------------------------------------------------------------
def test_hupf_bundles_active_and_components_satisfied(onos, oar):
    bundles = oar_bundles(oar)
    assert set(bundles) == {"org.hupf.hupf-app", "org.hupf.hupf-api", "org.hupf.hupf-core", "org.hupf.hupf-pipeconf"}, bundles
    components = [c for comps in bundles.values() for c in comps]
    assert KNOWN_COMPONENTS <= set(components), components
    onos.wait(lambda: all(onos.bundles().get(b) == "Active" for b in bundles), 60,
              "hupf bundles Active in bundle:list")
    for name in components:
        info = onos.cli("scr:info %s | grep ." % name)
        states = re.findall(r"^State:\s+(\S+)", info, re.M)
        assert states and all(s in ("ACTIVE", "SATISFIED") for s in states), "%s: %s" % (name, info)
        assert "UNSATISFIED" not in info, info
    status = onos.cli("hupf:status")
    assert status.startswith("hupf: running"), status
    assert re.search(r"^sites: \S", status, re.M), "hupf:status names the UPF sites: %s" % status
    for name in components:
        assert "component %s: " % name in status, status
    log = onos.karaf_log.read_text(errors="replace")
    assert "Unable to perform operation on application org.hupf.app" not in log


def test_pipeconfs_registered(onos):
    out = onos.cli("pipeconfs")
    for p in PIPECONFS:
        assert "id=%s," % p in out, out


# -- the backend as a P4Runtime device -----------------------------------------------------------------------
def test_backend_is_a_p4runtime_device_with_the_pipeline_pushed(onos, deployed, backend):
    status, dev = onos.rest("GET", "/onos/v1/devices/%s" % deployed["device"])
    assert status == 200 and dev["available"], dev
    assert dev["driver"] == "bmv2:org.hupf.backend", dev
    tables = BackendTables(backend.addr)
    try:
        want = {t.preamble.name for t in P4Info.from_text_file(str(SW_P4INFO)).msg.tables}
        assert tables.pipeline_tables() == want
        # hupf's ACCESS and CORE interfaces, from the netcfg's n3Addresses and uePools.
        ifaces = {m["ipv4_dst_addr"] for t, m in tables.entries() if t == "interfaces"}
        hupf = deployed["cfg"]["apps"]["org.hupf.app"]["hupf"]
        want_ifaces = {int(ipaddress.IPv4Address(a)) for a in hupf["n3Addresses"]}
        want_ifaces |= {int(ipaddress.IPv4Network(p).network_address) for p in hupf["uePools"]}
        onos.wait(lambda: {m["ipv4_dst_addr"] for t, m in tables.entries() if t == "interfaces"} == want_ifaces,
                  30, "interfaces %s on the backend (have %s)" % (want_ifaces, ifaces))
    finally:
        tables.close()
    status, off = onos.rest("GET", "/onos/hupf/offload")
    assert status == 200 and off["offloaded"] == 0, off


def expected_routes(cfg, device):
    """The routes netcfg gives a device, as BackendTables.routes() reads them."""
    return {r["prefix"]: {"port": r["port"], "src_mac": int(r["srcMac"].replace(":", ""), 16),
                          "dst_mac": int(r["dstMac"].replace(":", ""), 16)}
            for r in cfg["apps"]["org.hupf.app"]["hupf"]["routes"] if r["deviceId"] == device}


def test_netcfg_routes_reach_the_backend_and_follow_changes(onos, deployed, backend):
    """hupf writes the netcfg's routes to the backend (no ONOS flow rules: P4Runtime entries of its own), and a
    changed netcfg by a diff: a moved route is rewritten, a new one added, a dropped one removed."""
    cfg = deployed["cfg"]
    tables = BackendTables(backend.addr)
    try:
        want = expected_routes(cfg, deployed["device"])
        assert len(want) == 2, want
        onos.wait(lambda: tables.routes() == want, 30, "the netcfg's routes %s on the backend" % want)
        changed = copy.deepcopy(cfg)
        routes = changed["apps"]["org.hupf.app"]["hupf"]["routes"]
        routes[1]["port"] = 3
        routes[0] = dict(routes[0], prefix="10.0.2.0/24")
        status, body = onos.rest("POST", "/onos/v1/network/configuration", changed)
        assert status == 200, body
        want_changed = expected_routes(changed, deployed["device"])
        onos.wait(lambda: tables.routes() == want_changed, 30,
                  "the changed routes %s on the backend (have %s)" % (want_changed, tables.routes()))
    finally:
        status, body = onos.rest("POST", "/onos/v1/network/configuration", cfg)
        assert status == 200, body
        onos.wait(lambda: tables.routes() == want, 30, "the netcfg's routes back on the backend")
        tables.close()
    assert deployed["device"] not in {f["deviceId"] for f in onos.rest(
        "GET", "/onos/v1/flows/application/org.hupf.app")[1].get("flows", [])}, "routes are no flow rules"


# -- sessions ------------------------------------------------------------------------------------------------
def test_rest_session_reaches_the_backend_and_leaves(onos, deployed, backend):
    tables = BackendTables(backend.addr)
    baseline = len(device_flows(onos, deployed["device"]))
    try:
        status, s = onos.rest("POST", "/onos/hupf/sessions", session_json("10.250.0.9", 77))
        assert status == 201, s
        seid, teid = s["upSeid"], uplink_teid(s)
        assert teid > 0
        tables.wait_session("10.250.0.9", teid, present=True)
        # Written through ONOS's P4Runtime client in batches: none of the backend's entries is an ONOS flow rule.
        assert len(device_flows(onos, deployed["device"])) == baseline == 0
        status, got = onos.rest("GET", "/onos/hupf/sessions/%d" % seid)
        assert status == 200 and got["cpSeid"] == 77
        status, bad = onos.rest("POST", "/onos/hupf/sessions", b'{"cpSeid": "x"')
        assert status == 400, (status, bad)
        assert onos.rest("DELETE", "/onos/hupf/sessions/%d" % seid)[0] == 204
        tables.wait_session("10.250.0.9", teid, present=False)
        assert onos.rest("GET", "/onos/hupf/sessions/%d" % seid)[0] == 404
    finally:
        tables.close()


def test_pfcp_session_reaches_the_backend_and_leaves(onos, deployed, backend):
    port = deployed["pfcp_port"]
    n4 = deployed["cfg"]["apps"]["org.hupf.app"]["hupf"]["pfcp"]["nodeId"]
    assert udp_listeners(port) == {n4}, "the PFCP agent binds the N4 address only"
    smf = smf_mod.Smf(("127.0.0.1", port))
    tables = BackendTables(backend.addr)
    try:
        resp, _ = smf.request(smf.association_setup())
        assert smf_mod.cause(resp) == 1
        peers = onos.rest("GET", "/onos/hupf/pfcp-peers")[1]["peers"]
        assert [p["address"] for p in peers] == ["127.0.0.1"], peers
        resp, _ = smf.request(smf.establishment(1001, "10.250.0.20", gnb="10.0.1.1", gnb_teid=0x55))
        assert smf_mod.cause(resp) == 1
        up_seid = smf_mod.ie(resp, P.IE_FSEID).seid
        created = smf_mod.ie(resp, P.IE_CreatedPDR)
        teid = [x for x in created.IE_list if isinstance(x, P.IE_FTEID)][0].TEID
        tables.wait_session("10.250.0.20", teid, present=True)
        status, s = onos.rest("GET", "/onos/hupf/sessions/%d" % up_seid)
        assert status == 200 and s["cpSeid"] == 1001, s
        resp, _ = smf.request(smf.deletion(up_seid))
        assert smf_mod.cause(resp) == 1
        tables.wait_session("10.250.0.20", teid, present=False)
        resp, _ = smf.request(smf.deletion(up_seid))
        assert smf_mod.cause(resp) == 65, "a deleted session is unknown (cause 65)"
    finally:
        tables.close()
        smf.close()


def test_cli_commands(onos, deployed, backend, tmp_path):
    f = tmp_path / "session.json"
    f.write_text(json.dumps(session_json("10.250.0.33", 501)))
    out = onos.cli("hupf:session-add %s" % f)
    m = re.search(r"created session upSeid=(\d+)", out)
    assert m, out
    seid = int(m.group(1))
    tables = BackendTables(backend.addr)
    try:
        status, s = onos.rest("GET", "/onos/hupf/sessions/%d" % seid)
        assert status == 200, s
        teid = uplink_teid(s)
        tables.wait_session("10.250.0.33", teid, present=True)
        assert re.search(r"upSeid=%d cpSeid=501 .*ue=10\.250\.0\.33" % seid, onos.cli("hupf:sessions"))
        counters = onos.cli("hupf:counters %d" % seid)
        assert re.search(r"^pdr=1 cell=\d+ ingress=0 pkts", counters, re.M), counters
        stats = dict(l.split("=", 1) for l in onos.cli("hupf:upf-stats").split() if "=" in l)
        assert int(stats["entities"]) > 0 and int(stats["deviceErrors"]) == 0, stats
        count = len(onos.rest("GET", "/onos/hupf/sessions")[1]["sessions"])
        offload = onos.cli("hupf:offload")
        assert re.search(r"^backends %s$" % deployed["device"], offload, re.M), offload
        assert re.search(r"^sessions=%d offloaded=0" % count, offload, re.M), offload
        smf = smf_mod.Smf(("127.0.0.1", deployed["pfcp_port"]))
        try:
            assert smf_mod.cause(smf.request(smf.association_setup())[0]) == 1
            listed = re.findall(r"^nodeId=(\S+) address=(\S+):(\d+) ", onos.cli("hupf:pfcp-peers"), re.M)
            assert ("127.0.0.1", "127.0.0.1", str(smf.sock.getsockname()[1])) in listed, listed
        finally:
            smf.close()
        bad = tmp_path / "bad.json"
        bad.write_text("{bad")
        assert "invalid session: body is not JSON" in onos.cli("hupf:session-add %s" % bad)
        assert "no session 999999" in onos.cli("hupf:session-remove 999999")
        assert "removed session %d" % seid in onos.cli("hupf:session-remove %d" % seid)
        tables.wait_session("10.250.0.33", teid, present=False)
        assert "upSeid=%d " % seid not in onos.cli("hupf:sessions")
    finally:
        tables.close()


def test_a_sites_change_that_strands_stored_sessions_is_refused(onos, deployed, backend):
    """Issue 35: a session stays at the site it was established at. With a session towards gNB 192.168.1.10
    stored, a netcfg whose one site serves no such gNB would strand it: hupf's validation makes ONOS refuse it (the
    log names the sessions and their site), and the sites and the session stay; a site serving every gNB is taken,
    and so is going back to no sites, the session on the backend throughout."""
    cfg = deployed["cfg"]
    draft = session_json("10.250.0.44", 544)
    draft["fars"][1] = {"farId": 2, "applyAction": ["FORW"], "forwardingParameters": {
        "destinationInterface": "ACCESS", "outerHeaderCreation": {"teid": 4660, "ipv4": "192.168.1.10"}}}
    status, created = onos.rest("POST", "/onos/hupf/sessions", draft)
    assert status == 201, created
    seid, teid = created["upSeid"], uplink_teid(created)

    def with_site(gnbs):
        changed = copy.deepcopy(cfg)
        changed["apps"]["org.hupf.app"]["hupf"]["sites"] = [
            {"siteId": "edge-x", "backends": [deployed["device"]], "gnbs": gnbs}]
        return changed

    def sites():
        return [s["siteId"] for s in onos.rest("GET", "/onos/hupf/sites")[1]["sites"]]

    tables = BackendTables(backend.addr)
    try:
        tables.wait_session("10.250.0.44", teid, present=True)
        status, body = onos.rest("POST", "/onos/v1/network/configuration", with_site(["192.0.2.0/24"]))
        assert status != 200, (status, body)
        assert sites() == [], "the refused sites are not in force"
        assert re.search(r"netcfg refused: sites: the change strands stored sessions .*\d+ sessions? at site default"
                         r" would be served by no site", onos.karaf_log.read_text(errors="replace"))
        status, body = onos.rest("POST", "/onos/v1/network/configuration", with_site(["0.0.0.0/0"]))
        assert status == 200, body
        onos.wait(lambda: sites() == ["edge-x"], 30, "site edge-x in force")
        status, body = onos.rest("POST", "/onos/v1/network/configuration", cfg)
        assert status == 200, body
        onos.wait(lambda: sites() == [], 30, "no sites in force again")
        onos.wait_ready(lambda: onos_ready.settled(onos, onos_ready.hupf_took_backend), conftest.DEVICE_TIMEOUT_S,
                        "hupf took the backend over again")
        tables.wait_session("10.250.0.44", teid, present=True)
        # Each accepted change restarted the core: until it runs again a request is answered 409 and changes nothing.
        answers = []
        onos.wait(lambda: answers.append(onos.rest("DELETE", "/onos/hupf/sessions/%d" % seid)[0]) or answers[-1] != 409,
                  60, "the session deleted once the core runs again")
        assert answers[-1] == 204, answers
        tables.wait_session("10.250.0.44", teid, present=False)
    finally:
        if onos.rest("GET", "/onos/hupf/sessions/%d" % seid)[0] == 200:
            onos.rest("DELETE", "/onos/hupf/sessions/%d" % seid)
        tables.close()


def test_no_write_of_hupf_failed_on_the_backend(onos, deployed):
    """ONOS logs every refused P4Runtime table write (e.g. the backend once refused the reset of
    gtpu_encap's default entry); after the sessions above, there is none for the backend but the INSERTs
    answered ALREADY_EXIST, which hupf's batches send again as MODIFYs ("install or overwrite": a netcfg
    change restarts the core, which installs the interfaces again); a refused MODIFY would be listed."""
    log = onos.karaf_log.read_text(errors="replace")
    refused = [line for line in re.findall(r"Unable to \w+ table entry on %s: .*" % re.escape(deployed["device"]), log)
               if not line.startswith("Unable to INSERT table entry on %s: ALREADY_EXIST" % deployed["device"])]
    assert not refused, refused[:5]


# -- REST docs -----------------------------------------------------------------------------------------------
def packaged_swagger(oar):
    """The swagger.json onos-maven-plugin generated, as packed in the .oar's hupf-app bundle."""
    with zipfile.ZipFile(oar) as z:
        name = next(n for n in z.namelist() if re.search(r"hupf-app-[^/]*\.jar$", n))
        with z.open(name) as f, zipfile.ZipFile(f) as jar:
            return json.loads(jar.read("WEB-INF/classes/apidoc/swagger.json"))


def test_swagger_is_listed_in_onos_api_docs(onos, oar):
    """ONOS's API docs (onos-rest's /onos/v1/docs) list hupf's REST API, registered by the ApiDocRegistrator
    that onos-maven-plugin generated, and serve the swagger generated from the resources."""
    swagger = packaged_swagger(oar)
    assert swagger["basePath"] == "/onos/hupf" and "/sessions" in swagger["paths"], swagger.get("basePath")
    status, apis = onos.rest("GET", "/onos/v1/docs/apis")
    assert status == 200 and swagger["info"]["title"] in apis["apis"], (status, apis)
    status, served = onos.rest("GET", "/onos/v1/docs/apis/onos/hupf/swagger.json")
    assert status == 200 and served == swagger, (status, str(served)[:300])
    status, index = onos.rest("GET", "/onos/v1/docs/index.html")
    assert status == 200 and '<option value="/onos/hupf">%s</option>' % swagger["info"]["title"] in index, \
        (status, str(index)[:300])

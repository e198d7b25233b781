"""Readiness of an ONOS 2.7 for the next step of a test, decided on what that step needs and probed in ONOS
itself: the REST codecs registered, the apps ACTIVE and their components active, hupf's bundles Active and
components satisfied, a device's pipeline pushed; and no Karaf feature deployment (with the bundle refresh it
may bring) under way or finished while the probes ran.

Each probe takes an onos_runtime.Onos and returns None when ready, else one phrase saying what is not: the
phrase a timeout reports, so that a run that gives up says what it waited for."""
import re

# Karaf's FeaturesServiceImpl brackets each feature deployment with these lines; a refresh (bundles stopped,
# rewired and started again, their services gone meanwhile) happens inside one.
KARAF_DEPLOY = re.compile(r"\| FeaturesServiceImpl +\|[^|]*\| (Changes to perform:|Done\.|Refreshing bundles:)\s*$",
                          re.M)
# Karaf gave up installing its boot features (an artifact missing from the runtime's system/ repository and no
# Maven repository reachable): no app of ONOS will start, however long one waits. The exception follows the line.
KARAF_BOOT_FAILED = re.compile(r"\| BootFeaturesInstaller +\|[^|]*\| Error installing boot features\s*\n(.+)")
# ONOS's answers while a service the request needs is not registered (ServiceNotFoundException: 503), or while
# its REST servlet is being (re)started (404 on /onos/v1 with Jetty's page, connection refused or reset).
NOT_READY_STATUS = (404, 503)
# scr:list into a pipe: "<component> in bundle N (...) enabled, 1 instance." then "    Id: 123, State:ACTIVE".
SCR_ENTRY = re.compile(r"^(\S+) in bundle \d+ .*\n\s+Id: \d+, State:([A-Z ]+)", re.M)
# Components of ONOS that hupf's next steps go through (app installs, the cluster and its leadership, REST
# codecs, netcfg, P4Runtime devices, pipeconfs).
ONOS_COMPONENTS = ("org.onosproject.app.impl.ApplicationManager",
                   "org.onosproject.cluster.impl.ClusterManager",
                   "org.onosproject.codec.impl.CodecManager",
                   "org.onosproject.net.config.impl.NetworkConfigManager",
                   "org.onosproject.net.pi.impl.PiPipeconfManager",
                   "org.onosproject.p4runtime.ctl.controller.P4RuntimeControllerImpl",
                   "org.onosproject.provider.general.device.impl.GeneralDeviceProvider")


def karaf_activity(onos):
    """(feature deployments begun, refreshes, under way?) from karaf.log: two equal values mean Karaf deployed
    nothing in between."""
    marks = KARAF_DEPLOY.findall(onos.karaf_log.read_text(errors="replace")) if onos.karaf_log.exists() else []
    begun = marks.count("Changes to perform:")
    return begun, marks.count("Refreshing bundles:"), begun > marks.count("Done.")


def settled(onos, *probes):
    """None when Karaf deploys no feature and every probe passed with no deployment or refresh begun or finished
    while they ran; else the first thing not ready."""
    before = karaf_activity(onos)
    if before[2]:
        return "Karaf is deploying features (bundles may be refreshed)"
    for probe in probes:
        why = probe(onos)
        if why:
            return why
    if karaf_activity(onos) != before:
        return "Karaf deployed features or refreshed bundles while the checks ran"
    return None


def not_ready_answer(status, body):
    """True for ONOS's answers that mean "not ready yet" rather than "refused"."""
    return status in NOT_READY_STATUS or "not found" in str(body) and status >= 500


def rest_codecs(onos):
    """ONOS's REST encodes its objects: GET /onos/v1/devices needs the CodecService."""
    status, body = onos.rest("GET", "/onos/v1/devices")
    return None if status == 200 else "ONOS's REST codecs (GET /onos/v1/devices: %s %s)" % (status, str(body)[:200])


def apps_active(names):
    def probe(onos):
        missing = sorted(set(names) - onos.active_apps())
        return "apps ACTIVE in ONOS's REST: %s are not" % missing if missing else None
    return probe


def boot_features_failure(onos):
    """Why Karaf could not install its boot features (the exception's first line, without the list of the
    repositories it tried), or None."""
    m = KARAF_BOOT_FAILED.search(onos.karaf_log.read_text(errors="replace")) if onos.karaf_log.exists() else None
    return m.group(1).split(": [", 1)[0].strip() if m else None


def components(onos):
    """{component name: state} of Karaf's scr:list."""
    return {name: state.strip() for name, state in SCR_ENTRY.findall(onos.cli("scr:list | grep ."))}


def components_active(names):
    def probe(onos):
        states = components(onos)
        bad = {n: states.get(n, "absent") for n in names if states.get(n) != "ACTIVE"}
        return "components ACTIVE in scr:list: %s" % bad if bad else None
    return probe


def bundles_settled(onos):
    bad = onos.unsettled_bundles()
    return "bundles settled in bundle:list: %s" % bad if bad else None


def bundles_active(names):
    """Karaf lists every bundle named Active (ONOS's REST says an app is ACTIVE whatever Karaf did with it)."""
    def probe(onos):
        states = onos.bundles()
        bad = {n: states.get(n, "not installed") for n in names if states.get(n) != "Active"}
        return "bundles Active in Karaf's bundle:list: %s" % bad if bad else None
    return probe


def hupf_running(onos):
    """hupf's own account (hupf:status): its bundles Active, its components satisfied, else what keeps them."""
    try:
        out = onos.cli("hupf:status")
    except Exception as e:  # onos_runtime.OnosError: the shell's exit status
        if "Command not found" not in str(e):
            raise
        return "hupf:status answers (Karaf has no hupf commands: hupf's app bundle is not Active)"
    if out.startswith("hupf: running"):
        return None
    return "hupf running (hupf:status):\n" + out.strip()


def pipeline_pushed(device):
    """The device available in ONOS and its pipeline pushed (hupf's view of ONOS's pipeconf watchdog)."""
    def probe(onos):
        status, dev = onos.rest("GET", "/onos/v1/devices/%s" % device)
        if status != 200:
            return "device %s known to ONOS (GET /onos/v1/devices/%s: %s %s)" % (device, device, status,
                                                                                 str(dev)[:200])
        if not dev.get("available"):
            return "device %s available in ONOS (driver %s)" % (device, dev.get("driver"))
        status, body = onos.rest("GET", "/onos/hupf/devices")
        mine = [d for d in body.get("devices", [])] if status == 200 else []
        d = next((d for d in mine if d["id"] == device), None)
        if d is None or not d["pipelinePushed"]:
            return "pipeline pushed to %s (GET /onos/hupf/devices: %s %s)" % (device, status, d or str(body)[:200])
        return None
    return probe


def hupf_took_backend(onos):
    status, body = onos.rest("GET", "/onos/hupf/offload")
    return None if status == 200 else "hupf took the backend over (GET /onos/hupf/offload: %s %s)" % (
        status, str(body)[:200])

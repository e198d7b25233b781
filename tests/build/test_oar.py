"""The .oar is what an operator installs into ONOS 2.7: check that it is a working install."""
import re
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

import osgi

ROOT = Path(__file__).resolve().parents[2]
JAVA_11_MAJOR = 55


def _project_version():
    pom = (ROOT / "pom.xml").read_text()
    # the first <version> is the ONOS parent's; the project's own follows its artifactId
    return re.search(r"<artifactId>hupf-parent</artifactId>\s*<version>([^<]+)</version>", pom).group(1)


@pytest.fixture(scope="module")
def oar():
    version = _project_version()
    path = ROOT / "app" / "target" / f"hupf-app-{version}.oar"
    if not path.exists():
        subprocess.run(["mvn", "-B", "-q", "package", "-DskipTests"], cwd=ROOT, check=True)
    with zipfile.ZipFile(path) as z:
        yield z, version


# In dependency order: the pipeconf, the API (services, session model), the host-neutral core, the app (the
# ONOS adapter).
BUNDLES = ["hupf-pipeconf", "hupf-api", "hupf-core", "hupf-app"]


def _jar(z, name, version):
    return f"m2/org/hupf/{name}/{version}/{name}-{version}.jar"


def test_oar_carries_app_xml_features_and_the_four_bundles(oar):
    z, v = oar
    names = set(z.namelist())
    assert "app.xml" in names
    assert f"m2/org/hupf/hupf-app/{v}/hupf-app-{v}-features.xml" in names
    for bundle in BUNDLES:
        assert _jar(z, bundle, v) in names
    assert not [n for n in names if "hupf-standalone" in n], "the standalone host is not ONOS-facing"


def test_app_xml_names_the_app_and_lists_the_bundles_in_dependency_order(oar):
    z, v = oar
    app = ET.fromstring(z.read("app.xml"))
    assert app.get("name") == "org.hupf.app"
    assert app.get("version") == v
    assert "org.onosproject.drivers.p4runtime" in app.get("apps").split(",")
    artifacts = [a.text for a in app.findall("artifact")]
    assert artifacts == [f"mvn:org.hupf/{b}/{v}" for b in BUNDLES]


def test_features_start_the_bundles_in_dependency_order(oar):
    z, v = oar
    ns = {"k": "http://karaf.apache.org/xmlns/features/v1.2.0"}
    feats = ET.fromstring(z.read(f"m2/org/hupf/hupf-app/{v}/hupf-app-{v}-features.xml"))
    bundles = {b.text: int(b.get("start-level")) for b in feats.findall("k:feature/k:bundle", ns)}
    levels = [bundles[f"mvn:org.hupf/{b}/{v}"] for b in BUNDLES]
    assert levels == sorted(set(levels))


@pytest.mark.parametrize("bundle", BUNDLES)
def test_bundles_are_osgi_bundles_for_java_11(oar, bundle, tmp_path):
    z, v = oar
    jar_path = tmp_path / f"{bundle}.jar"
    jar_path.write_bytes(z.read(_jar(z, bundle, v)))
    with zipfile.ZipFile(jar_path) as jar:
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
        assert f"Bundle-SymbolicName: org.hupf.{bundle}" in manifest
        classes = [n for n in jar.namelist() if n.endswith(".class")]
        assert classes, f"{bundle} has no classes"
        for c in classes:
            header = jar.read(c)[:8]
            major = int.from_bytes(header[6:8], "big")
            assert major == JAVA_11_MAJOR, f"{c} compiled for class version {major}"


def _manifest(z, bundle, version):
    import io
    with zipfile.ZipFile(io.BytesIO(z.read(_jar(z, bundle, version)))) as jar:
        return osgi.manifest_headers(jar.read("META-INF/MANIFEST.MF").decode())


@pytest.mark.parametrize("bundle", BUNDLES)
def test_bundles_import_no_java_packages(oar, bundle):
    """ONOS 2.7's Karaf refuses a bundle that imports java.* (its REST still says ACTIVE)."""
    z, v = oar
    imports = [name for name, _ in osgi.parse_packages(_manifest(z, bundle, v).get("Import-Package"))]
    assert imports, f"{bundle} imports nothing: manifest not parsed"
    assert sorted(p for p in imports if p.startswith("java.")) == []


@pytest.mark.parametrize("bundle", BUNDLES)
def test_bundle_imports_are_exported_by_onos_2_7(oar, bundle, onos_exports):
    """Every mandatory import is exported, at a version in range, by the ONOS runtime or the bundles
    the .oar itself carries."""
    z, v = oar
    exports = {p: list(vs) for p, vs in onos_exports.items()}
    for other in BUNDLES:
        for name, attrs in osgi.parse_packages(_manifest(z, other, v).get("Export-Package")):
            exports.setdefault(name, []).append(osgi.version(attrs.get("version", "0")))
    unresolved = []
    for name, attrs in osgi.parse_packages(_manifest(z, bundle, v).get("Import-Package")):
        if attrs.get("resolution") == "optional":
            continue
        if not any(osgi.in_range(have, attrs.get("version")) for have in exports.get(name, [])):
            unresolved.append(f"{name} {attrs.get('version', '')} (runtime has "
                              f"{sorted(exports.get(name, [])) or 'none'})")
    assert unresolved == []


# What each bundle may show other bundles (docs/ARCHITECTURE.md, "Modules"): the pipeconf its
# constants, entity API, packet-in parsing and the gNB program's typed entries, the API module everything, core
# what the app uses, the app nothing.
EXPORTS = {
    "hupf-pipeconf": ["org.hupf.pipeconf", "org.hupf.pipeconf.api", "org.hupf.pipeconf.dataplane",
                      "org.hupf.pipeconf.gnb", "org.hupf.pipeconf.packet"],
    "hupf-api": ["org.hupf.api", "org.hupf.api.session"],
    "hupf-core": ["org.hupf.core.config", "org.hupf.core.device", "org.hupf.core.impl", "org.hupf.core.live",
                  "org.hupf.core.offload", "org.hupf.core.pfcp", "org.hupf.core.rest", "org.hupf.core.rps",
                  "org.hupf.core.session", "org.hupf.core.site", "org.hupf.core.store", "org.hupf.core.translation"],
    "hupf-app": [],
}


@pytest.mark.parametrize("bundle", BUNDLES)
def test_bundles_export_only_their_api(oar, bundle):
    z, v = oar
    exported = sorted(name for name, _ in osgi.parse_packages(_manifest(z, bundle, v).get("Export-Package")))
    assert exported == EXPORTS[bundle]


@pytest.mark.parametrize("bundle", BUNDLES)
def test_bundles_import_no_standalone_world(oar, bundle):
    """The standalone host's P4Runtime client (grpc, protobuf, p4.v1) and HTTP server stay out of ONOS."""
    z, v = oar
    imports = [name for name, _ in osgi.parse_packages(_manifest(z, bundle, v).get("Import-Package"))]
    forbidden = ("p4.", "io.grpc", "com.google.protobuf", "com.sun.net.httpserver", "org.hupf.standalone")
    assert [p for p in imports if p.startswith(forbidden)] == []


@pytest.fixture(scope="module")
def onos_exports():
    home = osgi.onos_home()
    if home is None:
        pytest.skip(f"ONOS 2.7 runtime not found (ONOS_HOME or {osgi.DEFAULT_ONOS_HOME}; "
                    "../shared/onos/ builds one): imports not checked against its exports")
    return osgi.runtime_exports(home)

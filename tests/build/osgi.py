"""OSGi manifest headers (Import-Package, Export-Package) and version ranges, enough to check that a
bundle's imports are exported by an ONOS 2.7 runtime (its Karaf system repository and framework)."""
import re
import zipfile
from pathlib import Path

# The ONOS 2.7 runtime assembled by ../shared/onos/ (the directory holding apache-karaf-4.2.9).
from onos_runtime import DEFAULT_ONOS_HOME, KARAF, onos_home  # noqa: F401  (tests/lib)


def manifest_headers(text):
    """Main-section headers of a MANIFEST.MF, continuation lines joined."""
    text = re.sub(r"\r?\n ", "", text)
    headers = {}
    for line in text.splitlines():
        if not line.strip():
            break
        name, _, value = line.partition(":")
        headers[name.strip()] = value.strip()
    return headers


def split_clauses(value):
    """Splits on commas outside quotes: 'a;version="[1,2)",b' -> ['a;version="[1,2)"', 'b']."""
    clauses, cur, quoted = [], "", False
    for ch in value:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted:
            clauses.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        clauses.append(cur.strip())
    return clauses


def parse_packages(value):
    """[(package, {attribute or directive: value})] of an Import-/Export-Package header (a bundle
    may export one package at several versions, as pax-logging does org.slf4j)."""
    packages = []
    for clause in split_clauses(value or ""):
        parts = [p.strip() for p in re.split(r';(?=(?:[^"]*"[^"]*")*[^"]*$)', clause)]
        names = [p for p in parts if "=" not in p]
        attrs = {}
        for p in parts:
            if "=" in p:
                k, _, v = p.partition("=")
                attrs[k.strip().rstrip(":")] = v.strip().strip('"')
        packages += [(n, attrs) for n in names]
    return packages


def version(text):
    nums = [int(x) for x in re.findall(r"\d+", text or "0")[:3]]
    return tuple(nums + [0] * (3 - len(nums)))


def in_range(have, wanted):
    """OSGi version range check: '[1.2,2)', '(1,2]', or a bare minimum '1.2'."""
    if not wanted:
        return True
    m = re.fullmatch(r"\s*([\[(])\s*([^,]*)\s*,\s*([^\])]*)\s*([\])])\s*", wanted)
    if not m:
        return have >= version(wanted)
    lo, hi = version(m.group(2)), version(m.group(3))
    low_ok = have >= lo if m.group(1) == "[" else have > lo
    high_ok = have <= hi if m.group(4) == "]" else have < hi
    return low_ok and high_ok


def framework_exports(karaf_dir):
    """Packages the Karaf framework itself exports on Java 11 (config.properties + jre.properties)."""
    exported = {}
    for props in ("config.properties", "jre.properties"):
        text = (Path(karaf_dir) / "etc" / props).read_text()
        text = re.sub(r"\\\n", "", text)
        for line in text.splitlines():
            if line.startswith(("org.osgi.framework.system.packages", "jre-9")):
                value = line.split("=", 1)[1]
                for name, attrs in parse_packages(re.sub(r"\$\{[^}]*\}", "", value)):
                    exported.setdefault(name, []).append(version(attrs.get("version", "0")))
    return exported


def runtime_exports(home):
    """{package: [versions]} exported by every bundle in the runtime's Karaf system repository."""
    karaf = Path(home) / KARAF
    exported = framework_exports(karaf)
    for jar in (karaf / "system").rglob("*.jar"):
        try:
            with zipfile.ZipFile(jar) as z:
                mf = z.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
        except (KeyError, zipfile.BadZipFile):
            continue
        for name, attrs in parse_packages(manifest_headers(mf).get("Export-Package")):
            exported.setdefault(name, []).append(version(attrs.get("version", "0")))
    return exported

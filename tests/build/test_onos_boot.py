"""A runtime whose Karaf cannot install its boot features (an artifact missing from its system/ repository, no
Maven repository reachable) never starts ONOS: the boot says so at once, naming the artifact, instead of waiting
out its timeout and reporting Karaf as still deploying features."""
from types import SimpleNamespace

import pytest

import onos_ready
import onos_runtime

# What Karaf 4.2.9 logged on a runtime staged without pax-web's jetty configuration (7 Dec 2026).
BOOT_FAILED_LOG = (
    "2026-12-07T20:42:59,800 | INFO  | features-3-thread-1 | FeaturesServiceImpl              | 11 - "
    "org.apache.karaf.features.core - 4.2.9 | Changes to perform:\n"
    "2026-12-07T20:43:01,264 | ERROR | activator-1-thread-2 | BootFeaturesInstaller            | 11 - "
    "org.apache.karaf.features.core - 4.2.9 | Error installing boot features\n"
    "java.io.IOException: Error resolving artifact org.ops4j.pax.web:pax-web-features:xml:jettyconfig:7.2.16: "
    "[Could not find artifact org.ops4j.pax.web:pax-web-features:xml:jettyconfig:7.2.16 in system.repository "
    "(file:/x/apache-karaf-4.2.9/system/), Could not transfer artifact ... from/to central]\n"
    "\tat org.ops4j.pax.url.mvn.internal.AetherBasedResolver.configureIOException(AetherBasedResolver.java:803)\n")
ARTIFACT_ERROR = ("java.io.IOException: Error resolving artifact "
                  "org.ops4j.pax.web:pax-web-features:xml:jettyconfig:7.2.16")


def karaf_log(tmp_path, text):
    log = tmp_path / "karaf.log"
    log.write_text(text)
    return SimpleNamespace(karaf_log=log)


def test_the_failure_is_read_from_karafs_log_without_the_repositories_tried(tmp_path):
    assert onos_ready.boot_features_failure(karaf_log(tmp_path, BOOT_FAILED_LOG)) == ARTIFACT_ERROR


def test_a_deployment_under_way_is_no_failure(tmp_path):
    under_way = BOOT_FAILED_LOG.split("\n")[0] + "\n"
    assert onos_ready.boot_features_failure(karaf_log(tmp_path, under_way)) is None
    assert onos_ready.boot_features_failure(SimpleNamespace(karaf_log=tmp_path / "none.log")) is None


def test_onos_start_stops_waiting_once_karaf_gave_up(tmp_path, monkeypatch):
    """A stand-in runtime whose start script logs Karaf's failure and then stays up, as Karaf does."""
    home = tmp_path / "runtime"
    (home / onos_runtime.KARAF / "system").mkdir(parents=True)
    (home / "bin").mkdir()
    (home / "failed-karaf.log").write_text(BOOT_FAILED_LOG)
    log_dir = "%s/data/log" % onos_runtime.KARAF
    (home / "bin" / "onos-service").write_text(
        "mkdir -p %s && cp failed-karaf.log %s/karaf.log && exec sleep 600\n" % (log_dir, log_dir))
    monkeypatch.setenv("ONOS_HOME", str(home))
    monkeypatch.setattr(onos_runtime, "port_free", lambda port: True)
    onos = onos_runtime.Onos(tmp_path / "work")
    try:
        with pytest.raises(onos_runtime.BootFailed) as failed:
            onos.start(120)
    finally:
        onos.stop()
    assert ARTIFACT_ERROR in str(failed.value) and "could not install its boot features" in str(failed.value)

# hupf front door. `make help` lists the targets.
SHELL := /bin/bash
PY    := .venv/bin/python
MVN   := mvn -B -q
SUITE := tools/run_suite.sh
# P4C / BMV2 reach sub-makes and test suites only when set: an empty exported P4C would override
# p4src/Makefile's default (p4c-bm2-ss on PATH).
ifneq ($(P4C),)
export P4C
endif
ifneq ($(BMV2),)
export BMV2
endif

.PHONY: help setup build oar p4 backend host-classpath test test-java test-build test-p4 test-backend test-gnb \
        test-pfcp test-identification test-rps test-integration test-onos test-fabric test-recovery test-t4p4s lab-t4p4s bench bench-cp bench-onos bench-poll bench-rps train lab clean onos-install netcfg

help:
	@echo "make setup             install Debian packages, the Python venv, Go and Maven dependencies"
	@echo "make lab               set up, build and run the hybrid UPF lab demo (hupf's main job)"
	@echo "make lab-t4p4s         the lab with one hupf-backend and one T4P4S backend (root, HUPF_T4P4S; LAB_ARGS; docs/BACKENDS.md)"
	@echo "make test              run every test suite and print a summary per suite"
	@echo "make test-java|test-build|test-p4|test-backend|test-gnb|test-pfcp|test-identification|test-rps|test-integration|test-onos|test-recovery"
	@echo "                       one suite"
	@echo "make test-t4p4s        hupf's sw profile compiled by T4P4S, programmed through hupf-t4p4s, frames on DPDK ports (root, HUPF_T4P4S, docs/BACKENDS.md)"
	@echo "make test-fabric       hupf through ONOS in a Mininet fabric of bmv2 switches (root, ONOS runtime, bmv2)"
	@echo "make train             train the MATADOR classifier on a generated dataset (reports/classifier/)"
	@echo "make oar               build the ONOS .oar (pipeconf, api, core and app bundles)"
	@echo "make p4                compile the P4 profiles with p4c and regenerate the constants"
	@echo "make bench             run the benchmarks and write their reports"
	@echo "make bench-cp          hupf's control plane against eUPF (HUPF_EUPF=<eupf binary>), alternating rounds at"
	@echo "                       10k/100k sessions; needs root (eUPF's network namespaces); 1M on hupf alone:"
	@echo "                       BENCH_CP_ARGS='--sessions 10000 100000 --rounds 2 --hupf-only-sessions 1000000'"
	@echo "make bench-onos        the control-plane benchmark through ONOS beside the standalone chain (10k, 100k)"
	@echo "make bench-poll        time one offload counter poll at 10k/100k/1M sessions (in-memory backend)"
	@echo "make bench-rps         RPS's trade-off: samples vs buffer vs controller bandwidth (reports/rps-tradeoff.md)"

setup:
	@tools/setup.sh

oar: setup
	$(MVN) package -DskipTests
	@ls app/target/*.oar

p4: setup
	$(MAKE) -C p4src

backend: setup
	$(MAKE) -C backend

build: oar backend

# Every suite runs even when an earlier one failed; the exit status says whether all passed. The fabric's
# ONOS and bmv2 parts run where both are found, else its suite prints one SKIPPED line naming what is missing.
test: setup
	@rm -f reports/summary.txt; rc=0; \
	for s in java build p4 backend gnb pfcp identification rps integration onos fabric recovery; do \
	  $(MAKE) --no-print-directory test-$$s || rc=1; done; \
	echo "== hupf test summary =="; cat reports/summary.txt; exit $$rc

test-java: setup
	@$(SUITE) java mvn -B package

test-build: setup
	@$(SUITE) build $(PY) -m pytest tests/build

# The PTF suite runs against every target it finds: bmv2 (hw, sw) where installed, and always the backend.
test-p4: setup backend
	@HUPF_BACKEND=$(CURDIR)/backend/build/hupf-backend $(SUITE) p4 $(PY) -m pytest tests/model tests/ptf

test-backend: setup
	@$(SUITE) backend $(MAKE) -C backend test

# hupf's sw profile on T4P4S (issue #36, docs/BACKENDS.md "T4P4S"), built outside the repository and found through
# HUPF_T4P4S (default /opt/t4p4s), else one SKIPPED line; not in `make test`: compiling the program takes minutes.
# tests/pfcp last: its test modules import helpers from "conftest", which is the conftest pytest loaded last.
# The lab with a T4P4S backend (tests/t4p4s/test_t4p4s_lab.py) runs on the backend and runner built here.
test-t4p4s: setup backend host-classpath
	@HUPF_LAB_PREBUILT=1 HUPF_PTF_TARGETS=t4p4s $(SUITE) t4p4s $(PY) -m pytest tests/t4p4s tests/ptf/test_upf.py tests/pfcp/test_t4p4s_chain.py

# The Hybrid-gNodeB's x86 services (gnb/: ciphering and integrity, PDCP, BaaS; docs/GNB.md).
test-gnb: setup
	@$(SUITE) gnb $(MAKE) -C gnb test

test-pfcp: setup host-classpath
	@$(SUITE) pfcp $(PY) -m pytest tests/pfcp

test-identification: setup
	@$(SUITE) identification $(MAKE) -s -C tools/hupf_tools test

# The RPS monitor and verifier (tools/hupf_tools/rps) on model-generated record streams and loopback UDP.
test-rps: setup
	@$(SUITE) rps $(PY) -m pytest tests/rps

# The lab runs use this tree's backend and standalone host, built once here (HUPF_LAB_PREBUILT: tools/lab.sh
# builds nothing), not once per lab run: on a busy machine a build takes minutes.
test-integration: setup backend host-classpath
	@HUPF_LAB_PREBUILT=1 $(SUITE) integration $(PY) -m pytest tests/integration

# hupf in a running ONOS 2.7, where a runtime is found (ONOS_HOME or /opt/hupf-onos/onos; never built here).
test-onos: setup backend
	@$(SUITE) onos $(PY) -m pytest tests/onos

# hupf through ONOS in a Mininet fabric of P4 switches (docs/FABRIC.md): root, the ONOS runtime and bmv2, else one
# SKIPPED line (the topology and netcfg tests still run). HUPF_FABRIC_SWITCH=backend: hupf-backend's hw profile
# stands in for bmv2.
test-fabric: setup backend
	@HUPF_BACKEND=$(CURDIR)/backend/build/hupf-backend $(SUITE) fabric $(PY) -m pytest tests/fabric

# kill -9 of the backend and of the core with 10,000 sessions on the lab's topology (root: namespaces, veth,
# af_packet); the standalone host is built first so that the suite runs this tree's classes.
test-recovery: setup backend host-classpath
	@$(SUITE) recovery $(PY) -m pytest tests/recovery

# The standalone host and its runtime classpath (standalone/target/host-classpath.txt), as the lab runner runs;
# built again only when a file of the modules it is built from changed since, so that the pfcp, integration and
# recovery suites share one Maven run.
HOST_INPUTS := $(shell find pom.xml api core pipeconf standalone -path '*/target' -prune -o -type f -print 2>/dev/null)
host-classpath: setup standalone/target/host-classpath.txt

standalone/target/host-classpath.txt: $(HOST_INPUTS)
	@$(MVN) -pl standalone -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=runtime \
	  '-Dmdep.outputFile=$${project.build.directory}/deps-classpath.txt' \
	  && echo "$(CURDIR)/standalone/target/classes:$$(cat standalone/target/deps-classpath.txt)" \
	  > standalone/target/host-classpath.txt

# Trains the MATADOR classifier on a generated dataset: model, report and plot in reports/classifier/.
train: setup
	$(MAKE) -C tools/hupf_tools train

# T4P4S beside hupf-backend at 1k/100k/1M sessions: T4P4S's build with exact tables of 2 M entries (its
# HASH_ENTRIES, set at its compile; docs/BACKENDS.md), 2.2 GB resident at 1M sessions (given 6 GB of DPDK memory).
T4P4S_BENCH_ARGS ?= --sessions 1000 100000 1000000 --hash-entries 2097152 --t4p4s-memory-mb 6144
bench: setup backend
	$(MAKE) -C backend bench
	$(MAKE) -C gnb bench
	$(MAKE) -C tools/hupf_tools bench
	tools/lab.sh bench --markdown reports/hybrid-scalability.md
	tools/lab.sh hhpackets --markdown reports/hh-packets.md
	PYTHONPATH=tests/lib:tools $(PY) tests/pfcp/bench_pfcp.py --sessions 5000
	PYTHONPATH=tests/lib:tools $(PY) tests/pfcp/bench_control_plane.py --sessions 10000 100000 --window 32 128
	$(MAKE) bench-poll
	$(MAKE) bench-rps
	@mkdir -p reports
	$(MAKE) -C backend build/bench build/hupf-p4rt-bench
	PYTHONPATH=tests/lib:tools $(PY) tests/t4p4s/bench_t4p4s.py $(T4P4S_BENCH_ARGS) | tee reports/t4p4s-vs-backend.md

# hupf's control plane side by side with eUPF (issue #32, tests/pfcp/bench_control_plane.py --peer eupf): rounds
# alternating the two, ratios within each round; eUPF found through HUPF_EUPF (../shared/eupf/README.md), its rows
# SKIPPED without one. Root: eUPF runs in network namespaces of its own. The scripts import the suites' helpers
# (tests/lib, tools), which pytest puts on the path for the suites (pytest.ini) and these lines for themselves.
HUPF_EUPF ?= $(wildcard /opt/eupf/eupf/bin/eupf)
BENCH_CP_ARGS ?= --sessions 10000 100000 --rounds 2
bench-cp: setup backend
	@mkdir -p reports
	HUPF_EUPF=$(HUPF_EUPF) PYTHONPATH=tests/lib:tools $(PY) tests/pfcp/bench_control_plane.py --peer eupf $(BENCH_CP_ARGS) \
	  --markdown reports/control-plane-vs-eupf.md --out reports/control_plane_vs_eupf.json
# The control-plane benchmark through ONOS (its N4 agent; the backend programmed through ONOS's P4Runtime
# client) beside the standalone chain, same client and messages (issue 32); SKIPPED without an ONOS runtime.
bench-onos: setup backend
	@mkdir -p reports
	PYTHONPATH=tests/lib:tools $(PY) tests/onos/bench_onos_cp.py --sessions 10000 100000 --window 32 --warmup-rounds 1 --markdown reports/onos-control-plane.md

# One offload counter poll over 10k, 100k and 1M sessions on the in-memory backend (docs/PERFORMANCE.md).
bench-poll:
	nice mvn -B -q -Dstyle.color=never -pl standalone -am package -DskipTests dependency:build-classpath \
	  -Dmdep.includeScope=runtime '-Dmdep.outputFile=$${project.build.directory}/deps-classpath.txt'
	nice java -Xmx8g -cp "standalone/target/classes:$$(cat standalone/target/deps-classpath.txt)" \
	  org.hupf.standalone.lab.PollBench 10000 100000 1000000

# RPS's trade-off (docs/RPS.md): FIFO RPS over generated traces (the reference model, the data plane's decisions;
# the backend's C function on one trace per buffer must agree), then the mode-2 controller's receipts/s
# (ReferenceRps and the exporter; a main in core's test classes).
bench-rps: setup
	@mkdir -p reports
	$(MAKE) -C backend build/rpsreplay
	PYTHONPATH=tools nice $(PY) -m hupf_tools.rps.bench --markdown reports/rps-tradeoff.md --replay backend/build/rpsreplay
	nice mvn -B -q -Dstyle.color=never -pl core -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
	  '-Dmdep.outputFile=$${project.build.directory}/test-classpath.txt'
	nice java -Xmx2g -cp "core/target/test-classes:core/target/classes:$$(cat core/target/test-classpath.txt)" \
	  org.hupf.core.rps.RpsControllerBench | tee -a reports/rps-tradeoff.md

lab: setup
	@tools/lab.sh

# The lab with one backend of each kind: backend 2 is hupf's sw profile on T4P4S (HUPF_T4P4S; docs/BACKENDS.md).
lab-t4p4s: setup
	@tools/lab.sh --backends 2 --t4p4s-backend 2 $(LAB_ARGS)

clean:
	$(MVN) clean
	rm -rf reports
	-$(MAKE) -C backend clean
	-$(MAKE) -C gnb clean

# A running ONOS (e.g. from docker-compose.yml): install the .oar, push the network config.
ONOS      ?= localhost:8181
ONOS_AUTH ?= onos:rocks
NETCFG    ?= netcfg/deployment.json

onos-install: oar
	curl -sSf -u $(ONOS_AUTH) -X POST -H 'Content-Type: application/octet-stream' \
	  'http://$(ONOS)/onos/v1/applications?activate=true' --data-binary @$(firstword $(wildcard app/target/*.oar))

netcfg:
	curl -sSf -u $(ONOS_AUTH) -X POST -H 'Content-Type: application/json' \
	  http://$(ONOS)/onos/v1/network/configuration --data-binary @$(NETCFG)

// hupf-backend: the x86 software UPF. A DPDK data plane implementing the hupf sw
// profile, managed over P4Runtime like any P4Runtime device.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"

	"hupf/backend/agent/internal/dp"
	"hupf/backend/agent/internal/p4rt"
)

// dataplaneHash identifies the linked data plane (set by the Makefile at link time).
var dataplaneHash = "unknown"

// config is the file format of --config (JSON); flags override it.
type config struct {
	GRPCAddr       string            `json:"grpc_addr"`
	DeviceID       uint64            `json:"device_id"`
	Ports          map[string]string `json:"ports"`      // P4 port number -> device spec
	PortRates      map[string]string `json:"port_rates"` // P4 port number -> Mbit/s of its egress scheduler
	CPUPort        int               `json:"cpu_port"`
	Lcores         int               `json:"lcores"`
	IdleSleepUS    int               `json:"idle_sleep_us"`
	IdleSleepMaxUS int               `json:"idle_sleep_max_us"`
	Sessions       uint32            `json:"sessions"`
	MeterStates    uint32            `json:"meter_states"`
	Mbufs          int               `json:"mbufs"`
	MemMB          int               `json:"mem_mb"`
	EAL            string            `json:"eal"`
	LogLevel       string            `json:"log_level"`
	CPUProfile     string            `json:"cpu_profile"`
	TestClock      bool              `json:"test_clock"`
	Profile        string            `json:"profile"`
	LocalWrites    string            `json:"local_writes"`
}

type portFlag map[string]string

func (p portFlag) String() string { return fmt.Sprint(map[string]string(p)) }
func (p portFlag) Set(v string) error {
	n, dev, ok := strings.Cut(v, "=")
	if !ok || n == "" || dev == "" {
		return fmt.Errorf("want N=DEVICE, got %q", v)
	}
	p[n] = dev
	return nil
}

const usage = `hupf-backend: DPDK software UPF (hupf sw profile, or with --profile hw the switch's hw pipeline) with a P4Runtime server.

Usage: hupf-backend --grpc-addr HOST:PORT --device-id ID --port N=DEV [--port N=DEV ...] [options]

A port DEV is a Linux interface name (af_packet vdev), af_packet:IFACE, af_xdp:IFACE (needs
--mbufs 16384 or more), pcap:<pcap vdev args>, null (a sink, never polled), or pci:<PCI address>. Send SIGUSR1
for a stats line in the log.

Options:
`

func main() {
	c := config{GRPCAddr: "127.0.0.1:9559", DeviceID: 1, Ports: map[string]string{}, PortRates: map[string]string{}, CPUPort: 255, Lcores: 1, IdleSleepUS: 50,
		IdleSleepMaxUS: 1000,
		Mbufs:          16384, MemMB: 4096, LogLevel: "info", Profile: "sw"}
	fs := flag.NewFlagSet("hupf-backend", flag.ExitOnError)
	fs.Usage = func() { fmt.Fprint(os.Stderr, usage); fs.PrintDefaults() }
	cfgPath := fs.String("config", "", "JSON config file (keys as the long flags, ports as {\"1\": \"veth0\"}); flags override it")
	if err := loadConfigArg(os.Args[1:], &c); err != nil {
		fmt.Fprintln(os.Stderr, "hupf-backend:", err)
		os.Exit(2)
	}
	fs.StringVar(&c.GRPCAddr, "grpc-addr", c.GRPCAddr, "P4Runtime listen address")
	fs.Uint64Var(&c.DeviceID, "device-id", c.DeviceID, "P4Runtime device id")
	fs.Var(portFlag(c.Ports), "port", "N=DEV: P4 port number N on device DEV (repeatable)")
	fs.Var(portFlag(c.PortRates), "port-rate", "N=MBIT: port N sends at most MBIT Mbit/s (framing included), its packets queued by "+
		"v1model priority (qos.queues of their class) and served highest first; a full queue drops (stats: queue_dropped). "+
		"With --lcores N > 1 one lcore runs the port's scheduler and the others hand it their packets over a ring "+
		"(repeatable; default: no scheduler)")
	fs.IntVar(&c.CPUPort, "cpu-port", c.CPUPort, "the CPU port is the P4Runtime stream; this number is the ingress_port of hw state-read packet-ins, as on bmv2")
	fs.IntVar(&c.Lcores, "lcores", c.Lcores, "forwarding lcores")
	fs.IntVar(&c.IdleSleepUS, "idle-sleep-us", c.IdleSleepUS,
		"an idle forwarding lcore sleeps this many microseconds between polls, so that it is not starved on shared CPUs (0: busy-poll, for dedicated cores)")
	fs.IntVar(&c.IdleSleepMaxUS, "idle-sleep-max-us", c.IdleSleepMaxUS,
		"each further empty poll doubles an idle lcore's sleep up to this many microseconds, reset by the first packet: the most a packet after a quiet spell waits (at most idle-sleep-us: no growth)")
	fs.StringVar(&c.Profile, "profile", c.Profile, "P4 profile: sw (the backend as a software UPF) or hw (the switch's hw pipeline: steering to backends; the switch's stand-in)")
	var sessions, meterStates uint
	fs.UintVar(&sessions, "sessions", uint(c.Sessions), "session/termination capacity (0: P4Info table sizes)")
	fs.UintVar(&meterStates, "meter-states", uint(c.MeterStates), "meters configurable at once (0: both meter sizes)")
	fs.IntVar(&c.Mbufs, "mbufs", c.Mbufs, "mbufs in the packet pool")
	fs.IntVar(&c.MemMB, "mem", c.MemMB, "EAL memory in MiB (no hugepages)")
	fs.StringVar(&c.EAL, "eal", c.EAL, "extra EAL arguments, space separated; one that places the lcores (--lcores=0@0,1@1, -l, -c) "+
		"replaces hupf-backend's own placement (lcore i on CPU i when there are more CPUs than lcores, else all floating)")
	fs.StringVar(&c.LocalWrites, "local-writes", c.LocalWrites,
		"also take the primary's Writes on this Unix socket (mode 0600) in hupf's local frames, without gRPC "+
			"(docs/PIPELINE_CONTRACT.md, \"Local writes\"); reads, arbitration and the rest stay on gRPC")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error")
	fs.StringVar(&c.CPUProfile, "cpuprofile", c.CPUProfile, "write a Go CPU profile of the agent to this file until exit")
	fs.BoolVar(&c.TestClock, "test-clock", c.TestClock,
		"tests only: the data plane's time (meters) starts at 0 and is set by lines on stdin, each a time in nanoseconds (acknowledged on stdout)")
	_ = fs.Parse(os.Args[1:])
	_ = cfgPath
	c.Sessions, c.MeterStates = uint32(sessions), uint32(meterStates)

	if p4rt.Profiles[c.Profile] == nil {
		fmt.Fprintf(os.Stderr, "hupf-backend: --profile %q: want sw or hw\n", c.Profile)
		os.Exit(2)
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.LogLevel)); err != nil {
		fmt.Fprintln(os.Stderr, "hupf-backend: --log-level:", err)
		os.Exit(2)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))
	if err := run(c, log); err != nil {
		log.Error("fatal", "err", err)
		os.Exit(1)
	}
}

// feedClock sets the test clock from lines of r, each a time in nanoseconds, until r
// ends (nil) or a line is not a number (its error). Each time set is acknowledged on
// ack as "clock NS", so that a test knows it is in force before it sends packets.
func feedClock(r io.Reader, ack io.Writer, set func(ns uint64)) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		ns, err := strconv.ParseUint(strings.TrimSpace(sc.Text()), 10, 64)
		if err != nil {
			return fmt.Errorf("test clock: %w", err)
		}
		set(ns)
		if _, err := fmt.Fprintf(ack, "clock %d\n", ns); err != nil {
			return err
		}
	}
	return sc.Err()
}

// loadConfigArg reads --config FILE (or --config=FILE) before the other flags so they override it.
func loadConfigArg(args []string, c *config) error {
	for i, a := range args {
		var path string
		switch {
		case (a == "--config" || a == "-config") && i+1 < len(args):
			path = args[i+1]
		case strings.HasPrefix(a, "--config="), strings.HasPrefix(a, "-config="):
			_, path, _ = strings.Cut(a, "=")
		default:
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, c); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func ports(m, rates map[string]string) ([]dp.Port, error) {
	var out []dp.Port
	for n := range rates {
		if _, ok := m[n]; !ok {
			return nil, fmt.Errorf("--port-rate %s: no such --port", n)
		}
	}
	for n, dev := range m {
		num, err := strconv.ParseUint(n, 10, 9)
		if err != nil || num >= 511 {
			return nil, fmt.Errorf("port number %q: want 0..510", n)
		}
		if !strings.Contains(dev, ":") && dev != "null" {
			dev = "af_packet:" + dev
		}
		p := dp.Port{P4Port: uint16(num), Dev: dev}
		if r, ok := rates[n]; ok {
			mbit, err := strconv.ParseFloat(r, 64)
			if err != nil || !(mbit > 0 && mbit <= 1e6) {
				return nil, fmt.Errorf("--port-rate %s=%s: want Mbit/s in (0, 1000000]", n, r)
			}
			p.RateBps = uint64(mbit * 1e6)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].P4Port < out[j].P4Port })
	return out, nil
}

func run(c config, log *slog.Logger) error {
	ps, err := ports(c.Ports, c.PortRates)
	if err != nil {
		return err
	}
	lis, err := net.Listen("tcp", c.GRPCAddr)
	if err != nil {
		return err
	}
	if err := dp.Boot(dp.BootConfig{Workers: c.Lcores, Ports: ps, Mbufs: c.Mbufs, MemMB: c.MemMB, ExtraEAL: c.EAL,
		IdleSleepUS: c.IdleSleepUS, IdleSleepMaxUS: c.IdleSleepMaxUS}); err != nil {
		return fmt.Errorf("data plane: %w", err)
	}
	defer dp.Shutdown()
	if c.CPUProfile != "" {
		f, err := os.Create(c.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if c.TestClock {
		dp.SetClock(0)
		go func() {
			err := feedClock(os.Stdin, os.Stdout, dp.SetClock)
			log.Warn("test clock: stdin ended", "err", err)
		}()
	}
	// The heap holds the small tables and each Write's garbage (the session tables are
	// read from the data plane): a smaller growth margin than Go's default (100 %) keeps
	// the peak of a large insert low. GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
	srv := p4rt.NewServer(p4rt.Config{DeviceID: c.DeviceID, Sessions: c.Sessions, MeterStates: c.MeterStates,
		Profile: c.Profile, CPUPort: uint32(c.CPUPort)},
		dp.DP{}, log)
	g := grpc.NewServer(append(p4rt.ServerOptions(), grpc.MaxRecvMsgSize(64<<20))...)
	p4v1.RegisterP4RuntimeServer(g, srv)
	stop := make(chan struct{})
	go srv.PumpPacketIns(stop)
	if c.LocalWrites != "" {
		local, err := p4rt.ListenLocalWrites(c.LocalWrites)
		if err != nil {
			return fmt.Errorf("--local-writes: %w", err)
		}
		defer os.Remove(c.LocalWrites)
		defer local.Close()
		go func() {
			if err := srv.ServeLocalWrites(local); err != nil {
				log.Error("local writes stopped", "err", err)
			}
		}()
	}

	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGUSR1, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		for s := range sig {
			if s == syscall.SIGUSR1 {
				st := dp.GetStats()
				log.Info("stats", "ports", st.Ports, "to_cpu", st.ToCPU, "to_cpu_dropped", st.ToCPUDropped,
					"packet_out", st.PktOut, "dropped_no_pipeline", st.NoPipeline,
					"ipv4_fragments_dropped", st.IPv4Fragments, "idle_naps", st.IdleNaps,
					"idle_naps_capped", st.IdleNapsCapped, "work_after_capped_nap", st.WorkAfterCapped)
				continue
			}
			log.Info("stopping", "signal", s.String())
			close(stop)
			g.Stop()
			return
		}
	}()
	log.Info("serving P4Runtime", "dataplane", dataplaneHash, "addr", c.GRPCAddr, "device_id", c.DeviceID, "ports", ps, "lcores", c.Lcores, "profile", c.Profile,
		"local_writes", c.LocalWrites)
	return g.Serve(lis)
}

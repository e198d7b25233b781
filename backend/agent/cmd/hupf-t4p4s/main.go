// hupf-t4p4s: the contract's P4Runtime server (the backend agent's) in front of a T4P4S switch running hupf's sw
// profile, which it programs over T4P4S's controller protocol (docs/BACKENDS.md, "T4P4S"). Start it before the
// switch: the switch connects to its controller port when it starts.
package main

import (
	"flag"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"

	"hupf/backend/agent/internal/p4rt"
	"hupf/backend/agent/internal/t4p4s"
)

func main() {
	grpcAddr := flag.String("grpc-addr", "127.0.0.1:9559", "P4Runtime address")
	ctlAddr := flag.String("controller-addr", "127.0.0.1:52761",
		"where the switch connects (T4P4S_CTL_PORT compiled into it)")
	deviceID := flag.Uint64("device-id", 1, "P4Runtime device id")
	hashEntries := flag.Uint("hash-entries", t4p4s.StockHashEntries,
		"keys each exact table of the switch holds (HASH_ENTRIES compiled into it): a write past it is refused")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*grpcAddr, *ctlAddr, *deviceID, uint32(*hashEntries), log); err != nil {
		log.Error("hupf-t4p4s", "err", err)
		os.Exit(1)
	}
}

func run(grpcAddr, ctlAddr string, deviceID uint64, hashEntries uint32, log *slog.Logger) error {
	sw, ctl, err := t4p4s.Listen(ctlAddr, hashEntries, log)
	if err != nil {
		return err
	}
	defer ctl.Close()
	lis, err := net.Listen("tcp", grpcAddr)
	if err != nil {
		return err
	}
	srv := p4rt.NewServer(p4rt.Config{DeviceID: deviceID}, sw, log)
	g := grpc.NewServer(p4rt.ServerOptions()...)
	p4v1.RegisterP4RuntimeServer(g, srv)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-sig
		log.Info("stopping", "signal", s.String())
		g.Stop()
	}()
	log.Info("serving P4Runtime", "addr", grpcAddr, "controller", ctlAddr, "device_id", deviceID,
		"hash_entries", hashEntries)
	return g.Serve(lis)
}

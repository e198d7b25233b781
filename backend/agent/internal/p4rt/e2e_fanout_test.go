package p4rt

// End-to-end test of an af_packet port whose fanout group id another device's group holds (the bed of
// e2e_test.go: root and build/hupf-backend, skipped without them).

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// squatEnv names the interface whose fanout group id the test binary, started as a squatter, takes before it
// becomes the backend (TestMain).
const squatEnv = "HUPF_E2E_FANOUT_SQUAT"

const packetFanout = 0x12 // PACKET_FANOUT, linux/if_packet.h (type PACKET_FANOUT_HASH is 0)

func TestMain(m *testing.M) {
	if target := os.Getenv(squatEnv); target != "" {
		squatAndExec(target, os.Args[1:])
	}
	os.Exit(m.Run())
}

// fanoutSquatter is the command that runs the backend as this process's pid once the squatter took its group.
func fanoutSquatter(target, bin string, args []string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{bin}, args...)...)
	cmd.Env = append(os.Environ(), squatEnv+"="+target)
	return cmd
}

// squatAndExec takes, on the loopback, the group id DPDK 22.11's af_packet PMD asks for target's sockets in
// this process, (pid ^ ifindex) & 0xffff, as another process on the host may hold it; keeps the socket open
// across exec (so the group lives on) and becomes the backend: same pid, same id asked for.
func squatAndExec(target string, argv []string) {
	fail := func(what string, err error) {
		fmt.Fprintf(os.Stderr, "fanout squatter: %s: %v\n", what, err)
		os.Exit(3)
	}
	tif, err := net.InterfaceByName(target)
	if err != nil {
		fail(target, err)
	}
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		fail("lo", err)
	}
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, int(htons(syscall.ETH_P_ALL)))
	if err != nil {
		fail("socket", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: htons(syscall.ETH_P_ALL), Ifindex: lo.Index}); err != nil {
		fail("bind lo", err)
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_PACKET, packetFanout, (os.Getpid()^tif.Index)&0xffff); err != nil {
		fail("PACKET_FANOUT", err)
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFD, 0); errno != 0 {
		fail("fcntl", errno)
	}
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, squatEnv+"=") {
			env = append(env, e)
		}
	}
	fail("exec "+argv[0], syscall.Exec(argv[0], argv, env))
}

// TestE2EFanoutGroupTakenElsewhere: the fanout group id DPDK 22.11's af_packet PMD asks for a port's sockets,
// (pid ^ ifindex) & 0xffff, is another device's group: another process's on the same host (the lab's switch
// and backend collided so, consecutive pids on the two ends of a veth: the switch exited, "could not set
// PACKET_FANOUT ... Invalid argument"). The backend starts all the same, its port's two queue sockets in one
// group the kernel chose (in two groups, or in none, each socket would receive every frame: each frame
// forwarded twice).
func TestE2EFanoutGroupTakenElsewhere(t *testing.T) {
	const frames = 40
	b := newBedSquatted(t, 2, 1)
	if !strings.Contains(b.log.String(), "fanout group") {
		t.Errorf("no log line of the moved fanout group:\n%s", b.log.String())
	}
	b.base(1)
	for i := 0; i < frames; i++ {
		b.send(1, gtpuFrame(0x100, userPkt(e2eUEBase, e2eApp, 64, uint32(i))))
	}
	if got := b.recvQuiet(2, 500*time.Millisecond, 5*time.Second); len(got) != frames {
		t.Fatalf("%d frames forwarded of %d sent", len(got), frames)
	}
}

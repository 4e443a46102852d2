package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// A unix socket is a door out of the sandbox: a daemon listening on one
// (tmux, screen, ssh-agent, docker, a database, another forge's proxy)
// acts for whoever connects, outside the sandbox. The mounts cannot hide
// every socket, and Landlock restricts connecting to one only from ABI 9
// on. So the command cannot create a unix socket at all: socket(AF_UNIX)
// fails with EPERM, under a seccomp filter on the thread that starts it.
// socketpair stays allowed (its two ends reach nothing outside), and so
// do the other families (the network namespace confines them). io_uring
// is refused too, since its requests create sockets without the socket
// system call. The sandbox's first process reaches forge's proxy from
// threads the filter is not on: it locks the filtered thread, and the Go
// runtime starts new threads from a clean one while a thread is locked.

// The seccomp_data fields the filter reads; args[0] is its low 32 bits,
// on the little-endian machines the table below lists.
const (
	seccompNr   = 0
	seccompArch = 4
	seccompArg0 = 16
)

// x32Bit marks the x32 system calls of an x86-64 kernel; they share the
// x86-64 audit architecture and numbers.
const x32Bit = 0x40000000

// The io_uring system calls, numbered alike on every architecture below.
var ioUring = []uint32{425, 426, 427}

// scArch is one system call convention of an architecture.
type scArch struct {
	audit      uint32 // AUDIT_ARCH_*
	socket     uint32
	socketcall uint32 // 0: none; socketcall(SYS_SOCKET, ...) hides its arguments, so it is refused
	x32        bool
}

// seccompArchs are the conventions a process of each GOARCH can use: its
// own, and the 32-bit one its kernel may also run (i386 on x86-64, arm on
// arm64). Other architectures have no filter (see unixFilter).
var seccompArchs = map[string][]scArch{
	"amd64":   {{audit: unix.AUDIT_ARCH_X86_64, socket: 41, x32: true}, {audit: unix.AUDIT_ARCH_I386, socket: 359, socketcall: 102}},
	"arm64":   {{audit: unix.AUDIT_ARCH_AARCH64, socket: 198}, {audit: unix.AUDIT_ARCH_ARM, socket: 281}},
	"386":     {{audit: unix.AUDIT_ARCH_I386, socket: 359, socketcall: 102}},
	"arm":     {{audit: unix.AUDIT_ARCH_ARM, socket: 281}},
	"riscv64": {{audit: unix.AUDIT_ARCH_RISCV64, socket: 198}},
	"loong64": {{audit: unix.AUDIT_ARCH_LOONGARCH64, socket: 198}},
}

// sysSocket is socketcall's call number for socket.
const sysSocket = 1

var (
	retAllow = bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW}
	retEPERM = bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)}
)

// unixFilter is the seccomp program for goarch; false where there is none.
// A system call of an architecture not listed fails with EPERM.
func unixFilter(goarch string) ([]bpf.Instruction, bool) {
	archs, ok := seccompArchs[goarch]
	if !ok {
		return nil, false
	}
	var prog []bpf.Instruction
	for _, a := range archs {
		block := archBlock(a)
		prog = append(prog, bpf.LoadAbsolute{Off: seccompArch, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: a.audit, SkipTrue: uint8(len(block))})
		prog = append(prog, block...)
	}
	return append(prog, retEPERM), true
}

// archBlock checks one convention's system call and ends in a verdict.
func archBlock(a scArch) []bpf.Instruction {
	b := []bpf.Instruction{bpf.LoadAbsolute{Off: seccompNr, Size: 4}}
	if a.x32 {
		b = append(b, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: ^uint32(x32Bit)})
	}
	for _, nr := range ioUring {
		b = append(b, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: 1}, retEPERM)
	}
	// denyArg0 refuses call nr when its first argument is v.
	denyArg0 := func(nr, v uint32) {
		b = append(b, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: 4},
			bpf.LoadAbsolute{Off: seccompArg0, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: v, SkipTrue: 1}, retEPERM, retAllow)
	}
	denyArg0(a.socket, unix.AF_UNIX)
	if a.socketcall != 0 {
		denyArg0(a.socketcall, sysSocket)
	}
	return append(b, retAllow)
}

// filterAvailable says a command can be kept from unix sockets here: by
// the seccomp filter, or by Landlock from ABI 9 on.
func filterAvailable(abi int) error {
	if _, ok := unixFilter(runtime.GOARCH); ok || abi >= 9 {
		return nil
	}
	return fmt.Errorf("no seccomp filter for unix sockets on %s and no Landlock ABI 9 to restrict them", runtime.GOARCH)
}

// denyUnixSockets installs the filter on the calling thread, which has
// no_new_privs and starts the command. Without a filter for this
// architecture, Landlock ABI 9 (landlockRules) does the work; with
// neither, the sandbox is not built.
func denyUnixSockets(abi int) error {
	prog, ok := unixFilter(runtime.GOARCH)
	if !ok {
		return filterAvailable(abi)
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	runtime.KeepAlive(filter)
	return nil
}

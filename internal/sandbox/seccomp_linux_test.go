package sandbox

import (
	"encoding/binary"
	"runtime"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData is struct seccomp_data as the filter reads it: the VM loads
// words big-endian, so each field is written that way to stand for the
// native word the kernel loads.
func seccompData(arch, nr uint32, arg0 uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[seccompNr:], nr)
	binary.BigEndian.PutUint32(b[seccompArch:], arch)
	binary.BigEndian.PutUint32(b[seccompArg0:], uint32(arg0))
	binary.BigEndian.PutUint32(b[seccompArg0+4:], uint32(arg0>>32))
	return b
}

func runFilter(t testing.TB, goarch string, arch, nr uint32, arg0 uint64) uint32 {
	t.Helper()
	prog, ok := unixFilter(goarch)
	if !ok {
		t.Fatalf("no filter for %s", goarch)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	v, err := vm.Run(seccompData(arch, nr, arg0))
	if err != nil {
		t.Fatal(err)
	}
	return uint32(v)
}

const eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)

// TestUnixFilter: every way a process of each architecture can ask for a
// unix socket is refused, and nothing else is.
func TestUnixFilter(t *testing.T) {
	const (
		x86, i386, a64, arm = unix.AUDIT_ARCH_X86_64, unix.AUDIT_ARCH_I386, unix.AUDIT_ARCH_AARCH64, unix.AUDIT_ARCH_ARM
		allow               = unix.SECCOMP_RET_ALLOW
	)
	for _, tc := range []struct {
		name     string
		goarch   string
		arch, nr uint32
		arg0     uint64
		want     uint32
	}{
		{"x86-64 socket(AF_UNIX)", "amd64", x86, 41, unix.AF_UNIX, eperm},
		{"x86-64 socket(AF_UNIX) high bits set", "amd64", x86, 41, 1<<32 | unix.AF_UNIX, eperm},
		{"x86-64 socket(AF_INET)", "amd64", x86, 41, unix.AF_INET, allow},
		{"x86-64 socket(AF_INET6)", "amd64", x86, 41, unix.AF_INET6, allow},
		{"x86-64 socket(AF_NETLINK)", "amd64", x86, 41, unix.AF_NETLINK, allow},
		{"x86-64 socketpair(AF_UNIX)", "amd64", x86, 53, unix.AF_UNIX, allow},
		{"x86-64 connect", "amd64", x86, 42, 3, allow},
		{"x86-64 read", "amd64", x86, 0, 1, allow},
		{"x32 socket(AF_UNIX)", "amd64", x86, x32Bit | 41, unix.AF_UNIX, eperm},
		{"x32 socket(AF_INET)", "amd64", x86, x32Bit | 41, unix.AF_INET, allow},
		{"x86-64 io_uring_setup", "amd64", x86, 425, 8, eperm},
		{"x86-64 io_uring_enter", "amd64", x86, 426, 3, eperm},
		{"x86-64 io_uring_register", "amd64", x86, 427, 3, eperm},
		{"x32 io_uring_setup", "amd64", x86, x32Bit | 425, 8, eperm},
		{"i386 on x86-64 socket(AF_UNIX)", "amd64", i386, 359, unix.AF_UNIX, eperm},
		{"i386 on x86-64 socket(AF_INET)", "amd64", i386, 359, unix.AF_INET, allow},
		{"i386 on x86-64 socketcall(SYS_SOCKET)", "amd64", i386, 102, sysSocket, eperm},
		{"i386 on x86-64 socketcall(SYS_CONNECT)", "amd64", i386, 102, 3, allow},
		{"i386 on x86-64 socketcall(SYS_SOCKETPAIR)", "amd64", i386, 102, 8, allow},
		{"i386 on x86-64 io_uring_setup", "amd64", i386, 425, 8, eperm},
		{"i386 on x86-64 41 is not socket", "amd64", i386, 41, unix.AF_UNIX, allow},
		{"an unknown architecture", "amd64", a64, 198, unix.AF_INET, eperm},
		{"arm64 socket(AF_UNIX)", "arm64", a64, 198, unix.AF_UNIX, eperm},
		{"arm64 socket(AF_INET)", "arm64", a64, 198, unix.AF_INET, allow},
		{"arm64 socketpair(AF_UNIX)", "arm64", a64, 199, unix.AF_UNIX, allow},
		{"arm64 io_uring_setup", "arm64", a64, 425, 8, eperm},
		{"arm on arm64 socket(AF_UNIX)", "arm64", arm, 281, unix.AF_UNIX, eperm},
		{"arm on arm64 socketpair(AF_UNIX)", "arm64", arm, 288, unix.AF_UNIX, allow},
		{"arm64 x86-64's number", "arm64", a64, 41, unix.AF_UNIX, allow},
		{"386 socketcall(SYS_SOCKET)", "386", i386, 102, sysSocket, eperm},
		{"386 socket(AF_UNIX)", "386", i386, 359, unix.AF_UNIX, eperm},
		{"riscv64 socket(AF_UNIX)", "riscv64", unix.AUDIT_ARCH_RISCV64, 198, unix.AF_UNIX, eperm},
		{"loong64 socket(AF_UNIX)", "loong64", unix.AUDIT_ARCH_LOONGARCH64, 198, unix.AF_UNIX, eperm},
		{"arm socket(AF_UNIX)", "arm", arm, 281, unix.AF_UNIX, eperm},
	} {
		if got := runFilter(t, tc.goarch, tc.arch, tc.nr, tc.arg0); got != tc.want {
			t.Errorf("%s: %#x, want %#x", tc.name, got, tc.want)
		}
	}
	for goarch := range seccompArchs {
		prog, _ := unixFilter(goarch)
		if _, err := bpf.Assemble(prog); err != nil {
			t.Errorf("%s: %v", goarch, err)
		}
	}
	if _, ok := unixFilter("s390x"); ok {
		t.Error("s390x has a filter written for little-endian arguments")
	}
}

// TestSocketNumbers: the table's numbers for this machine are the
// kernel's, as x/sys knows them.
func TestSocketNumbers(t *testing.T) {
	archs, ok := seccompArchs[runtime.GOARCH]
	if !ok {
		t.Skipf("no filter on %s", runtime.GOARCH)
	}
	if archs[0].socket != unix.SYS_SOCKET || ioUring[0] != unix.SYS_IO_URING_SETUP {
		t.Errorf("socket %d (x/sys %d), io_uring_setup %d (x/sys %d)", archs[0].socket, unix.SYS_SOCKET, ioUring[0], unix.SYS_IO_URING_SETUP)
	}
}

// FuzzUnixFilter: for any system call of the x86-64 and arm64
// conventions, the filter refuses exactly socket(AF_UNIX) and io_uring.
func FuzzUnixFilter(f *testing.F) {
	f.Add(uint32(41), uint64(unix.AF_UNIX), false)
	f.Add(uint32(x32Bit|41), uint64(1<<40|unix.AF_UNIX), false)
	f.Add(uint32(198), uint64(unix.AF_UNIX), true)
	f.Add(uint32(425), uint64(0), true)
	f.Add(uint32(53), uint64(unix.AF_UNIX), false)
	f.Fuzz(func(t *testing.T, nr uint32, arg0 uint64, arm bool) {
		goarch, arch, socket, mask := "amd64", uint32(unix.AUDIT_ARCH_X86_64), uint32(41), ^uint32(x32Bit)
		if arm {
			goarch, arch, socket, mask = "arm64", unix.AUDIT_ARCH_AARCH64, 198, ^uint32(0)
		}
		n := nr & mask
		deny := n == socket && uint32(arg0) == unix.AF_UNIX || n >= 425 && n <= 427
		want := uint32(unix.SECCOMP_RET_ALLOW)
		if deny {
			want = eperm
		}
		if got := runFilter(t, goarch, arch, nr, arg0); got != want {
			t.Errorf("%s nr %#x arg0 %#x: %#x, want %#x", goarch, nr, arg0, got, want)
		}
	})
}

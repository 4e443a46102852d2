package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// listenUnix serves "SECRET" to whoever connects to a unix socket at addr
// (a path, or @name for an abstract one), outside the sandbox, and says
// whether anyone did.
func listenUnix(t *testing.T, addr string) <-chan struct{} {
	t.Helper()
	l, err := net.Listen("unix", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Write([]byte("SECRET"))
			c.Close()
		}
	}()
	return accepted
}

// TestNoUnixSockets: a daemon listening on a unix socket outside the
// sandbox (tmux, ssh-agent, docker, another forge's proxy) cannot be
// reached, wherever its socket lies and whatever program connects; a
// socketpair still works.
func TestNoUnixSockets(t *testing.T) {
	f := newFixture(t, nil)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	abstract := "@forge-test-" + filepath.Base(f.base)
	var socks []string
	var accepted []<-chan struct{}
	for _, p := range []string{filepath.Join(f.outside, "d.sock"), filepath.Join(f.tmp, "t.sock"), filepath.Join(f.project, "p.sock"), abstract} {
		accepted = append(accepted, listenUnix(t, p))
		socks = append(socks, p)
	}
	type attempt struct{ name, script string }
	var tries []attempt
	for _, s := range socks {
		tries = append(tries, attempt{"go " + s, self + " " + dialUnixArg + " " + s})
		py := "import socket; s=socket.socket(socket.AF_UNIX); s.connect(" + pyAddr(s) + "); print(s.recv(64))"
		tries = append(tries, attempt{"python3 " + s, "python3 -c '" + py + "'"})
		if !strings.HasPrefix(s, "@") {
			tries = append(tries, attempt{"nc -U " + s, "nc -U " + s + " </dev/null"},
				attempt{"socat " + s, "socat - UNIX-CONNECT:" + s + " </dev/null"},
				attempt{"curl " + s, "curl -s --unix-socket " + s + " http://x/"})
		}
	}
	for _, tc := range tries {
		t.Run(tc.name, func(t *testing.T) {
			prog := strings.Fields(tc.script)[0]
			if _, err := exec.LookPath(prog); err != nil && !filepath.IsAbs(prog) {
				t.Skipf("%s is not installed", prog)
			}
			out, _ := f.run(t, "/bin/sh", tc.script)
			if strings.Contains(out, "SECRET") {
				t.Errorf("%q reached the daemon: %q", tc.script, out)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	for i, ch := range accepted {
		select {
		case <-ch:
			t.Errorf("the daemon at %s accepted a connection from the sandbox", socks[i])
		default:
		}
	}
	out, code := f.run(t, "/bin/sh", self+" "+socketpairArg)
	if code != 0 || !strings.Contains(out, "socketpair: pair") {
		t.Errorf("socketpair in the sandbox: exit %d, %q", code, out)
	}
	out, code = f.run(t, "/bin/sh", self+" "+dialUnixArg+" "+socks[0])
	if code == 0 || !strings.Contains(out, "operation not permitted") {
		t.Errorf("the refusal: exit %d, %q; want EPERM", code, out)
	}
	if _, err := exec.LookPath("python3"); err == nil {
		out, code = f.run(t, "/bin/sh", `python3 -c 'import socket; a,b=socket.socketpair(); a.send(b"ok"); print("pair", b.recv(2))'`)
		if code != 0 || !strings.Contains(out, "pair b'ok'") {
			t.Errorf("python3 socketpair: exit %d, %q", code, out)
		}
	}
}

// pyAddr is addr as Python's socket.connect takes it.
func pyAddr(addr string) string {
	if name, ok := strings.CutPrefix(addr, "@"); ok {
		return `"\0` + name + `"`
	}
	return `"` + addr + `"`
}

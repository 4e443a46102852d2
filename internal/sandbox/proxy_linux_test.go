package sandbox

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProxyThroughSandbox: from inside the sandbox an allowed host is
// reached through forge's proxy, by name; another host, and an address,
// are refused, and Explain names them.
func TestProxyThroughSandbox(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello from " + r.Host))
	}))
	defer srv.Close()
	// The proxy resolves every name to the test server: what it lets
	// through is decided by the name the client asked for.
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	f := newFixture(t, func(p *Policy) { p.AllowedHosts = []string{"allowed.test", "*.pkg.test"} })
	f.sb, _ = New(f.sb.Policy(), Options{Dial: dial, TempDir: f.tmp})
	t.Cleanup(func() { f.sb.Close() })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(url string) (string, int) {
		cmd := exec.Command(exe, fetchArg, url)
		cmd.Dir = f.project
		release, err := f.sb.Wrap(cmd, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		release()
		cmd.Wait()
		return out.String(), cmd.ProcessState.ExitCode()
	}
	start := time.Now()
	for _, tc := range []struct {
		url  string
		ok   bool
		says string
	}{
		{"http://allowed.test/x", true, "hello from allowed.test"},
		{"http://deep.pkg.test/x", true, "hello from deep.pkg.test"},
		{"http://blocked.test/x", false, "403"},
		{"http://pkg.test/x", false, "403"},
		{"http://10.1.2.3/x", false, "403"},
		{"http://" + srv.Listener.Addr().String() + "/x", false, ""},
	} {
		out, code := fetch(tc.url)
		if (code == 0) != tc.ok || !strings.Contains(out, tc.says) {
			t.Errorf("%s: exit %d, %q; want ok=%v and %q", tc.url, code, out, tc.ok, tc.says)
		}
	}
	hint := f.sb.Explain("", f.project, start)
	for _, h := range []string{"blocked.test", "pkg.test", "10.1.2.3", "sandbox.network.allow", "sandbox: false"} {
		if !strings.Contains(hint, h) {
			t.Errorf("Explain %q does not name %s", hint, h)
		}
	}
	if refused, _, _ := strings.Cut(hint, "only the hosts"); strings.Contains(refused, "allowed.test") {
		t.Errorf("Explain says an allowed host was refused: %q", hint)
	}
}

// TestProxySocketCannotBeSwapped: the proxy's socket lies in a directory
// commands may write in, and the relay that dials it runs outside their
// filter on unix sockets. A command that puts a link, or a hard link, to
// another daemon's socket in its place reaches nothing: the relay checks
// the file forge made before it connects.
func TestProxySocketCannotBeSwapped(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	f := newFixture(t, func(p *Policy) { p.AllowedHosts = []string{"allowed.test"} })
	f.sb, _ = New(f.sb.Policy(), Options{TempDir: f.tmp})
	t.Cleanup(func() { f.sb.Close() })
	daemon := filepath.Join(f.tmp, "daemon.sock")
	l, err := net.Listen("unix", daemon)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	reached := make(chan string, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			b := make([]byte, 64)
			n, _ := c.Read(b)
			reached <- string(b[:n])
			c.Close()
		}
	}()
	send := `import os, socket, urllib.parse
u = urllib.parse.urlparse(os.environ["HTTP_PROXY"])
s = socket.create_connection((u.hostname, u.port), timeout=3)
s.sendall(b"HELLO-FROM-SANDBOX")
try: print(s.recv(64))
except Exception as e: print(e)`
	for _, swap := range []string{"ln -s " + daemon + " $D/proxy.sock", "ln " + daemon + " $D/proxy.sock"} {
		script := "D=$(ls -d " + f.tmp + "/forge-proxy-* | head -1); rm -f $D/proxy.sock; " + swap + "; python3 -c '" + send + "'"
		out, _ := f.run(t, "/bin/sh", script)
		select {
		case got := <-reached:
			t.Errorf("%s: the daemon outside got %q (output %q)", swap, got, out)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

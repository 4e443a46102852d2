package sandbox

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fixture is a project in a directory of its own, with a home holding
// credentials, a temporary directory and a place outside both.
type fixture struct {
	base, project, tmp, outside, home string
	sb                                *Sandbox
}

var (
	detectOnce sync.Once
	detectErr  error
)

// requireSandbox skips the test where the kernel cannot build a sandbox,
// saying why.
func requireSandbox(t testing.TB) {
	t.Helper()
	detectOnce.Do(func() {
		sb, err := New(Policy{Writable: []string{os.TempDir()}}, Options{})
		if err == nil {
			_, err = sb.Detect()
		}
		detectErr = err
	})
	if detectErr != nil {
		t.Skipf("no sandbox on this machine: %v", detectErr)
	}
}

func newFixture(t *testing.T, edit func(*Policy)) *fixture {
	t.Helper()
	requireSandbox(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{base: base, project: filepath.Join(base, "project"), tmp: filepath.Join(base, "tmp"),
		outside: filepath.Join(base, "outside"), home: filepath.Join(base, "home")}
	for _, d := range []string{f.project + "/.git/hooks", f.project + "/.forge", f.tmp, f.outside, f.home + "/.ssh"} {
		mkdir(t, d)
	}
	write(t, f.project+"/.git/config", "[core]\n")
	write(t, f.project+"/.forge/config.yaml", "max_turns: 5\n")
	write(t, f.home+"/.ssh/id_rsa", "PRIVATE KEY\n")
	write(t, f.home+"/.npmrc", "//registry.npmjs.org/:_authToken=SECRET\n")
	p := Policy{Mode: ModeWorkspace, Writable: []string{f.project}, Caches: []string{f.tmp},
		Hidden: []string{f.home + "/.ssh", f.home + "/.npmrc"}}
	if edit != nil {
		edit(&p)
	}
	if f.sb, err = New(p, Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.sb.Close() })
	return f
}

// run runs a shell script in the sandbox, in the project, and returns
// its output and exit status.
func (f *fixture) run(t *testing.T, shell, script string) (string, int) {
	t.Helper()
	cmd := exec.Command(shell, "-c", script)
	cmd.Dir = f.project
	cmd.Env = append(os.Environ(), "HOME="+f.home, "TMPDIR="+f.tmp)
	release, err := f.sb.Wrap(cmd, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Start()
	release()
	if err == nil {
		err = cmd.Wait()
	}
	out := buf.String()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run %q: %v", script, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// TestConfinedFiles: a command writes in the project and the temporary
// directory, and nowhere else; the protected places in the project stay
// read-only; credentials are out of sight.
func TestConfinedFiles(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct {
		name, script string
		ok           bool
		says         string
	}{
		{"the project", "echo x > made && cat made", true, "x"},
		{"a new directory in the project", "mkdir -p sub/dir && touch sub/dir/f", true, ""},
		{"the temporary directory", "touch " + f.tmp + "/t", true, ""},
		{"outside", "touch " + f.outside + "/pwned", false, "Read-only file system"},
		{"home", "touch " + f.home + "/pwned", false, "Read-only file system"},
		{"a git hook", "echo 'rm -rf ~' > .git/hooks/pre-commit", false, "Read-only file system"},
		{"git's configuration", "echo '[core] fsmonitor = evil' >> .git/config", false, "Read-only file system"},
		{"forge's project settings", "echo 'approval: yolo' >> .forge/config.yaml", false, "Read-only file system"},
		{"a new file in .forge", "touch .forge/hooks.yaml", false, "Read-only file system"},
		{"a key", "cat " + f.home + "/.ssh/id_rsa", false, "No such file"},
		{"the key's directory", "ls -A " + f.home + "/.ssh | wc -l", true, "0"},
		{"a token file", "cat " + f.home + "/.npmrc; echo end", true, "end"},
		{"writing a key", "echo k > " + f.home + "/.ssh/id_ed25519", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := f.run(t, "/bin/sh", tc.script)
			if (code == 0) != tc.ok || !strings.Contains(out, tc.says) {
				t.Errorf("%q: exit %d, output %q; want ok=%v and %q", tc.script, code, out, tc.ok, tc.says)
			}
			if strings.Contains(out, "SECRET") || strings.Contains(out, "PRIVATE") {
				t.Errorf("%q showed a credential: %q", tc.script, out)
			}
		})
	}
	for _, p := range []string{f.outside + "/pwned", f.home + "/pwned", f.project + "/.git/hooks/pre-commit", f.project + "/.forge/hooks.yaml"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if b, _ := os.ReadFile(f.project + "/.forge/config.yaml"); string(b) != "max_turns: 5\n" {
		t.Errorf(".forge/config.yaml changed: %q", b)
	}
	if _, err := os.Stat(f.project + "/sub/dir/f"); err != nil {
		t.Errorf("the write in the project did not land: %v", err)
	}
}

// TestNoWayOut: the command runs as the same user (root here) with every
// capability in its own namespaces, and still cannot unmount, remount or
// mount its way to the files it may not write or see.
func TestNoWayOut(t *testing.T) {
	f := newFixture(t, nil)
	for _, script := range []string{
		"umount " + f.home + "/.ssh; cat " + f.home + "/.ssh/id_rsa",
		"umount -l " + f.home + "/.ssh; cat " + f.home + "/.ssh/id_rsa",
		"umount -l " + f.project + "/.git/hooks; touch .git/hooks/post-checkout",
		"mount -o remount,rw,bind " + f.project + "/.git/hooks; touch .git/hooks/post-checkout",
		"mount -o remount,rw /; touch " + f.outside + "/pwned",
		"mount --bind " + f.project + " " + f.outside + " && touch " + f.outside + "/pwned",
		"unshare -rm sh -c 'umount -l " + f.home + "/.ssh; cat " + f.home + "/.ssh/id_rsa'",
		"unshare -rm sh -c 'mount -o remount,rw /; touch " + f.outside + "/pwned'",
		"nsenter -t 1 -m -U sh -c 'umount " + f.home + "/.ssh; cat " + f.home + "/.ssh/id_rsa'",
		"cat /proc/1/root" + f.home + "/.ssh/id_rsa",
	} {
		out, _ := f.run(t, "/bin/sh", script)
		if strings.Contains(out, "PRIVATE") {
			t.Errorf("%q read the key: %q", script, out)
		}
	}
	for _, p := range []string{f.outside + "/pwned", f.project + "/.git/hooks/post-checkout"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

// TestCannotReachForge: forge's processes are out of sight (no signal,
// no /proc/PID/environ), and so is the sandbox's own first process.
func TestCannotReachForge(t *testing.T) {
	f := newFixture(t, nil)
	self := strconv.Itoa(os.Getpid())
	for _, tc := range []struct{ script, forbidden string }{
		{"kill -TERM " + self + " && echo signalled", "signalled"},
		{"kill -0 " + self + " && echo alive", "alive"},
		{"cat /proc/" + self + "/environ && echo read", "read"},
		{"cat /proc/1/environ && echo read", "read"},
		{"ls /proc | grep -qx " + self + " && echo visible", "visible"},
	} {
		out, _ := f.run(t, "/bin/sh", tc.script)
		if strings.Contains(out, tc.forbidden) {
			t.Errorf("%q: %q", tc.script, out)
		}
	}
}

// TestNoNetwork: the host's loopback services are out of reach; the
// sandbox's own loopback works (tests listen there).
func TestNoNetwork(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed (its /dev/tcp connects)")
	}
	f := newFixture(t, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	out, code := f.run(t, bash, "exec 3<>/dev/tcp/127.0.0.1/"+port+" && echo connected")
	if code == 0 || strings.Contains(out, "connected") {
		t.Errorf("reached the host's 127.0.0.1:%s: %q", port, out)
	}
	select {
	case <-accepted:
		t.Error("the host's listener accepted a connection from the sandbox")
	default:
	}
	if _, err := exec.LookPath("python3"); err != nil {
		return
	}
	out, code = f.run(t, bash, `python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); c=socket.create_connection(s.getsockname()); print("loopback ok")'`)
	if code != 0 || !strings.Contains(out, "loopback ok") {
		t.Errorf("the sandbox's own loopback: exit %d, %q", code, out)
	}
}

// TestExitStatus: the command's exit status, a signal's included, is
// what the sandbox's first process exits with.
func TestExitStatus(t *testing.T) {
	f := newFixture(t, nil)
	for script, want := range map[string]int{"exit 0": 0, "exit 3": 3, "kill -KILL $$": 128 + 9} {
		if _, code := f.run(t, "/bin/sh", script); code != want {
			t.Errorf("%q: exit %d, want %d", script, code, want)
		}
	}
	cmd := exec.Command(filepath.Join(f.base, "no-such-program"))
	cmd.Dir = f.project
	if _, err := f.sb.Wrap(cmd, nil); err != nil {
		t.Fatal(err)
	}
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitNotFound || !strings.Contains(string(out), "cannot run") {
		t.Errorf("a missing program: exit %d, %q", cmd.ProcessState.ExitCode(), out)
	}
}

// TestGoModule: a small Go module builds and its tests pass in the
// sandbox, with the build cache among the caches.
func TestGoModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	cache, err := exec.Command(goBin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	gocache := strings.TrimSpace(string(cache))
	f := newFixture(t, func(p *Policy) { p.Caches = append(p.Caches, gocache) })
	write(t, f.project+"/go.mod", "module example.com/m\n\ngo 1.21\n")
	write(t, f.project+"/m.go", "package m\n\nfunc Add(a, b int) int { return a + b }\n")
	write(t, f.project+"/m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n")
	out, code := f.run(t, "/bin/sh", "GOCACHE="+gocache+" GOFLAGS= GOTOOLCHAIN=local "+goBin+" test -count=1 ./... && "+goBin+" vet ./... && "+goBin+" build -o m.bin . ; gofmt -l . ; echo done")
	if code != 0 || !strings.Contains(out, "ok  \texample.com/m") || !strings.Contains(out, "done") {
		t.Fatalf("go test in the sandbox: exit %d\n%s", code, out)
	}
}

// TestPrivateCaches: a command sees a toolchain's cache as it is and
// writes in it, but what it writes lands in the sandbox's own copy, kept
// for the next command and never seen outside: a planted build cache
// entry cannot run in a build the person starts. Without a place to keep
// the copy, it lasts one command.
func TestPrivateCaches(t *testing.T) {
	for _, keep := range []bool{true, false} {
		t.Run(map[bool]string{true: "kept", false: "one command"}[keep], func(t *testing.T) {
			var cache, copies string
			f := newFixture(t, func(p *Policy) {
				cache, copies = filepath.Join(filepath.Dir(p.Writable[0]), "cache"), ""
				if keep {
					copies = filepath.Join(filepath.Dir(p.Writable[0]), "state", "copies")
				}
				p.Private, p.PrivateDir = []string{cache}, copies
			})
			mkdir(t, cache+"/go-build")
			write(t, cache+"/go-build/entry", "real\n")
			out, code := f.run(t, "/bin/sh", "cat "+cache+"/go-build/entry && echo planted > "+cache+"/go-build/entry && echo new > "+cache+"/new && cat "+cache+"/go-build/entry")
			if code != 0 || !strings.Contains(out, "real") || !strings.Contains(out, "planted") {
				t.Fatalf("writing in the cache: exit %d, %q", code, out)
			}
			if b, _ := os.ReadFile(cache + "/go-build/entry"); string(b) != "real\n" {
				t.Errorf("the real cache's entry changed: %q", b)
			}
			if _, err := os.Stat(cache + "/new"); err == nil {
				t.Error("a file written in the sandbox's copy appeared in the real cache")
			}
			out, _ = f.run(t, "/bin/sh", "cat "+cache+"/new "+cache+"/go-build/entry 2>&1")
			if keep && (!strings.Contains(out, "new") || !strings.Contains(out, "planted")) {
				t.Errorf("the next command does not see the copy's writes: %q", out)
			}
			if !keep && (strings.Contains(out, "planted") || !strings.Contains(out, "real")) {
				t.Errorf("a copy without a place to keep it outlived its command: %q", out)
			}
		})
	}
}

// TestReadOnlyMode: nothing can be written; the temporary directory and
// the caches are private copies, so a build still works and leaves
// nothing behind.
func TestReadOnlyMode(t *testing.T) {
	f := newFixture(t, func(p *Policy) { p.Mode = ModeReadOnly })
	write(t, f.tmp+"/kept", "before\n")
	out, code := f.run(t, "/bin/sh", "touch made")
	if code == 0 || !strings.Contains(out, "Read-only file system") {
		t.Errorf("a write in the project in read-only mode: exit %d, %q", code, out)
	}
	out, code = f.run(t, "/bin/sh", "cat "+f.tmp+"/kept && echo scratch > "+f.tmp+"/new && cat "+f.tmp+"/new && echo changed > "+f.tmp+"/kept")
	if code != 0 || !strings.Contains(out, "before") || !strings.Contains(out, "scratch") {
		t.Errorf("the private temporary directory: exit %d, %q", code, out)
	}
	if _, err := os.Stat(f.tmp + "/new"); err == nil {
		t.Error("a write to the private copy reached the real directory")
	}
	if b, _ := os.ReadFile(f.tmp + "/kept"); string(b) != "before\n" {
		t.Errorf("a file of the private copy changed: %q", b)
	}
}

// TestBackgroundKeepsFirstProcess: a command that leaves a process
// behind ends, the first process stays to hold it, and signalling the
// group ends both, a process that left the group too.
func TestBackgroundKeepsFirstProcess(t *testing.T) {
	f := newFixture(t, nil)
	cmd := exec.Command("/bin/sh", "-c", "sleep 9871 & setsid sleep 9872 & echo started")
	cmd.Dir = f.project
	cmd.SysProcAttr = nil
	if _, err := f.sb.Wrap(cmd, nil); err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr.Setsid = true
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "started") {
		t.Fatalf("output %q", buf[:n])
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the first process exited with processes left: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the sandbox did not end after SIGTERM")
	}
	if n := countProcesses(t, "sleep 987"); n != 0 {
		t.Errorf("%d sleeps outlived the sandbox", n)
	}
}

// countProcesses counts the live processes whose command line holds s.
func countProcesses(t *testing.T, s string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		st, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) && !strings.Contains(string(st), ") Z ") {
			n++
		}
	}
	return n
}

// TestReadOnlyProjectInTheTemporaryDirectory: a project under the
// temporary directory stays itself, read-only, in read-only mode, rather
// than a private copy that takes writes and loses them.
func TestReadOnlyProjectInTheTemporaryDirectory(t *testing.T) {
	f := newFixture(t, func(p *Policy) { p.Mode = ModeReadOnly })
	f.sb, _ = New(Policy{Mode: ModeReadOnly, Writable: []string{f.project}, Caches: []string{f.base}}, Options{})
	out, code := f.run(t, "/bin/sh", "touch made; touch "+f.tmp+"/scratch && echo scratch ok")
	if !strings.Contains(out, "Read-only file system") || !strings.Contains(out, "scratch ok") || code != 0 {
		t.Errorf("exit %d, %q", code, out)
	}
	for _, p := range []string{f.project + "/made", f.tmp + "/scratch"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was made", p)
		}
	}
}

// TestLandlockAndNoNewPrivs: the command runs with no_new_privs and, where
// the kernel has Landlock, cannot mount even a tmpfs of its own (which its
// capabilities in its namespace would allow) to write through.
func TestLandlockAndNoNewPrivs(t *testing.T) {
	f := newFixture(t, nil)
	out, _ := f.run(t, "/bin/sh", "grep NoNewPrivs /proc/self/status; mkdir -p "+f.tmp+"/m && mount -t tmpfs none "+f.tmp+"/m && echo mounted")
	if !strings.Contains(out, "NoNewPrivs:\t1") {
		t.Errorf("no_new_privs is not set: %q", out)
	}
	if landlockABI() > 0 && strings.Contains(out, "mounted") {
		t.Errorf("a mount succeeded under Landlock: %q", out)
	}
	if landlockABI() == 0 {
		t.Log("no Landlock in this kernel: only the mounts confine")
	}
}

func TestHandledRights(t *testing.T) {
	if handledRights(1)&unix.LANDLOCK_ACCESS_FS_REFER != 0 || handledRights(2)&unix.LANDLOCK_ACCESS_FS_REFER == 0 ||
		handledRights(4)&unix.LANDLOCK_ACCESS_FS_IOCTL_DEV != 0 || handledRights(9)&unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX == 0 {
		t.Errorf("rights by ABI: %x %x %x %x", handledRights(1), handledRights(2), handledRights(4), handledRights(9))
	}
	for _, r := range landlockRules(spec{Writable: []string{"/p"}, Proxy: "/tmp/forge-proxy-1/proxy.sock"}, handledRights(9)) {
		if r.path == "/p" && r.rights&unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX != 0 {
			t.Error("a writable place lets the command connect to sockets made outside")
		}
		if r.path == "/tmp/forge-proxy-1" && r.rights&unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX == 0 {
			t.Error("the proxy's socket cannot be reached")
		}
	}
}

// TestProtectedStayInPlace: a read-only file in the project (a hook's
// script) and forge's own program there cannot be changed, replaced, or
// moved aside with the directory that holds them; that directory stays
// writable for everything else.
func TestProtectedStayInPlace(t *testing.T) {
	requireSandbox(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	var hook string
	f := newFixture(t, func(p *Policy) {
		hook = filepath.Join(p.Writable[0], "scripts/lib/fmt.sh")
		p.ReadOnly = append(p.ReadOnly, hook)
	})
	mkdir(t, filepath.Dir(hook))
	write(t, hook, "gofmt -l .\n")
	forge := filepath.Join(f.project, "bin", "forge")
	mkdir(t, filepath.Dir(forge))
	if err := os.WriteFile(forge, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	if f.sb, err = New(f.sb.Policy(), Options{Executable: forge}); err != nil {
		t.Fatal(err)
	}
	for _, script := range []string{
		"echo evil > scripts/lib/fmt.sh",
		"mv scripts s2 && mkdir -p scripts/lib && echo evil > scripts/lib/fmt.sh",
		"mv scripts/lib scripts/l2 && mkdir scripts/lib && echo evil > scripts/lib/fmt.sh",
		"rm -rf scripts; mkdir -p scripts/lib && echo evil > scripts/lib/fmt.sh",
		"mv scripts/lib/fmt.sh scripts/lib/old && echo evil > scripts/lib/fmt.sh",
		"ln -sf /bin/true scripts/lib/fmt.sh",
		"echo evil > bin/forge",
		"cp /bin/true bin/forge",
		"mv bin/forge bin/old; cp /bin/true bin/forge",
		"rm -f bin/forge; cp /bin/true bin/forge",
		"mv bin b2 && mkdir bin && cp /bin/true bin/forge",
		"rm -rf bin; mkdir bin && cp /bin/true bin/forge",
	} {
		f.run(t, "/bin/sh", script)
		if b, _ := os.ReadFile(hook); string(b) != "gofmt -l .\n" {
			t.Fatalf("%q changed the hook's script: %q", script, b)
		}
		if b, _ := os.ReadFile(forge); len(b) != len(exe) {
			t.Fatalf("%q replaced forge's program (%d bytes)", script, len(b))
		}
	}
	out, code := f.run(t, "/bin/sh", "echo ok > bin/other && echo ok > scripts/new && cat bin/other scripts/new")
	if code != 0 || out != "ok\nok\n" {
		t.Errorf("the directories holding them are no longer writable: exit %d, %q", code, out)
	}
}

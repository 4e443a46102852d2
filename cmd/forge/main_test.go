package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/forgehq/forge/internal/app"
)

// TestMain lets the test binary act as the forge command inside scripts,
// with its clock and randomness pinned (pinnedForge).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"forge": pinnedForge})
}

// pinnedTime is the time every pinned forge reads.
var pinnedTime = time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC)

// pinnedForge is forge with a fixed clock (durations print as 0ms, history
// times as pinnedTime) and randomness that repeats the same six bytes (the
// registry is 0x7f8b4c0d1e90, the session sess_7f8b4c0d1e90), so that
// panels can be compared with golden files.
func pinnedForge() {
	opts := app.Options{Clock: func() time.Time { return pinnedTime }, Random: &pinnedRandom{fixed: 2, bytes: []byte{0x7f, 0x8b, 0x4c, 0x0d, 0x1e, 0x90}},
		OwnProcess: true, SandboxDial: proxyTarget(os.Getenv(proxyTargetVar))}
	os.Exit(app.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, opts))
}

// proxyTargetVar names the address (a URL's host) to which the sandbox's
// proxy connects whatever host it lets through, so that a script can
// reach "allowed.test" at its own web server.
const proxyTargetVar = "FORGE_TEST_PROXY_TARGET"

// proxyTarget is the proxy's dialer for the URL target; nil (dial the
// real host) when there is none.
func proxyTarget(target string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	u, err := url.Parse(target)
	if target == "" || err != nil {
		return nil
	}
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, u.Host)
	}
}

// pinnedRandom reads its bytes over and over, so that the registry and
// session ids of every run are the same; after its first fixed reads, the
// last byte counts up, so that a run that needs another id (a session id
// a previous run took) gets a new one, the same in every run.
type pinnedRandom struct {
	bytes []byte
	fixed int
	reads int
}

func (r *pinnedRandom) Read(p []byte) (int, error) {
	r.reads++
	for i := range p {
		p[i] = r.bytes[i%len(r.bytes)]
	}
	if n := r.reads - r.fixed; n > 0 && len(p) > 0 {
		p[len(p)-1] += byte(n)
	}
	return len(p), nil
}

// TestScripts runs the end-to-end scripts in testdata/ at the repository
// root. Each script gets a fresh HOME and XDG directories under $WORK, no
// colour, and the pinned clock and randomness of pinnedForge. FORGE_UPDATE_SCRIPTS=1
// go test ./cmd/forge rewrites the golden files in the scripts.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata"),
		UpdateScripts:       updateScripts(),
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus, "fakellm": cmdFakeLLM, "llmcheck": cmdLLMCheck, "validevents": cmdValidEvents,
			"webserver": cmdWebServer, "webrequests": cmdWebRequests, "acpdrive": cmdACPDrive, "png": cmdPNG,
		},
		Condition: scriptCondition,
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			env.Setenv("HOME", work)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(work, ".state"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(work, ".cache"))
			env.Setenv("NO_COLOR", "1")
			// Under -race every forge process would sleep 1 s at exit
			// (the race runtime's atexit_sleep_ms default).
			env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			// The scripts check the approvals as they are where no sandbox
			// can be built; sandbox.txtar turns it on.
			env.Setenv("FORGE_SANDBOX_MODE", "off")
			// A Go module builds in a script from the machine's warm cache.
			env.Setenv("GOCACHE", goCache())
			env.Setenv("GOTOOLCHAIN", "local")
			return nil
		},
	})
}

// scriptCondition answers [sandbox]: forge can build its sandbox here.
func scriptCondition(cond string) (bool, error) {
	if cond != "sandbox" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	sandboxOnce.Do(func() {
		home, err := os.MkdirTemp("", "forge-sandbox-check-")
		if err != nil {
			return
		}
		defer os.RemoveAll(home)
		cmd := exec.Command("forge", "sandbox", "check")
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home)
		cmd.Dir = home
		sandboxOK = cmd.Run() == nil
	})
	return sandboxOK, nil
}

var (
	sandboxOnce sync.Once
	sandboxOK   bool
)

// goCache is the machine's Go build cache; "" when go is not installed.
func goCache() string {
	goCacheOnce.Do(func() {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			goCacheDir = strings.TrimSpace(string(out))
		}
	})
	return goCacheDir
}

var (
	goCacheOnce sync.Once
	goCacheDir  string
)

func updateScripts() bool {
	return os.Getenv("FORGE_UPDATE_SCRIPTS") == "1"
}

// cmdStatus is the script command "status CODE PROG [ARGS...]": it runs PROG
// like exec and checks its exit status is exactly CODE, for forge's
// documented statuses (1, 2, 124, 130), which plain exec cannot tell apart.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

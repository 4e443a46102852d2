package app

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/sandbox"
	"github.com/forgehq/forge/internal/tools"
)

// sandboxInitArg is the hidden first argument of forge as its sandbox's
// first process.
const sandboxInitArg = sandbox.InitArg

// sandboxState is this forge's sandbox, built from the configuration and
// checked (sandbox.Detect) on first use, never at start-up: forge version
// must not pay for it.
type sandboxState struct {
	once      sync.Once
	sb        *sandbox.Sandbox // nil when off or unavailable
	root      string           // the writable project directory it was built for
	mechanism string
	why       string // why there is no sandbox; "" when there is one, or it is off
	noticed   bool
}

// sandbox returns the sandbox of the agent's commands, building and
// checking it the first time; nil when sandbox.mode is off or the machine
// cannot build one (why says why).
func (a *App) sandbox() *sandboxState {
	s := &a.sbox
	s.once.Do(func() {
		p := a.sandboxPolicy()
		if p.Mode == sandbox.ModeOff {
			return
		}
		sb, err := sandbox.New(p, sandbox.Options{Dial: a.opts.SandboxDial})
		if err == nil {
			s.mechanism, err = sb.Detect()
		}
		if err != nil {
			s.why = err.Error()
			return
		}
		s.sb, s.root = sb, p.Writable[0]
	})
	return s
}

// sandboxFor is the sandbox for the agent's calls in the working directory
// wd, which /set working_dir may have moved from where forge started; nil
// when there is none.
func (a *App) sandboxFor(wd string) *sandbox.Sandbox {
	s := a.sandbox()
	if s.sb == nil {
		return nil
	}
	if within(wd, s.root) {
		return s.sb
	}
	return s.sb.WithWritable(s.root, wd)
}

// sandboxNotice is the one line that says, the first time the agent
// runs, that commands run unconfined because no sandbox can be built
// here; "" when there is a sandbox, it is off, or the line was given.
func (a *App) sandboxNotice() string {
	s := a.sandbox()
	if s.why == "" || s.noticed {
		return ""
	}
	s.noticed = true
	return "no sandbox for the agent's commands: " + s.why + "; Bash asks before each command, as without one (forge sandbox check)"
}

// agentSandboxes are the sandboxes of the agent's calls in wd: its own,
// and plan mode's read-only one; nil interfaces when there is none.
func (a *App) agentSandboxes(wd string) (def, readOnly tools.Sandbox) {
	sb := a.sandboxFor(wd)
	if sb == nil {
		return nil, nil
	}
	return sb, sb.WithMode(sandbox.ModeReadOnly)
}

// sandboxPolicy is the sandbox the configuration asks for: writes in the
// project (and sandbox.writable), the temporary directory and the
// toolchains' caches; forge's settings and what git and the hooks run
// read-only; the credential places and the sockets of agents that hold
// keys hidden; the network only to sandbox.network.allow.
func (a *App) sandboxPolicy() sandbox.Policy {
	mode, err := sandbox.ParseMode(a.cfg.Sandbox.Mode)
	if err != nil {
		mode = sandbox.ModeWorkspace
	}
	caches := []string{os.TempDir()}
	if tmp := "/tmp"; !slices.Contains(caches, tmp) && filepath.Separator == '/' {
		caches = append(caches, tmp)
	}
	hidden, names := a.hiddenPaths()
	var roots []string
	if home := a.getenv("HOME"); filepath.IsAbs(home) {
		roots = append(roots, home)
	}
	if parent := filepath.Dir(a.projectRoot()); parent != "/" && !slices.Contains(roots, parent) {
		roots = append(roots, parent)
	}
	return sandbox.Policy{Mode: mode,
		Writable:     append([]string{a.projectRoot()}, a.cfg.Sandbox.Writable...),
		Caches:       caches,
		Private:      a.cfg.Sandbox.Caches,
		PrivateDir:   a.sandboxCopies(),
		ReadOnly:     a.protectedPaths(),
		Hidden:       hidden,
		HiddenNames:  names,
		NameRoots:    roots,
		AllowedHosts: a.cfg.Sandbox.Network.Allow,
	}
}

// sandboxCopies is where the sandbox keeps its copies of the caches:
// beside forge's other state, which sandboxed commands cannot see.
func (a *App) sandboxCopies() string {
	f := config.DefaultTrustFile(a.opts.LookupEnv)
	if f == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(f), "sandbox-caches")
}

// projectRoot is the directory sandboxed commands may change: the
// project's (where its .forge is) when the working directory is in it,
// else the working directory.
func (a *App) projectRoot() string {
	if a.cfg.ProjectDir != "" && within(a.cfg.WorkingDir, a.cfg.ProjectDir) {
		return a.cfg.ProjectDir
	}
	return a.cfg.WorkingDir
}

// hiddenPaths are what sandboxed commands cannot see: the places where
// credentials are kept (permissions.credentials, its !x entries dropping
// one), forge's configuration file, state and sessions, and the sockets
// through which an agent holding keys, a container engine or the desktop
// would act for the command; and names, the entries that are file names
// (.env*, *.pem), which the sandbox hides where it finds them. forge's
// configuration directory stays visible (read-only), since plugin tools
// run from it.
func (a *App) hiddenPaths() (paths, names []string) {
	home := a.getenv("HOME")
	entries := append(permission.DefaultCredentials(), a.cfg.Permissions.Credentials...)
	for _, e := range entries {
		e = strings.TrimSpace(e)
		drop := strings.HasPrefix(e, "!")
		e = strings.TrimSpace(strings.TrimPrefix(e, "!"))
		list, p := &paths, expandHome(e, home)
		switch {
		case e != "" && !strings.ContainsRune(e, '/') && !strings.HasPrefix(e, "~"):
			list, p = &names, e
		case p == "" && strings.ContainsRune(e, '/'):
			p = filepath.Join(a.cfg.WorkingDir, e) // as permissions.credentials reads it
		}
		if p == "" || list == &paths && strings.ContainsAny(p, "*?[{") {
			continue
		}
		if drop {
			*list = slices.DeleteFunc(*list, func(x string) bool { return x == p })
		} else {
			*list = append(*list, p)
		}
	}
	paths = append(paths, config.DefaultConfigFile(a.opts.LookupEnv), filepath.Dir(config.DefaultTrustFile(a.opts.LookupEnv)),
		a.cfg.SessionsDir, a.cfg.File)
	return append(paths, a.agentSockets()...), names
}

// agentSockets are the unix sockets and runtime directories through which
// something outside would act for a sandboxed command with its own
// rights: ssh-agent, Docker and its kin, the desktop session's bus and
// X11.
func (a *App) agentSockets() []string {
	out := []string{"/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock",
		"/tmp/.X11-unix", "/run/user/" + strconv.Itoa(os.Getuid())}
	for _, v := range []string{"SSH_AUTH_SOCK", "XDG_RUNTIME_DIR"} {
		if p := a.getenv(v); filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	if h, ok := strings.CutPrefix(a.getenv("DOCKER_HOST"), "unix://"); ok && filepath.IsAbs(h) {
		out = append(out, h)
	}
	return out
}

// expandHome makes ~/x absolute; a path neither absolute nor from home is
// "".
func expandHome(p, home string) string {
	switch {
	case p == "~" && home != "":
		return home
	case strings.HasPrefix(p, "~/") && home != "":
		return filepath.Join(home, p[2:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return ""
}

// sandboxControl is the sandbox as /sandbox shows and tries it.
type sandboxControl struct{ a *App }

// Report says what the sandbox allows a command in wd, and how, or why
// there is none.
func (c sandboxControl) Report(wd string) commands.SandboxReport {
	s := c.a.sandbox()
	p := c.a.sandboxPolicy()
	if sb := c.a.sandboxFor(wd); sb != nil {
		p = sb.Policy()
	} else if !within(wd, c.a.projectRoot()) {
		p.Writable[0] = wd
	}
	pl := p.Places(wd)
	return commands.SandboxReport{Mode: string(p.Mode), Mechanism: s.mechanism, Unavailable: s.why,
		Writable: orNone(pl.Writable), Scratch: pl.Scratch, Private: pl.Private, ReadOnly: orNone(pl.ReadOnly), Hidden: orNone(pl.Hidden),
		Hosts: orNone(p.AllowedHosts)}
}

// Run runs argv in the sandbox in wd, with the environment the agent's
// commands get, ended with its process group when ctx is.
func (c sandboxControl) Run(ctx context.Context, wd string, argv []string, in io.Reader, out, errOut io.Writer) (int, string, error) {
	sb := c.a.sandboxFor(wd)
	if sb == nil {
		if why := c.a.sandbox().why; why != "" {
			return 0, "", errors.New("no sandbox on this machine: " + why)
		}
		return 0, "", errors.New("the sandbox is off (sandbox.mode)")
	}
	tail := &tailBuffer{max: 64 << 10}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdin = wd, proc.Environ(os.Environ(), c.a.cfg.PassEnv), in
	cmd.Stdout, cmd.Stderr = io.MultiWriter(out, tail), io.MultiWriter(errOut, tail)
	cmd.SysProcAttr = proc.GroupAttr()
	cmd.Cancel = func() error { return proc.Terminate(cmd.Process.Pid, time.Second) }
	start := time.Now()
	release, err := sb.Wrap(cmd, nil)
	if err != nil {
		return 0, "", err
	}
	err = cmd.Start()
	release()
	if err == nil {
		err = cmd.Wait()
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return 0, "", err
	}
	return cmd.ProcessState.ExitCode(), sb.Explain(tail.String(), wd, start), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func orNone(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// Package sandbox confines the commands the agent runs: a Policy (what a
// command may write, what it may not see, which hosts it may reach) in,
// a wrapped command out.
//
// # Linux
//
// forge starts itself again (its own executable, with the hidden first
// argument InitArg) as the first process of new user, mount, pid, IPC and
// network namespaces, mapped to the person's own user and group. That
// process (Init) makes every mount read-only, binds the writable places
// back read-write and the protected places inside them read-only again,
// covers the credential places with empty read-only mounts, mounts a
// fresh /proc for the new pid namespace (so forge's own environment is
// out of sight), brings up the loopback interface, applies Landlock
// (write only in the writable places) and no_new_privs, and starts the
// command in a nested user and mount namespace, where every mount is
// locked: even a command running as root cannot unmount or remount its
// way out. It stays the command's parent, reaps what the command leaves
// behind and reports the command's exit (proc.WriteExit); when it exits,
// the kernel ends everything left in the pid namespace.
//
// The network namespace has only loopback. Hosts the policy allows are
// reached through an HTTP proxy forge runs outside (Proxy), which lets
// CONNECT and plain HTTP requests through by host name only; the first
// process relays a loopback port inside to the proxy's unix socket and
// sets HTTP_PROXY, HTTPS_PROXY and ALL_PROXY for the command.
//
// # macOS
//
// A Seatbelt profile (SeatbeltProfile) run through sandbox-exec.
package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Mode is how much a sandboxed command may change.
type Mode string

// The modes.
const (
	// ModeWorkspace lets a command write in the project, the temporary
	// directory and the toolchains' caches.
	ModeWorkspace Mode = "workspace-write"
	// ModeReadOnly lets it write nothing: the temporary directory and the
	// caches are private copies whose changes are thrown away.
	ModeReadOnly Mode = "read-only"
	// ModeOff runs commands unconfined.
	ModeOff Mode = "off"
)

// Modes are the modes, as the configuration spells them.
func Modes() []string { return []string{string(ModeWorkspace), string(ModeReadOnly), string(ModeOff)} }

// ParseMode reads a mode as the configuration spells it.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(s)); m {
	case ModeWorkspace, ModeReadOnly, ModeOff:
		return m, nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q: want %s", s, strings.Join(Modes(), ", "))
}

// Policy is what a sandbox allows. Paths are absolute; a path that does
// not exist is left out when a command starts.
type Policy struct {
	Mode Mode
	// Writable are the directories (or files) a command may change in
	// workspace-write mode: the project and what the configuration adds.
	// In read-only mode they are read-only.
	Writable []string
	// Caches are the temporary directory and the toolchains' caches:
	// writable in workspace-write mode; in read-only mode a private copy
	// whose changes are thrown away when the command ends, so that a
	// build or `go vet` works without changing anything.
	Caches []string
	// Private are the toolchains' caches (the Go build and module caches,
	// ~/.cache, ~/.npm...): a command sees them as they are, but what it
	// writes there goes to a copy of the sandbox's own, kept in PrivateDir
	// from one command to the next. Builds outside the sandbox read the
	// real caches, so an entry a command plants (a poisoned object in
	// GOCACHE, a changed module) never runs outside. In read-only mode
	// they are private copies like Caches; where the kernel cannot give a
	// copy, a private copy that ends with the command.
	Private []string
	// PrivateDir holds the sandbox's copies of Private; "" makes them
	// last one command only.
	PrivateDir string
	// ReadOnly are places inside the writable ones that stay read-only:
	// forge's settings, git's configuration and hooks, the scripts hooks
	// and plugins run. Within each writable directory its .forge,
	// .git/config and .git/hooks are added.
	ReadOnly []string
	// Hidden are places a command cannot see (credentials): a directory
	// looks empty, a file empty, and neither can be written.
	Hidden []string
	// HiddenNames are file-name globs of credentials (.env*, *.pem): the
	// files they match a few levels below NameRoots, outside the
	// writable directories, are hidden too.
	HiddenNames, NameRoots []string
	// AllowedHosts are the hosts a command may reach, through forge's
	// proxy (a name, or *.example.com for its subdomains); none means no
	// network at all.
	AllowedHosts []string
}

// Options are a Sandbox's inputs that tests replace.
type Options struct {
	// Executable is the program started as the sandbox's first process;
	// "" is this one (os.Executable).
	Executable string
	// Name is its argv[0]; "" is "forge".
	Name string
	// Dial connects the proxy to an allowed host; nil dials directly.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TempDir is where the proxy's socket is made; "" is os.TempDir().
	TempDir string
}

// Sandbox runs commands confined by a Policy. It is safe for concurrent
// use; Close stops its proxy.
type Sandbox struct {
	policy Policy
	opts   Options
	proxy  *proxyHolder // shared by the views of one sandbox
	guard  *gitGuard    // likewise
	names  *nameGuard   // likewise
}

// New returns a sandbox for p. It starts nothing: the proxy starts with
// the first command that needs it.
func New(p Policy, o Options) (*Sandbox, error) {
	if p.Mode == "" {
		p.Mode = ModeWorkspace
	}
	if _, err := ParseMode(string(p.Mode)); err != nil {
		return nil, err
	}
	if o.Executable == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find forge's own executable: %w", err)
		}
		o.Executable = exe
	}
	if o.Name == "" {
		o.Name = "forge"
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	for _, h := range p.AllowedHosts {
		if err := checkHostPattern(h); err != nil {
			return nil, err
		}
	}
	// The first process of every later sandbox is this program, run with
	// the person's rights: a command must not replace it.
	p.ReadOnly = append(slices.Clone(p.ReadOnly), o.Executable)
	s := &Sandbox{policy: p, opts: o, guard: newGitGuard(), names: newNameGuard()}
	s.proxy = &proxyHolder{hosts: p.AllowedHosts, dial: o.Dial, dir: o.TempDir}
	return s, nil
}

// Policy returns the sandbox's policy.
func (s *Sandbox) Policy() Policy { return s.policy }

// ReadOnly says the sandbox allows no writes at all.
func (s *Sandbox) ReadOnly() bool { return s.policy.Mode == ModeReadOnly }

// WithMode is the same sandbox (sharing its proxy) in another mode: plan
// mode's read-only sandbox.
func (s *Sandbox) WithMode(m Mode) *Sandbox {
	c := *s
	c.policy.Mode = m
	return &c
}

// WithWritable is the same sandbox with dir in the place of the writable
// directory old (the project, after the working directory moved).
func (s *Sandbox) WithWritable(old, dir string) *Sandbox {
	c := *s
	c.policy.Writable = slices.Clone(s.policy.Writable)
	if i := slices.Index(c.policy.Writable, old); i >= 0 {
		c.policy.Writable[i] = dir
	} else {
		c.policy.Writable = append(c.policy.Writable, dir)
	}
	return &c
}

// Close stops the proxy, if it runs.
func (s *Sandbox) Close() error { return s.proxy.close() }

// Finish waits, at most d, for every sandboxed command to end (forge has
// ended what they left running), sets aside the git repositories they
// made, checking those still running as things are, and returns the
// lines not yet told with a result: forge is about to exit.
func (s *Sandbox) Finish(d time.Duration) []string { return s.guard.finish(d) }

// Blocked are the hosts the proxy refused since t, oldest first.
func (s *Sandbox) Blocked(since time.Time) []string { return s.proxy.refusedSince(since) }

// proxyHolder starts the proxy on first use and keeps what it refused.
type proxyHolder struct {
	hosts []string
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	dir   string

	mu       sync.Mutex
	p        *Proxy
	sockDir  string
	dev, ino uint64 // the socket file's identity, for the relay's check
	addr     string // the proxy's loopback address (macOS)
	err      error
}

// socket returns the unix socket of the running proxy, starting it; ""
// when no host is allowed.
func (h *proxyHolder) socket() (string, error) {
	if len(h.hosts) == 0 {
		return "", nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.p != nil || h.err != nil {
		return h.sockPath(), h.err
	}
	dir, err := os.MkdirTemp(h.dir, "forge-proxy-")
	if err != nil {
		h.err = fmt.Errorf("make the proxy's directory: %w", err)
		return "", h.err
	}
	h.sockDir = dir
	l, err := net.Listen("unix", h.sockPath())
	if err != nil {
		os.RemoveAll(dir)
		h.err = fmt.Errorf("start the network proxy: %w", err)
		return "", h.err
	}
	if h.dev, h.ino, err = fileIdentity(h.sockPath()); err != nil {
		l.Close()
		os.RemoveAll(dir)
		h.err = fmt.Errorf("start the network proxy: %w", err)
		return "", h.err
	}
	h.p = NewProxy(h.hosts, h.dial)
	go h.p.Serve(l)
	return h.sockPath(), nil
}

// identity is the device and inode of the running proxy's socket.
func (h *proxyHolder) identity() (dev, ino uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dev, h.ino
}

// tcp returns the loopback address of the running proxy, starting it
// (macOS, where the command reaches it directly); "" when no host is
// allowed.
func (h *proxyHolder) tcp() (string, error) {
	if len(h.hosts) == 0 {
		return "", nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.p != nil || h.err != nil {
		return h.addr, h.err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.err = fmt.Errorf("start the network proxy: %w", err)
		return "", h.err
	}
	h.addr = l.Addr().String()
	h.p = NewProxy(h.hosts, h.dial)
	go h.p.Serve(l)
	return h.addr, nil
}

func (h *proxyHolder) sockPath() string { return filepath.Join(h.sockDir, "proxy.sock") }

func (h *proxyHolder) refusedSince(t time.Time) []string {
	h.mu.Lock()
	p := h.p
	h.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.RefusedSince(t)
}

func (h *proxyHolder) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.p == nil {
		return nil
	}
	err := h.p.Close()
	if h.sockDir != "" {
		os.RemoveAll(h.sockDir)
	}
	h.p = nil
	return err
}

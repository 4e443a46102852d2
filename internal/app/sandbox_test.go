package app

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/sandbox"
)

// TestSandboxNotice: where no sandbox can be built, the first prompt says
// so once, with the reason; the agent then gets no sandbox (Bash asks).
func TestSandboxNotice(t *testing.T) {
	a := newApp(nil, nil, nil, Options{})
	a.sbox.once.Do(func() {})
	a.sbox.why = "the kernel does not let forge create user namespaces here"
	n := a.sandboxNotice()
	if !strings.Contains(n, "no sandbox for the agent's commands: the kernel does not let forge create user namespaces here") ||
		!strings.Contains(n, "Bash asks") || strings.Contains(n, "\n") {
		t.Errorf("notice %q", n)
	}
	if again := a.sandboxNotice(); again != "" {
		t.Errorf("said twice: %q", again)
	}
	if def, ro := a.agentSandboxes(t.TempDir()); def != nil || ro != nil {
		t.Error("an agent got a sandbox that could not be built")
	}
	off := newApp(nil, nil, nil, Options{})
	off.sbox.once.Do(func() {})
	if n := off.sandboxNotice(); n != "" {
		t.Errorf("sandbox off, or working: %q", n)
	}
}

// TestSandboxPolicy: the configuration's sandbox as the policy sees it:
// the project and the temporary directory writable, the caches the
// sandbox's own copies kept in forge's state, forge's
// settings read-only, credentials (less those dropped) and agents'
// sockets hidden.
func TestSandboxPolicy(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home, "SSH_AUTH_SOCK": "/run/agent.sock", "DOCKER_HOST": "unix:///var/run/podman.sock"}
	a := newApp(nil, nil, nil, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	a.cfg = config.Config{WorkingDir: wd, SessionsDir: filepath.Join(home, "sessions"),
		Sandbox:     config.Sandbox{Mode: "read-only", Writable: []string{"/data"}, Caches: []string{home + "/.cache"}, Network: config.SandboxNetwork{Allow: []string{"go.dev"}}},
		Permissions: config.Permissions{Credentials: []string{"~/.vault-token", "!~/.npmrc", "*.pem", "id_*.key", "!.env*", ".env*", "conf/secret.txt"}}}
	p := a.sandboxPolicy()
	if p.Mode != sandbox.ModeReadOnly || !slices.Equal(p.Writable, []string{wd, "/data"}) || !slices.Contains(p.Private, home+"/.cache") || slices.Contains(p.Caches, home+"/.cache") ||
		p.PrivateDir != filepath.Join(home, ".local", "state", "forge", "sandbox-caches") ||
		!slices.Equal(p.AllowedHosts, []string{"go.dev"}) {
		t.Errorf("policy %+v", p)
	}
	for _, want := range []string{home + "/.ssh", home + "/.vault-token", home + "/sessions", "/run/agent.sock", "/var/run/podman.sock",
		filepath.Join(home, ".config", "forge", "config.yaml"), home + "/.claude/.credentials.json", home + "/.pgpass",
		filepath.Join(wd, "conf/secret.txt")} {
		if !slices.Contains(p.Hidden, want) {
			t.Errorf("hidden %q lacks %s", p.Hidden, want)
		}
	}
	for _, not := range []string{home + "/.npmrc", "*.pem", filepath.Join(home, ".config", "forge")} {
		if slices.Contains(p.Hidden, not) {
			t.Errorf("hidden %q holds %s", p.Hidden, not)
		}
	}
	if !slices.Equal(p.HiddenNames, []string{"*.pem", "id_*.key", ".env*"}) || !slices.Equal(p.NameRoots, []string{home, filepath.Dir(wd)}) {
		t.Errorf("names %q under %q", p.HiddenNames, p.NameRoots)
	}
	if !slices.Contains(p.ReadOnly, filepath.Join(home, ".config", "forge")) {
		t.Errorf("forge's configuration is not read-only: %q", p.ReadOnly)
	}
}

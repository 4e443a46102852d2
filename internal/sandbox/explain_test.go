package sandbox

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExplain(t *testing.T) {
	b := tree(t, "proj/.git/hooks/", "proj/.git/config", "tmp/", "home/.ssh/id_rsa", "outside/")
	proj := filepath.Join(b, "proj")
	s, err := New(Policy{Writable: []string{proj}, Caches: []string{filepath.Join(b, "tmp")},
		Hidden: []string{filepath.Join(b, "home/.ssh")}}, Options{Executable: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(b, "outside")
	for _, tc := range []struct {
		name, output string
		says         []string // "" for no hint
	}{
		{"touch outside", "touch: cannot touch '" + out + "/x': Read-only file system", []string{"blocked a write to " + out + "/x", "sandbox.writable", "sandbox: false"}},
		{"bash redirection", "/usr/bin/bash: line 1: " + out + "/f: Read-only file system", []string{"blocked a write to " + out + "/f"}},
		{"Go", "open " + out + "/y: read-only file system", []string{"blocked a write to " + out + "/y"}},
		{"Python", "OSError: [Errno 30] Read-only file system: '" + out + "/z'", []string{"blocked a write to " + out + "/z"}},
		{"a hook", "sh: 1: cannot create .git/hooks/pre-commit: Read-only file system", []string{proj + "/.git/hooks/pre-commit stays read-only"}},
		{"bash, a hook", "/usr/bin/bash: line 1: .git/hooks/pre-commit: Read-only file system", []string{proj + "/.git/hooks/pre-commit stays read-only"}},
		{"the host's loopback", "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server", []string{"no network"}},
		{"a hook, quoted", "touch: cannot touch '.git/hooks/pre-commit': Read-only file system", []string{proj + "/.git/hooks/pre-commit stays read-only"}},
		{"Landlock", "mkdir: cannot create directory '" + out + "/d': Permission denied", []string{"blocked a write to " + out + "/d"}},
		{"no path", "error: Read-only file system", []string{"a write was blocked"}},
		{"a key", "cat: " + b + "/home/.ssh/id_rsa: No such file or directory", []string{b + "/home/.ssh/id_rsa is hidden"}},
		{"a missing file", "cat: nothere: No such file or directory", nil},
		{"curl", "curl: (6) Could not resolve host: example.com", []string{"no network", "sandbox.network.allow (none)"}},
		{"Go's resolver", "dial tcp: lookup proxy.golang.org: no such host", []string{"no network"}},
		{"ssh", "git@github.com: Permission denied (publickey).", nil},
		{"a write in the project", "cp: cannot create regular file '" + proj + "/x': Permission denied", nil},
		{"tmux", "error connecting to /tmp/tmux-0/default (Operation not permitted)", []string{"refuses unix sockets", "sandbox: false"}},
		{"Go, a unix socket", "error: dial unix /run/x.sock: socket: operation not permitted", []string{"refuses unix sockets"}},
		{"Python, a unix socket", "PermissionError: [Errno 1] Operation not permitted", nil},
		{"psql", `psql: error: connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: Operation not permitted`, []string{"refuses unix sockets"}},
		{"kill", "kill: (1) - Operation not permitted", nil},
		{"nothing", "ok\nPASS", nil},
		{"the write wins", "curl: (6) Could not resolve host: x\ntouch: cannot touch '" + out + "/x': Read-only file system", []string{"blocked a write"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := s.Explain(tc.output, proj, time.Now())
			if len(tc.says) == 0 {
				if got != "" {
					t.Errorf("got %q, want no hint", got)
				}
				return
			}
			if !strings.HasPrefix(got, "[sandbox] ") || strings.Contains(got, "\n") {
				t.Errorf("got %q, want one line starting [sandbox]", got)
			}
			for _, w := range tc.says {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want it to say %q", got, w)
				}
			}
		})
	}
	ro := s.WithMode(ModeReadOnly)
	if got := ro.Explain("touch: cannot touch 'x': Read-only file system", proj, time.Now()); !strings.Contains(got, "read-only here") {
		t.Errorf("read-only mode: %q", got)
	}
}

// FuzzExplain: no output makes Explain crash or say more than one line.
func FuzzExplain(f *testing.F) {
	for _, seed := range []string{"touch: cannot touch '/x': Read-only file system", "cat: /h/.ssh/k: No such file or directory",
		"curl: (6) Could not resolve host: x", "'': Read-only file system", "/: Permission denied write", "\xff/\x00"} {
		f.Add(seed)
	}
	s, err := New(Policy{Writable: []string{"/nonexistent-project"}, Hidden: []string{"/nonexistent-home/.ssh"}}, Options{Executable: "/x"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, out string) {
		if got := s.Explain(out, "/nonexistent-project", time.Now()); strings.Contains(got, "\n") {
			t.Errorf("%q: more than one line: %q", out, got)
		}
	})
}

//go:build unix

package config

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// runsProject is a project whose settings make forge run files outside
// .forge: MCP servers' scripts, plugins and a hook's script.
const runsProject = `plugin_dirs: [plugins]
mcp:
  servers:
    node: {command: node, args: [./tools/server.js]}
    py: {command: python, args: [-m, srv], cwd: mcp}
    bin: {command: ./bin/srv}
    remote: {url: "https://mcp.example.com/mcp"}
hooks:
  PreToolUse:
    - matcher: Bash
      hooks: [{type: command, command: "cd hooks && python3 -m guard"}]
`

// Trust covers what the project makes forge run: changing, adding or
// removing any of it changes the hash, as a change under .forge does;
// other files of the repository do not.
func TestProjectHashCoversWhatRuns(t *testing.T) {
	f, _ := projectFixture(t, "", runsProject)
	for name, content := range map[string]string{
		"tools/server.js":       "serve()\n",
		"mcp/srv/__main__.py":   "serve()\n",
		"bin/srv":               "#!/bin/sh\n",
		"plugins/count.yaml":    "name: count\ndescription: Count.\ncommand: ./count.sh\n",
		"plugins/count.sh":      "wc\n",
		"plugins/lint.yml":      "name: lint\ndescription: Lint.\ncommand: [python3, lint.py]\n",
		"lint.py":               "lint()\n",
		"hooks/guard.py":        "guard()\n",
		"src/main.go":           "package main\n",
		"plugins/notes/README":  "not read by forge\n",
		"tools/other-script.js": "unrelated()\n",
	} {
		f.write(name, content)
	}
	hash := func() string {
		t.Helper()
		h, err := ProjectHash(f.cwd, f.home)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	tests := []struct {
		name    string
		change  func()
		changes bool
	}{
		{"an MCP server's script", func() { f.write("tools/server.js", "steal()\n") }, true},
		{"an MCP server's python -m package, from its cwd", func() { f.write("mcp/srv/__main__.py", "steal()\n") }, true},
		{"a module created where python -m looks first", func() { f.write("mcp/srv.py", "steal()\n") }, true},
		{"an MCP server's program", func() { f.write("bin/srv", "#!/bin/sh\nsteal\n") }, true},
		{"a plugin manifest", func() { f.write("plugins/count.yaml", "name: count\ndescription: Count all.\ncommand: ./count.sh\n") }, true},
		{"a new plugin manifest", func() { f.write("plugins/new.yaml", "name: new\ndescription: New.\ncommand: ./x\n") }, true},
		{"a plugin's program", func() { f.write("plugins/count.sh", "steal\n") }, true},
		{"a plugin's script, from the project's root", func() { f.write("lint.py", "steal()\n") }, true},
		{"a hook's script after cd, as python -m", func() { f.write("hooks/guard.py", "steal()\n") }, true},
		{"a removed script", func() { os.Remove(filepath.Join(f.cwd, "tools", "server.js")) }, true},
		{"the repository's code", func() { f.write("src/main.go", "package main // changed\n") }, false},
		{"a file in a plugin's subdirectory", func() { f.write("plugins/notes/README", "changed\n") }, false},
		{"a script nothing names", func() { f.write("tools/other-script.js", "changed()\n") }, false},
	}
	for _, tt := range tests {
		before := hash()
		tt.change()
		if changed := hash() != before; changed != tt.changes {
			t.Errorf("%s: hash changed = %v, want %v", tt.name, changed, tt.changes)
		}
	}
}

// A trusted project whose MCP server script changes is not trusted any
// more; its server, trusted, runs at the project's root, where the hash
// looked, also when forge starts in a subdirectory.
func TestProjectTrustEndsWhenAScriptChanges(t *testing.T) {
	f, _ := projectFixture(t, "", runsProject)
	f.write("tools/server.js", "serve()\n")
	sub := f.mkdir("sub")
	trusted, err := ProjectHash(f.cwd, f.home)
	if err != nil {
		t.Fatal(err)
	}
	src := f.source("")
	src.Getwd = func() (string, error) { return sub, nil }
	src.Trusted = func(string) (string, bool) { return trusted, true }
	c, err := Load(src)
	if err != nil || !c.Project.Trusted {
		t.Fatalf("trusted as is: %v %+v", err, c.Project)
	}
	if got := c.MCP.Servers["node"].Cwd; got != f.cwd {
		t.Errorf("the project's server runs in %q, want the project's root %q", got, f.cwd)
	}
	if got, want := c.MCP.Servers["py"].Cwd, filepath.Join(f.cwd, "mcp"); got != want {
		t.Errorf("the project's server with cwd: mcp runs in %q, want %q", got, want)
	}
	f.write("tools/server.js", "steal()\n")
	if c, err = Load(src); err != nil || c.Project.Trusted || !c.Project.Changed || len(c.MCP.Servers) != 0 {
		t.Errorf("a changed MCP script is still trusted: %v %+v, servers %v", err, c.Project, c.MCP.Servers)
	}
	wantContains(t, c.Project.Warning(), "changed since you trusted it", "mcp.servers.node")
}

// A project that names a directory holding itself (go run ., plugin_dirs:
// [.]) is hashed by its .forge and named scripts, not read whole.
func TestProjectHashSkipsTheProjectItself(t *testing.T) {
	f, _ := projectFixture(t, "", "plugin_dirs: [.]\nhooks:\n  Stop:\n    - hooks: [{type: command, command: go run .}]\n")
	big := f.write("data.bin", "")
	if err := os.Truncate(big, maxHashedBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := ProjectHash(f.cwd, f.home); err != nil {
		t.Errorf("ProjectHash read the whole project: %v", err)
	}
}

// A plugin directory holding a FIFO named like a manifest does not hang
// the hash.
func TestProjectHashDoesNotWaitOnAFIFO(t *testing.T) {
	f, _ := projectFixture(t, "", "plugin_dirs: [plugins]\n")
	f.mkdir("plugins")
	if err := syscall.Mkfifo(filepath.Join(f.cwd, "plugins", "x.yaml"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ProjectHash(f.cwd, f.home); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ProjectHash waits on a FIFO")
	}
}

// A module a trusted project's server imports, or a library its hook
// sources, changed behind the person's back ends the trust as a change of
// the entry script does; a module outside the project is not hashed.
func TestProjectHashCoversWhatScriptsLoad(t *testing.T) {
	f, _ := projectFixture(t, "", `mcp:
  servers:
    py: {command: python3, args: [tools/srv.py]}
hooks:
  PostToolUse:
    - hooks: [{type: command, command: "bash scripts/fmt.sh"}]
`)
	f.write("tools/srv.py", "import helper\nimport os\n")
	f.write("tools/helper.py", "def ok(): pass\n")
	f.write("scripts/fmt.sh", "source scripts/lib.sh\n")
	f.write("scripts/lib.sh", "fmt_all() { :; }\n")
	f.write("unrelated.txt", "a\n")
	before, err := ProjectHash(f.cwd, f.home)
	if err != nil {
		t.Fatal(err)
	}
	f.write("unrelated.txt", "b\n")
	if same, _ := ProjectHash(f.cwd, f.home); same != before {
		t.Errorf("a file no script loads changed the hash")
	}
	for _, tt := range []struct{ file, body string }{
		{"tools/helper.py", "def ok(): steal()\n"},
		{"scripts/lib.sh", "fmt_all() { cat ~/.ssh/id_rsa; }\n"},
	} {
		f.write(tt.file, tt.body)
		after, err := ProjectHash(f.cwd, f.home)
		if err != nil {
			t.Fatal(err)
		}
		if after == before {
			t.Errorf("changing %s left the hash as it was", tt.file)
		}
		before = after
	}
}

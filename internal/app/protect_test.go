package app

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/forgehq/forge/internal/config"
)

// protectApp is an App of a project at project, working in its sub
// directory, with home and the process's directory given.
func protectApp(project, home string, cfg config.Config) *App {
	env := map[string]string{"HOME": home}
	cfg.WorkingDir = filepath.Join(project, "sub")
	cfg.ProjectDir = project
	cfg.Project = config.Project{File: filepath.Join(project, ".forge", "config.yaml")}
	return &App{opts: Options{
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd:     func() (string, error) { return project, nil },
	}, cfg: cfg}
}

// The file a hook really runs is protected, whatever form its command
// takes, from the directory the hook runs in: the project's root for the
// project's hooks, the working directory for the person's.
func TestHookScripts(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	projectFile := filepath.Join(project, ".forge", "config.yaml")
	userFile := filepath.Join(home, ".config", "forge", "config.yaml")
	tests := []struct {
		command string
		file    string // the file that configures the hook
		want    []string
	}{
		{"./x.sh", projectFile, []string{project + "/x.sh"}},
		{"bash tools/x.sh", projectFile, []string{project + "/tools/x.sh"}},
		{"python3 -m mod", projectFile, []string{project + "/mod.py", project + "/mod"}},
		{"python3 -m mod", userFile, []string{project + "/sub/mod.py", project + "/sub/mod"}},
		{"cd tools && ./x", projectFile, []string{project + "/tools/x"}},
		{"node dir/x.js", projectFile, []string{project + "/dir/x.js"}},
		{"uv run x.py", projectFile, []string{project + "/x.py"}},
		{`sh -c 'cd hooks; python3 guard.py'`, projectFile, []string{project + "/hooks/guard.py"}},
		{`python3 "$FORGE_PROJECT_DIR"/missing.py`, userFile, []string{project + "/missing.py"}},
		{"~/bin/check.sh", userFile, []string{home + "/bin/check.sh"}},
		// The system's interpreters and directories holding the work are not.
		{`cd ./ && ls / . && /bin/sh "tools/guard.sh"`, projectFile, []string{project + "/tools/guard.sh"}},
		{"go run .", projectFile, nil},
		{"echo done > /dev/null", projectFile, nil},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			a := protectApp(project, home, config.Config{Hooks: []config.Hook{{Event: "PreToolUse", Command: tt.command, File: tt.file}}})
			got := a.narrow(a.hookScripts())
			if !slices.Equal(got, tt.want) {
				t.Errorf("hook %q protects %q, want %q", tt.command, got, tt.want)
			}
			if all := a.protectedPaths(); !containsAll(all, tt.want) {
				t.Errorf("protectedPaths = %q, want it to hold %q", all, tt.want)
			}
		})
	}
}

// The plugin directories, their manifests and the programs the manifests
// name are protected; so are the scripts of configured MCP servers, and
// git's configuration.
func TestProtectedPaths(t *testing.T) {
	project, home, plugins := t.TempDir(), t.TempDir(), t.TempDir()
	writeFiles(t, plugins, map[string]string{
		"count.yaml": "name: count\ndescription: Count.\ncommand: ./count.sh\n",
		"lint.yaml":  "name: lint\ndescription: Lint.\ncommand: [python3, -m, lintkit]\n",
		"count.sh":   "exit 0\n",
	})
	writeFiles(t, project, map[string]string{"sub/.keep": ""})
	a := protectApp(project, home, config.Config{
		PluginDirs: []string{plugins, project},
		MCP: config.MCP{Servers: map[string]config.MCPServer{
			"node":   {Command: "node", Args: []string{"./tools/server.js"}},
			"py":     {Command: "python", Args: []string{"-m", "srv"}, Cwd: filepath.Join(project, "mcp")},
			"bin":    {Command: "./bin/srv"},
			"remote": {URL: "https://mcp.example.com/mcp"},
			"npx":    {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"}},
		}},
	})
	got := a.protectedPaths()
	want := []string{
		plugins, filepath.Join(plugins, "count.yaml"), filepath.Join(plugins, "count.sh"), filepath.Join(plugins, "lint.yaml"),
		filepath.Join(project, "sub", "lintkit.py"), filepath.Join(project, "sub", "lintkit"),
		filepath.Join(project, "tools", "server.js"), filepath.Join(project, "mcp", "srv.py"), filepath.Join(project, "mcp", "srv"),
		filepath.Join(project, "bin", "srv"),
		filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git"), filepath.Join(home, ".claude.json"),
	}
	if !containsAll(got, want) {
		t.Errorf("protectedPaths = %q\nwant it to hold %q", got, want)
	}
	for _, p := range got {
		if p == project || p == home || p == "/" || p == a.cfg.WorkingDir {
			t.Errorf("protectedPaths holds %q, which would make every edit ask", p)
		}
	}
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// What a hook's or a server's script loads is protected too, not only the
// script: a library it sources, a module it imports beside it, the
// script's whole directory (for what it loads through a variable), and
// the node_modules whose programs a package.json's scripts run. The
// directory of a script at the root of the work is not: every edit would
// ask.
func TestProtectedPathsCoverWhatScriptsLoad(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFiles(t, project, map[string]string{
		"sub/.keep":       "",
		"scripts/fmt.sh":  "source scripts/lib.sh\nfmt_all\n",
		"scripts/lib.sh":  "fmt_all() { :; }\n",
		"tools/srv.py":    "import helper\n",
		"tools/helper.py": "",
		"guard.py":        "from checks import rules\n",
		"package.json":    `{"scripts": {"lint": "eslint ."}}`,
	})
	a := protectApp(project, home, config.Config{
		Hooks: []config.Hook{
			{Event: "PostToolUse", Command: "bash scripts/fmt.sh", File: filepath.Join(project, ".forge", "config.yaml")},
			{Event: "PreToolUse", Command: "python3 guard.py", File: filepath.Join(project, ".forge", "config.yaml")},
			{Event: "Stop", Command: "npm run lint", File: filepath.Join(project, ".forge", "config.yaml")},
		},
		MCP: config.MCP{Servers: map[string]config.MCPServer{"py": {Command: "python3", Args: []string{"tools/srv.py"}}}},
	})
	got := a.protectedPaths()
	at := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(project, n))
		}
		return out
	}
	if want := at("scripts/lib.sh", "scripts", "tools/helper.py", "tools", "checks.py", "checks", "node_modules"); !containsAll(got, want) {
		t.Errorf("protectedPaths = %q\nwant it to hold %q", got, want)
	}
	if slices.Contains(got, project) {
		t.Errorf("protectedPaths holds the project's root: every edit would ask")
	}
}

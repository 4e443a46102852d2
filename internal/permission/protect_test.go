package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// protectFixture is a project with forge's settings, a hook script, a git
// repository and a link into its .git, and a home with forge's
// configuration.
type protectFixture struct {
	wd, home, conf string
	env            map[string]string
}

func newProtectFixture(t *testing.T) protectFixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fx := protectFixture{wd: filepath.Join(base, "proj"), home: filepath.Join(base, "home")}
	fx.conf = filepath.Join(fx.home, ".config", "forge")
	for _, d := range []string{"proj/.git/hooks", "proj/src", "proj/hooks", "home/.config/forge"} {
		must(t, os.MkdirAll(filepath.Join(base, d), 0o755))
	}
	must(t, os.Symlink(".git", filepath.Join(fx.wd, "gitlink")))
	fx.env = map[string]string{"HOME": fx.home, "XDG_CONFIG_HOME": filepath.Join(fx.home, ".config"), "D": ".git"}
	return fx
}

func (fx protectFixture) policy(t *testing.T, mode Mode, allow []string) *Policy {
	t.Helper()
	p, err := New(Config{Mode: mode, WorkingDir: fx.wd, Home: fx.home, Allow: allow,
		Protected: []string{fx.conf, filepath.Join(fx.wd, "hooks", "guard.sh")},
		Getenv: func(name string) (string, bool) {
			v, ok := fx.env[name]
			return v, ok
		}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProtectedSpellings: a shell line naming forge's settings, a hook's
// script or a repository's .git control files asks, however the shell
// would spell the path: through the environment, a cd before, .., //,
// globs, a variable the line sets, a loop, a link.
func TestProtectedSpellings(t *testing.T) {
	fx := newProtectFixture(t)
	allow := []string{"Bash(cp:*)", "Bash(cd:*)", "Bash(cat:*)", "Bash(ls:*)", "Bash(echo:*)", "Bash(printf:*)", "Bash(git:*)", "Bash(forge:*)"}
	protected := []string{
		"cp x .forge/settings.json", "cp x .forg?/settings.json", "cp x .f*/settings.json", "cp x .[f]orge/x",
		"shopt -s dotglob; cp x */settings.json", "GLOBIGNORE=x; cp x */settings.json",
		"shopt -s nocaseglob; cp x .FORG[E]/", "cp x {.fo\"r\"ge/config.yaml,}", "dd if=x of=.fo\"r\"ge/config.yaml",
		"dd if=x of=~/.config/forge/config.yaml", "forge {trust,.}", "{fo\"r\"ge,trust} .", "echo trust . | xargs forge",
		"./fo?ge trust .", "git status # \\\nforge trust", "git config core.fsmonitor 'touch x'",
		"git config --global alias.st '!touch x'", "git -C . config --add core.pager less", "git remote add o ext::sh",
		"git lfs install", "pre-commit install", "git $(printf config) core.pager x",
		"cp x .forg[[:alpha:]]/", "cp -ft.forge x", "install -Dt.forge x", "ln -sft.git/hooks x",
		"curl -so.forge/config.yaml file:///x", "git -c alias.c=config c core.fsmonitor x", "git -C . -c x=y status",
		"GIT_TEMPLATE_DIR=tpl git init", "/usr/lib/git-core/git-config core.fsmonitor x", "cp x {hooks/guard.sh,}",
		"CDPATH=~/.config; cd forge && cp x config.yaml", "cp x .fo\"r\"ge/config.yaml\n(",
		"IFS=Z; x=config.yamlZ.forge; cp $x", "cp config.yaml${IFS}.forge",
		"cp x ~/.config/forge/config.yaml", `cp x "$HOME/.config/forge/config.yaml"`, "cp x ${HOME}//.config/./forge/x",
		"cp x $XDG_CONFIG_HOME/forge/config.yaml", "cp x $XDG_CONFIG_HOME/forg?/config.yaml",
		"cd .git && cp x config", "cd src && cp x ../.git/config", "cp x src/../.git/hooks/pre-commit",
		"d=.git; cp x $d/config", "cp x .gi?/co*", "cp x ./.git//config", "for f in .git/config; do cp x $f; done",
		"cp x gitlink/config", "cp x $D/config", "cp x --target-directory=.git/hooks", "cp -t.git/hooks x",
		"cp x hooks/guard.sh", "cd hooks; cp x guard.sh", "cd src; cd ../hooks; cp x guard*",
		`"for"ge trust .`, `\forge trust`, "/usr/local/bin/forge -C x trust", "f=forge; $f trust",
		"cat < .git/config", "cp x .git/config.worktree", "cat .git/HEAD", "echo x > .git/commondir", "cd; cp x .config/forge/config.yaml",
		"ls ~/.config/forge/", "echo hi > ~/.config/forge/x", "forge -v -c=/undo", "forge --help trust",
	}
	for _, mode := range []Mode{ModeAsk, ModeAutoEdit, ModeYolo} {
		p := fx.policy(t, mode, allow)
		for _, line := range protected {
			if v := p.Decide(bash(line)); v.Decision != Ask || !v.Protected || len(v.Always) > 0 {
				t.Errorf("%s: Decide(%q) = %s (%s), want a protected question", mode, line, v.Decision, v.Reason)
			}
		}
	}
	p := fx.policy(t, ModeAsk, allow)
	for _, line := range []string{
		"cp x src/a.go", "cat .gitignore", "ls .github/workflows", "echo config", "cp x git/config", "ls *",
		"cp x src/*.go", "cd src && cp x a.go", "echo $HOME", "ls ~/.config", "cp x hooks/other.sh", "cat .github/x .gitignore",
		"git config --get user.name", "git config --list", "git remote -v", "forge -v", "forge --version", "forge version",
	} {
		if v := p.Decide(bash(line)); v.Decision != Allow {
			t.Errorf("Decide(%q) = %s (%s), want allow", line, v.Decision, v.Reason)
		}
	}
}

// TestUnresolvedPathsAsk: where forge cannot resolve a word that could
// name a protected place, a line rules would allow is asked about, and
// yolo runs it.
func TestUnresolvedPathsAsk(t *testing.T) {
	fx := newProtectFixture(t)
	allow := []string{"Bash(cp:*)", "Bash(printf:*)", "Bash(echo:*)", "Bash(cd:*)", "Bash(tar:*)", "Bash(git:*)", "Bash(rsync:*)"}
	lines := []string{"cp -r payload/. .", "tar -xf payload.tar", "git apply evil.patch", "cp -a x ~", "rsync -a x/ ./",
		"git checkout -q evil", "git reset --hard evil", "git merge --ff-only evil", "git stash pop",
		"cp x $(printf .forg)e/config", "cd src; cd ..; cp x $OLDPWD/config", "cp x $REPLY", "cd $(printf .fo)rge; cp x config", "cp x $1"}
	p := fx.policy(t, ModeAsk, allow)
	for _, line := range lines {
		v := p.Decide(bash(line))
		if v.Decision != Ask || !strings.Contains(v.Reason, "cannot tell which file") || len(v.Always) > 0 {
			t.Errorf("Decide(%q) = %s (%s), want a question naming the word", line, v.Decision, v.Reason)
		}
		if r := p.SuggestRule(bash(line)); r != nil {
			t.Errorf("SuggestRule(%q) = %q, want none: a rule would not stop the question", line, r)
		}
	}
	y := fx.policy(t, ModeYolo, nil)
	for _, line := range lines {
		if v := y.Decide(bash(line)); v.Decision != Allow {
			t.Errorf("yolo Decide(%q) = %s (%s), want allow", line, v.Decision, v.Reason)
		}
	}
	if v := p.Decide(bash(`cp x "src/$(printf a).go"`)); v.Decision != Allow {
		t.Errorf("a word known to be under src: %s (%s), want allow", v.Decision, v.Reason)
	}
	// unquoted, the shell may split it into an option and other paths
	if v := p.Decide(bash("cp x src/$(printf a).go")); v.Decision != Ask {
		t.Errorf("a word the shell may split: %s (%s), want ask", v.Decision, v.Reason)
	}
}

// TestProtectedGitEdits: the edit tools ask before changing what git runs.
func TestProtectedGitEdits(t *testing.T) {
	fx := newProtectFixture(t)
	p := fx.policy(t, ModeAutoEdit, []string{"Edit", "Write"})
	for _, path := range []string{".git/config", ".git/hooks/pre-commit", "sub/.git/config", "gitlink/config", ".GIT/config"} {
		v := p.Decide(Call{Tool: "Edit", Args: tools.Args{"file_path": path}, EditsFiles: true})
		if v.Decision != Ask || !v.Protected {
			t.Errorf("Edit(%s) = %s (%s), want a protected question", path, v.Decision, v.Reason)
		}
	}
	if v := p.Decide(Call{Tool: "Edit", Args: tools.Args{"file_path": ".gitignore"}, EditsFiles: true}); v.Decision != Allow {
		t.Errorf("Edit(.gitignore) = %s (%s), want allow", v.Decision, v.Reason)
	}
}

// Claude Code's project files are forge's settings too: an edit of them
// (allow rules, hooks, MCP servers) asks in every mode, as .forge's does.
func TestProtectedClaudeEdits(t *testing.T) {
	fx := newProtectFixture(t)
	p := fx.policy(t, ModeYolo, []string{"Edit", "Write"})
	for _, path := range []string{".claude/settings.json", ".claude/settings.local.json", ".Claude/commands/x.md",
		"sub/.claude/skills/s/SKILL.md", ".mcp.json", "sub/.MCP.json"} {
		v := p.Decide(Call{Tool: "Write", Args: tools.Args{"file_path": path}, EditsFiles: true})
		if v.Decision != Ask || !v.Protected {
			t.Errorf("Write(%s) = %s (%s), want a protected question", path, v.Decision, v.Reason)
		}
	}
	for _, line := range []string{"echo '{}' > .mcp.json", "cp evil.json .claude/settings.json"} {
		v := p.Decide(Call{Tool: "Bash", Args: tools.Args{"command": line}})
		if v.Decision != Ask || !v.Protected {
			t.Errorf("Bash(%s) = %s (%s), want a protected question", line, v.Decision, v.Reason)
		}
	}
	if v := p.Decide(Call{Tool: "Edit", Args: tools.Args{"file_path": "claude.md"}, EditsFiles: true}); v.Decision != Allow {
		t.Errorf("Edit(.gitignore) = %s (%s), want allow", v.Decision, v.Reason)
	}
}

func TestCouldName(t *testing.T) {
	for _, tc := range []struct {
		pattern, target string
		dots, want      bool
	}{
		{"/p/.forge/x", "/p/.forge", false, true},
		{"/p/.forge", "/p/.forge", false, true},
		{"/p/.forgery", "/p/.forge", false, false},
		{"/p/*", "/p/.forge", false, false},
		{"/p/*", "/p/.forge", true, true},
		{"/p/.*", "/p/.forge", false, true},
		{"/p/?forge", "/p/.forge", false, false},
		{"/p/[.]forge", "/p/.forge", false, false}, // bash matches a leading dot only by a dot
		{"/p/[.]forge", "/p/.forge", true, true},
		{"/p/.FORG[E]", "/p/.forge", true, true}, // nocaseglob
		{"/p/.FORG[E]", "/p/.forge", false, false},
		{"/P/.forg[e]", "/p/.forge", true, false}, // a literal directory keeps its case
		{"/p/.[f]orge", "/p/.forge", false, true},
		{"/p/*/config", "/p/.git/config", false, false},
		{"/p/.g*/c*", "/p/.git/config", false, true},
		{"/p/\x00", "/p/.git/config", false, true},
		{"/p/\x00/x", "/p/.forge", false, true},
		{"/q/\x00", "/p/.forge", false, false},
		{"\x00", "/p/.forge", false, true},
		{"/p/src/\x00.go", "/p/.forge", false, false},
		{`/p/\*`, "/p/*", false, true},
		{`/p/\*`, "/p/a", false, false},
	} {
		if got := couldName(parseGlob(tc.pattern), tc.target, tc.dots); got != tc.want {
			t.Errorf("couldName(%q, %q, dots %v) = %v, want %v", tc.pattern, tc.target, tc.dots, got, tc.want)
		}
	}
}

// TestShellCredentials: a shell line naming a file where credentials are
// kept asks in every mode but yolo, however it spells the path.
func TestShellCredentials(t *testing.T) {
	fx := newProtectFixture(t)
	must(t, os.MkdirAll(filepath.Join(fx.home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(fx.home, ".ssh", "id_rsa"), []byte("KEY"), 0o600))
	must(t, os.Symlink(filepath.Join(fx.home, ".ssh"), filepath.Join(fx.wd, "keys")))
	allow := []string{"Bash(cat:*)", "Bash(cd:*)", "Bash(base64:*)", "Bash(ls:*)", "Bash(grep:*)"}
	lines := []string{
		"cat ~/.ssh/id_rsa", "cat $HOME/.aws/credentials", "cd ~/.ssh && cat id_rsa", "cat ~/.ss?/id*",
		"base64 < ~/.ssh/id_rsa", "cat ../other/.env", "cat keys/id_rsa", "cat ~/.netrc", "cat ~/.config/gh/hosts.yml",
		"cat x${IFS}$HOME/.ssh/id_rsa", "cat x$PS4$HOME/.ssh/id_rsa", "cat ~/.ss[[:alpha:]]/id_rsa", "cat ../other/.en?",
		"cat ../other/.e*", "cat ../other/.[e]nv",
	}
	for _, mode := range []Mode{ModeAsk, ModeAutoEdit, ModeYolo} {
		p, err := New(Config{Mode: mode, WorkingDir: fx.wd, Home: fx.home, Allow: allow, Credentials: DefaultCredentials(),
			Getenv: func(name string) (string, bool) { v, ok := fx.env[name]; return v, ok }})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range lines {
			v := p.Decide(bash(line))
			switch {
			case mode == ModeYolo && v.Decision != Allow:
				t.Errorf("yolo: Decide(%q) = %s (%s), want allow", line, v.Decision, v.Reason)
			case mode != ModeYolo && (v.Decision != Ask || !strings.Contains(v.Reason, "credentials")):
				t.Errorf("%s: Decide(%q) = %s (%s), want a question about credentials", mode, line, v.Decision, v.Reason)
			}
		}
		for _, line := range []string{"cat ~/.sshrc", "cat .env", "ls ~", "grep -r TODO src"} {
			if v := p.Decide(bash(line)); v.Decision != Allow {
				t.Errorf("%s: Decide(%q) = %s (%s), want allow", mode, line, v.Decision, v.Reason)
			}
		}
	}
}

// TestSandboxedCalls: a command that runs in the sandbox needs no question
// unless a deny or ask rule could match it; leaving the sandbox always
// asks but in yolo; plan mode runs only the read-only sandbox.
func TestSandboxedCalls(t *testing.T) {
	fx := newProtectFixture(t)
	sandboxed := func(line string, level Sandbox) Call {
		c := bash(line)
		c.Sandbox = level
		return c
	}
	for _, tc := range []struct {
		name      string
		mode      Mode
		ask, deny []string
		call      Call
		want      Decision
		reason    string
	}{
		{"sandboxed runs", ModeAsk, nil, nil, sandboxed("go test ./... && gofmt -l .", SandboxWorkspace), Allow, "runs in the sandbox"},
		{"even what would name forge's settings", ModeAsk, nil, nil, sandboxed("echo x >> .git/config", SandboxWorkspace), Allow, ""},
		{"deny rule", ModeAsk, nil, []string{"Bash(rm:*)"}, sandboxed("rm -rf build", SandboxWorkspace), Deny, "denied by rule"},
		{"ask rule", ModeAsk, []string{"Bash(git push:*)"}, nil, sandboxed("git -C x push", SandboxWorkspace), Ask, "asked by rule Bash(git push:*)"},
		{"ask rule in auto-edit", ModeAutoEdit, []string{"Bash(git push:*)"}, nil, sandboxed("git push", SandboxWorkspace), Ask, "asked by rule"},
		{"ask rule not in yolo", ModeYolo, []string{"Bash(git push:*)"}, nil, sandboxed("git push", SandboxWorkspace), Allow, ""},
		{"what a deny rule cannot see", ModeAsk, nil, []string{"Bash(rm:*)"}, sandboxed(`eval "$X"`, SandboxWorkspace), Ask, "cannot tell"},
		{"plan runs the read-only sandbox", ModePlan, nil, nil, sandboxed("git log", SandboxReadOnly), Allow, "read-only sandbox"},
		{"plan refuses the writable sandbox", ModePlan, nil, nil, sandboxed("git log", SandboxWorkspace), Deny, "plan mode"},
		{"unsandboxed asks as before", ModeAsk, nil, nil, bash("go test ./..."), Ask, "no rule allows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(Config{Mode: tc.mode, WorkingDir: fx.wd, Home: fx.home, Ask: tc.ask, Deny: tc.deny})
			if err != nil {
				t.Fatal(err)
			}
			v := p.Decide(tc.call)
			if v.Decision != tc.want || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("Decide = %s (%s), want %s containing %q", v.Decision, v.Reason, tc.want, tc.reason)
			}
		})
	}
	leave := bash("curl https://example.com")
	leave.Sandbox, leave.LeavesSandbox = SandboxWorkspace, true
	for _, mode := range []Mode{ModeAsk, ModeAutoEdit, ModePlan} {
		p, _ := New(Config{Mode: mode, WorkingDir: fx.wd, Allow: []string{"Bash"}})
		if v := p.Decide(leave); mode != ModePlan && (v.Decision != Ask || !strings.Contains(v.Reason, "outside the sandbox")) ||
			mode == ModePlan && v.Decision != Deny {
			t.Errorf("%s: leaving the sandbox: %s (%s)", mode, v.Decision, v.Reason)
		}
	}
	p, _ := New(Config{Mode: ModeYolo, WorkingDir: fx.wd})
	if v := p.Decide(leave); v.Decision != Allow {
		t.Errorf("yolo: leaving the sandbox: %s (%s)", v.Decision, v.Reason)
	}
}

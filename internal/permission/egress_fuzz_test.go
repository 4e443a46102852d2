package permission

import (
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// FuzzCredentialsAndHosts: no credentials entry, path or host panics New,
// Decide, SuggestRule or credential; every verdict has a one-line reason;
// and what "always" remembers lets the same call through next time, while
// a fresh policy in plan mode never runs unasked a call that reaches a
// credential or sends data away.
func FuzzCredentialsAndHosts(f *testing.F) {
	for _, seed := range [][3]string{
		{"~/.ssh", "~/.ssh/id_rsa", "evil.example"},
		{".env*", "$OUT/.env.local", "Example.COM."},
		{"!~/.ssh", "$HOME/.ssh/../.ssh/id", "::1"},
		{"./secrets", "secrets/k", ""},
		{"[", "keys/id[1]", "a..b"},
		{"~bob", "/", "xn--bcher-kva.example"},
		{"*.pem", "$OUT/x(1).pem", "127.0.0.1"},
	} {
		f.Add(seed[0], seed[1], seed[2], "Read")
	}
	fx := newCredFixture(f)
	f.Fuzz(func(t *testing.T, entry, path, host, tool string) {
		if len(entry)+len(path)+len(host)+len(tool) > 4000 {
			return
		}
		path = fx.expand(path)
		creds := append(DefaultCredentials(), entry)
		p, err := New(Config{Mode: ModeAsk, WorkingDir: fx.wd, Home: fx.home, Credentials: creds})
		if err != nil {
			return
		}
		p.credential(path)
		c := Call{Tool: tool, Args: tools.Args{"file_path": path}, ReadOnly: true}
		if host != "" {
			c.Hosts = []string{host}
		}
		v := p.Decide(c)
		if v.Reason == "" || strings.ContainsAny(v.Reason, "\n") {
			t.Fatalf("Decide(%s) reason %q is not one line", display(c), v.Reason)
		}
		if v.Decision == Ask && v.Always != nil {
			if slices.Contains(v.Always, tool) && host != "" {
				t.Fatalf("Decide(%s): always %q approves the tool, not the host", display(c), v.Always)
			}
			p.Remember(c)
			if again := p.Decide(c); again.Decision != Allow {
				t.Fatalf("Decide(%s) after remembering %q: %s (%s)", display(c), v.Always, again.Decision, again.Reason)
			}
		}
		plan, err := New(Config{Mode: ModePlan, WorkingDir: fx.wd, Home: fx.home, Credentials: creds})
		if err != nil {
			t.Fatal(err)
		}
		s := plan.subjectsFor(c)
		reaches := len(plan.credentialHits(c, &s)) > 0
		if pv := plan.Decide(c); pv.Decision == Allow && (reaches || host != "") {
			t.Fatalf("plan mode ran %s unasked: %s", display(c), pv.Reason)
		}
	})
}

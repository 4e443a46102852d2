package permission

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestSuggestRule(t *testing.T) {
	fx := newFixture(t)
	for _, tc := range []struct {
		name  string
		allow []string
		call  Call
		want  []string
	}{
		{"go test", nil, bash("go test ./..."), []string{"Bash(go test:*)"}},
		{"npm run runs anything: exact", nil, bash("npm run build"), []string{"Bash(npm run build)"}},
		{"npm ci", nil, bash("npm ci"), []string{"Bash(npm ci:*)"}},
		{"python: exact", nil, bash("python3 -m pytest"), []string{"Bash(python3 -m pytest)"}},
		{"sed: exact", nil, bash("sed -n 1,5p go.mod"), []string{"Bash(sed -n 1,5p go.mod)"}},
		{"find: exact", nil, bash("find . -name x"), []string{"Bash(find . -name x)"}},
		{"lone interpreter: exact", nil, bash("node"), []string{"Bash(node)"}},
		{"ls flags", nil, bash("ls -la"), []string{"Bash(ls:*)"}},
		{"path argument", nil, bash("cat README.md"), []string{"Bash(cat:*)"}},
		{"make: exact", nil, bash("make test"), []string{"Bash(make test)"}},
		{"subcommand-like argument", nil, bash("cargo build"), []string{"Bash(cargo build:*)"}},
		{"program by path", nil, bash("./gradlew build"), []string{"Bash(./gradlew build:*)"}},
		{"an option the prefix does not name is named", nil, bash("./gradlew build --info"), []string{"Bash(./gradlew build --info:*)"}},
		{"options named up to the last unknown one", nil, bash("go test -race -coverprofile=c.out -v ./..."), []string{"Bash(go test -race -coverprofile=c.out:*)"}},
		{"an expansion that may be an option", nil, bash("go test $FLAGS"), nil},
		{"an option with its value as the next word", nil, bash("sort -o /tmp/f x"), []string{"Bash(sort -o /tmp/f:*)"}},
		{"multi-command program with a flag", nil, bash("git --no-pager log -5"), []string{"Bash(git --no-pager log -5)"}},
		{"one rule per command", nil, bash("go vet ./... && go test ./... | tee log"), []string{"Bash(go vet:*)", "Bash(go test:*)", "Bash(tee log)"}}, // tee writes any file: exact
		{"destructive program gets its exact text", nil, bash("rm -rf build"), []string{"Bash(rm -rf build)"}},
		{"sudo too, and what it runs", nil, bash("sudo apt install x"), []string{"Bash(sudo apt install x)", "Bash(apt install:*)"}},
		{"duplicates once", nil, bash("go test ./a; go test ./b"), []string{"Bash(go test:*)"}},
		{"only what is not allowed yet", []string{"Bash(go vet:*)"}, bash("go vet ./... && go test ./..."), []string{"Bash(go test:*)"}},
		{"substitution forge cannot resolve: none", nil, bash("echo $(date)"), nil},
		{"substitution in a known place", nil, bash("echo x-$(date)"), []string{"Bash(echo:*)", "Bash(date:*)"}},
		{"wrapper left out", nil, bash("timeout 5 go test"), []string{"Bash(go test:*)"}},
		{"leading assignment left out", nil, bash("CGO_ENABLED=0 go build"), []string{"Bash(go build:*)"}},
		{"bash -c inner line", nil, bash("bash -c 'npm ci'"), []string{"Bash(npm ci:*)"}},
		{"runner gets its exact text", nil, bash("bash build.sh"), []string{"Bash(bash build.sh)"}},
		{"source: none", nil, bash("source .venv/bin/activate"), nil},
		{"redirect to a file: none", nil, bash("go test > out"), nil},
		{"hidden text: none", nil, bash(`eval "$X"`), nil},
		{"risky variable: none", nil, bash("PATH=/x go test"), nil},
		{"line that does not parse: none", nil, bash("echo 'x"), nil},
		{"expansion as the program: none", nil, bash("$CC -o x"), nil},
		{"word with parentheses the rule cannot say: none", nil, bash(`"a)b" x`), nil},
		{"empty line: none", nil, bash(""), nil},
		{"edit tool", nil, edit("src/a.go"), []string{"Edit"}},
		{"other tool", nil, mcp("mcp__github__create_issue", tools.Args{"title": "x"}), []string{"mcp__github__create_issue"}},
		{"MCP tool with a command", nil, mcp("mcp__shell__run", tools.Args{"command": "go test"}), []string{"mcp__shell__run(go test:*)"}},
		{"tool name no rule can say: none", nil, mcp("bad name", nil), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fx.policy(t, ModeAsk, tc.allow, nil)
			got := p.SuggestRule(tc.call)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("SuggestRule(%s) = %q, want %q", display(tc.call), got, tc.want)
			}
			v := p.Decide(tc.call)
			if v.Decision == Ask && !reflect.DeepEqual(v.Always, tc.want) {
				t.Errorf("Decide(%s).Always = %q, want %q", display(tc.call), v.Always, tc.want)
			}
			if got == nil {
				return
			}
			// Remembering the suggestion allows the call: "always" works.
			p.Remember(tc.call)
			if v := p.Decide(tc.call); v.Decision != Allow {
				t.Errorf("after Remember, Decide(%s) = %s (%s), want allow", display(tc.call), v.Decision, v.Reason)
			}
		})
	}
}

func TestRememberIsNarrow(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, nil, nil)
	added := p.Remember(bash("go test ./..."))
	if !reflect.DeepEqual(added, []string{"Bash(go test:*)"}) {
		t.Fatalf("Remember added %q", added)
	}
	for line, want := range map[string]Decision{
		"go test -run X ./pkg":      Allow,
		"go build ./...":            Ask,
		"rm -rf /":                  Ask,
		"go test ./... && rm -rf /": Ask,
		"go test > out":             Ask,
	} {
		v := p.Decide(bash(line))
		if v.Decision != want {
			t.Errorf("after remembering go test, Decide(%q) = %s (%s), want %s", line, v.Decision, v.Reason, want)
		}
		if want == Allow && (v.Rule != "Bash(go test:*)" || v.Reason != "allowed this session by rule Bash(go test:*)") {
			t.Errorf("Decide(%q) = rule %q, reason %q; want the remembered rule named", line, v.Rule, v.Reason)
		}
	}
	if again := p.Remember(bash("go test ./other")); again != nil {
		t.Errorf("remembering an allowed call again added %q", again)
	}
	if got := p.Remembered(); !reflect.DeepEqual(got, []string{"Bash(go test:*)"}) {
		t.Errorf("Remembered() = %q", got)
	}
	// Remembered rules never beat a deny rule, nor plan mode.
	d := fx.policy(t, ModeAsk, nil, []string{"Bash(go test -exec:*)"})
	d.Remember(bash("go test ./..."))
	if v := d.Decide(bash("go test -exec evil ./...")); v.Decision != Deny {
		t.Errorf("deny rule after Remember: %s, want deny", v.Decision)
	}
	pl := fx.policy(t, ModePlan, nil, nil)
	pl.Remember(edit("src/a.go"))
	if v := pl.Decide(edit("src/a.go")); v.Decision != Deny {
		t.Errorf("plan mode after Remember: %s, want deny", v.Decision)
	}
}

func TestRememberIsPerPolicy(t *testing.T) {
	fx := newFixture(t)
	a, b := fx.policy(t, ModeAsk, nil, nil), fx.policy(t, ModeAsk, nil, nil)
	a.Remember(bash("make"))
	if v := b.Decide(bash("make")); v.Decision != Ask {
		t.Errorf("a rule remembered by one session allowed a call in another: %s", v.Reason)
	}
}

// TestRememberConcurrent runs Remember and Decide side by side; the race
// detector checks the session rules' lock.
func TestRememberConcurrent(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, []string{"Bash(ls:*)"}, nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			p.Remember(bash(fmt.Sprintf("tool%d run", i)))
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				p.Decide(bash("ls && tool1 run"))
			}
		}()
	}
	wg.Wait()
	if got := len(p.Remembered()); got != 8 {
		t.Errorf("Remembered() has %d rules, want 8", got)
	}
	for i := range 8 {
		if v := p.Decide(bash(fmt.Sprintf("tool%d run x", i))); v.Decision != Allow {
			t.Errorf("tool%d: %s, want allow", i, v.Decision)
		}
	}
}

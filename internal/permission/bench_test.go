package permission

import (
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// benchRules are twenty rules of the kinds a project configures.
var benchRules = struct{ allow, deny []string }{
	allow: []string{
		"Bash(go test:*)", "Bash(go build:*)", "Bash(go vet:*)", "Bash(go list:*)", "Bash(gofmt:*)",
		"Bash(git status)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(npm run *)", "Bash(ls:*)",
		"Bash(grep:*)", "Bash(cat:*)", "Edit(src/**)", "mcp__github__*",
	},
	deny: []string{
		"Bash(rm:*)", "Bash(git push:*)", "Bash(curl:*)", "Bash(sudo:*)", "Read(*.env)", "Bash(git * --force*)",
	},
}

// BenchmarkDecideBash decides a compound Bash line against twenty rules:
// the work done before every shell command the agent runs.
func BenchmarkDecideBash(b *testing.B) {
	p, err := New(Config{Mode: ModeAsk, Allow: benchRules.allow, Deny: benchRules.deny, WorkingDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	call := Call{Tool: "Bash", Args: tools.Args{"command": "cd src && go vet ./... && go test -race $(go list ./... | grep -v /vendor/) 2>&1 | tee test.log"}}
	b.ReportAllocs()
	for b.Loop() {
		if v := p.Decide(call); v.Decision != Ask {
			b.Fatalf("decision %s", v.Decision)
		}
	}
}

// BenchmarkDecideBashSimple decides a one-command line that a rule allows.
func BenchmarkDecideBashSimple(b *testing.B) {
	p, err := New(Config{Mode: ModeAsk, Allow: benchRules.allow, Deny: benchRules.deny, WorkingDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	call := Call{Tool: "Bash", Args: tools.Args{"command": "go test -run TestX ./internal/..."}}
	b.ReportAllocs()
	for b.Loop() {
		if v := p.Decide(call); v.Decision != Allow {
			b.Fatalf("decision %s", v.Decision)
		}
	}
}

// BenchmarkSplitLine splits the compound line of BenchmarkDecideBash,
// parse included: the share of Decide the shell parser takes.
func BenchmarkSplitLine(b *testing.B) {
	var ps parsers
	line := "cd src && go vet ./... && go test -race $(go list ./... | grep -v /vendor/) 2>&1 | tee test.log"
	b.ReportAllocs()
	for b.Loop() {
		if l := ps.splitLine(line, &shellEnv{wd: "/work", home: "/home/u"}); len(l.commands) != 6 {
			b.Fatalf("%d commands", len(l.commands))
		}
	}
}

package permission

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		kind     patternKind
	}{
		{"Bash", "Bash", patternAny},
		{"  Bash  ", "Bash", patternAny},
		{"Bash(*)", "Bash(*)", patternAny},
		{"Bash(go test:*)", "Bash(go test:*)", patternPrefix},
		{"Bash( go   test :*)", "Bash(go test:*)", patternPrefix},
		{"Bash (npm run build)", "Bash(npm run build)", patternGlob},
		{"Bash(git * --help)", "Bash(git * --help)", patternGlob},
		{"Bash(echo (a) b)", "Bash(echo (a) b)", patternGlob},
		{"Bash(grep -E '[a-z' x)", "Bash(grep -E '[a-z' x)", patternGlob}, // a command glob has only *
		{"Read(*.env)", "Read(*.env)", patternGlob},
		{"Read(secrets/**)", "Read(secrets/**)", patternGlob},
		{"Edit(~/notes/**)", "Edit(~/notes/**)", patternGlob},
		{"WebFetch(domain:Example.COM.)", "WebFetch(domain:example.com)", patternDomain},
		{"WebFetch(https://api.github.com/*)", "WebFetch(https://api.github.com/*)", patternGlob},
		{"mcp__github__*", "mcp__github__*", patternAny},
		{"mcp__github__create_issue(*bug*)", "mcp__github__create_issue(*bug*)", patternGlob},
		{"mcp__*(domain:x.org)", "mcp__*(domain:x.org)", patternDomain},
		{"*", "*", patternAny},
		{"Bash(domain:x:*)", "Bash(domain:x:*)", patternPrefix}, // :* wins: a program named domain:x
	} {
		r, err := ParseRule(tc.in)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", tc.in, err)
			continue
		}
		if r.String() != tc.want || r.kind != tc.kind {
			t.Errorf("ParseRule(%q) = %q kind %d, want %q kind %d", tc.in, r.String(), r.kind, tc.want, tc.kind)
		}
	}
}

func TestParseRuleErrors(t *testing.T) {
	for _, tc := range []struct{ in, problem string }{
		{"", "the rule is empty"},
		{"   ", "the rule is empty"},
		{"(go test)", "the tool name is empty"},
		{"Bash()", "the pattern is empty; write Bash alone"},
		{"Bash(  )", "the pattern is empty"},
		{"Bash(go test", "unbalanced parentheses"},
		{"Bash)", "unbalanced parentheses"},
		{"Bash(echo ))", "unbalanced parentheses in the pattern"},
		{"Bash(echo ( x)", "unbalanced parentheses in the pattern"},
		{"Bash(:*)", "the command prefix before :* is empty"},
		{"Bash(git *:*)", "takes literal words"},
		{"Read(src:*)", "Read takes a path pattern, not a command prefix"},
		{"Bash(domain:x.org)", "Bash takes a command pattern, not a domain"},
		{"WebFetch(domain:)", "domain: takes a host name"},
		{"WebFetch(domain:*.x.org)", "domain: takes a host name"},
		{"Read([a-z)", `bad glob "[a-z"`},
		{"Read({a,b)", "bad glob"},
		{"mcp__x__y([)", "bad glob"},
		{"Ba sh", "tool names have letters, digits"},
		{"mcp.github", "tool names have letters, digits"},
		{"mcp__[x", "bad glob"},
		{"Bash(a\x00b)", "NUL"},
	} {
		_, err := ParseRule(tc.in)
		var re *RuleError
		if !errors.As(err, &re) {
			t.Errorf("ParseRule(%q) error = %v, want a *RuleError", tc.in, err)
			continue
		}
		if re.Rule != tc.in || !strings.Contains(err.Error(), tc.problem) || !strings.Contains(err.Error(), "permission rule") {
			t.Errorf("ParseRule(%q) error = %q, want it to name the rule and say %q", tc.in, err, tc.problem)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseRule(%q) error spans lines: %q", tc.in, err)
		}
	}
}

func TestRuleMatchesTool(t *testing.T) {
	for _, tc := range []struct {
		rule, tool string
		want       bool
	}{
		{"Bash", "Bash", true},
		{"Bash", "bash", false},
		{"Bash", "BashOutput", false},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__gitlab__create_issue", false},
		{"mcp__*__create_issue", "mcp__gitlab__create_issue", true},
		{"*", "plugin_tool", true},
		{"Bash*", "BashOutput", true},
		{"[RW]*", "Read", true},
		{"[RW]*", "Edit", false},
	} {
		r, err := ParseRule(tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.matchesTool(tc.tool); got != tc.want {
			t.Errorf("%s names %s = %v, want %v", tc.rule, tc.tool, got, tc.want)
		}
	}
}

// FuzzParseRule: no input panics, every error names its rule on one line,
// and a parsed rule's canonical text parses back to itself.
func FuzzParseRule(f *testing.F) {
	for _, seed := range []string{
		"Bash", "Bash(go test:*)", "Bash(git * --help)", "Read(*.env)", "Edit(~/x/**)",
		"WebFetch(domain:example.com)", "mcp__github__*", "Bash()", "Bash((", "Read([)",
		"*(x)", "Bash( a  b :*)", "x(domain:a.b:*)", "Bash(\\)", "Read({a,b})",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ParseRule(text)
		if err != nil {
			var re *RuleError
			if !errors.As(err, &re) || re.Rule != text {
				t.Fatalf("ParseRule(%q) error %v does not name the rule", text, err)
			}
			return
		}
		back, err := ParseRule(r.String())
		if err != nil {
			t.Fatalf("ParseRule(%q) = %q, which does not parse: %v", text, r.String(), err)
		}
		if back.String() != r.String() || back.kind != r.kind {
			t.Fatalf("ParseRule(%q) = %q, parsed again %q", text, r.String(), back.String())
		}
	})
}

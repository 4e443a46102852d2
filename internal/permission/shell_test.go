package permission

import (
	"reflect"
	"strings"
	"testing"
)

// describe shows a command compactly: its words (an expansion as $), then
// its marks.
func describe(c command) string {
	s := strings.ReplaceAll(joinAllow(c.words), string(wild), "$")
	switch c.unallowable {
	case "":
	case whyRedirect:
		s += " [redirect]"
	case whyHidden:
		s += " [hidden-text]"
	case whyNoParse:
		s += " [no-parse]"
	case whyDepth:
		s += " [too-deep]"
	default:
		s += " [" + c.unallowable + "]"
	}
	if c.runner {
		s += " [runner]"
	}
	if c.hidden {
		s += " [hidden]"
	}
	if c.denyOnly {
		s += " [deny-only]"
	}
	if c.wrapped != nil {
		s += " [in: " + joinAllow(c.wrapped) + "]"
	}
	return s
}

func describeLine(l shellLine) []string {
	out := []string{}
	for _, c := range l.commands {
		out = append(out, describe(c))
	}
	return out
}

func TestSplitLine(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []string
	}{
		{"simple", "go test ./...", []string{"go test ./..."}},
		{"and", "go test ./... && rm -rf /", []string{"go test ./...", "rm -rf /"}},
		{"or semicolon newline", "a || b; c\nd", []string{"a", "b", "c", "d"}},
		{"pipe and background", "a | b & c", []string{"a", "b", "c"}},
		{"subshell and block", "(cd x && make) ; { a; b; }", []string{"cd x", "make", "a", "b"}},
		{"command substitution", "echo $(whoami) `id`", []string{"echo $ $", "whoami", "id"}},
		{"nested substitution", "a $(b $(c))", []string{"a $", "b $", "c"}},
		{"process substitution", "diff <(sort a) >(tee b)", []string{"diff $ $", "sort a", "tee b"}},
		{"if for while case", "if test -f x; then rm x; fi; for f in *; do gofmt -l $f; done; while read l; do echo $l; done; case $x in a) make;; esac",
			[]string{"test -f x", "rm x", "gofmt -l $", "read l", "echo $", "make"}},
		{"function body", "f() { rm -rf /; }; f", []string{"rm -rf /", "f"}},
		{"leading assignments", "FOO=1 BAR=$(x) go test", []string{"go test", "x"}},
		{"bare assignment", "X=1", []string{}},
		{"quoting", `"go" 't'est "a b" a\ b`, []string{"go test a b a b"}},
		{"dollar single quotes", `$'\x72m' x`, []string{"$ x"}},
		{"double-quoted expansion", `echo "hi $USER"`, []string{"echo hi $"}},
		{"redirect to file", "go test > out.txt", []string{"go test [redirect]"}},
		{"append and both", "a >> log; b &> log; c >| f", []string{"a [redirect]", "b [redirect]", "c [redirect]"}},
		{"redirect to dev null and descriptors", "go test >/dev/null 2>&1; a 2>/dev/stderr; b >&2; c 3>&-", []string{"go test", "a", "b", "c"}},
		{"redirect of a block", "{ a; b; } > f; c", []string{"a [redirect]", "b [redirect]", "c"}},
		{"redirect inside substitution goes to the outer command", "echo $(a > f)", []string{"echo $", "a [redirect]"}},
		{"substitution under a redirect writes nothing itself", "echo $(a) > f", []string{"echo $ [redirect]", "a"}},
		{"dynamic redirect target", "a > $F", []string{"a [redirect]"}},
		{"dup to a file", "a >& out", []string{"a [redirect]"}},
		{"redirect alone", "> f", []string{" [redirect]"}},
		{"input redirect and heredoc", "a < in; cat <<EOF\n$(id)\nEOF", []string{"a", "cat", "id"}},
		{"quoted heredoc", "cat <<'EOF'\n$(id)\nEOF", []string{"cat"}},
		{"bash -c", "bash -c 'go test; rm x'", []string{"go test", "rm x"}},
		{"sh -ec", `sh -ec "make && make install"`, []string{"make", "make install"}},
		{"bash -o option -c", "bash -o pipefail -c 'a | b'", []string{"a", "b"}},
		{"bash -c dynamic", `bash -c "$X"`, []string{"bash -c $ [hidden-text] [hidden]"}},
		{"bash -c that does not parse", `bash -c 'echo "x'`, []string{"bash -c echo \"x [no-parse] [runner]", "echo x [no-parse] [deny-only]"}},
		{"bash script", "bash build.sh", []string{"bash build.sh [runner]"}},
		{"shell reading input", "curl x | sh", []string{"curl x", "sh [runner]"}},
		{"nested shells", `bash -c "sh -c 'rm x'"`, []string{"rm x"}},
		{"redirect of bash -c", "bash -c 'a' > f", []string{"a [redirect]"}},
		{"eval literal", "eval go test", []string{"go test"}},
		{"eval quoted", `eval "a; b"`, []string{"a", "b"}},
		{"eval dynamic", `eval "$X"`, []string{"eval $ [hidden-text] [hidden]"}},
		{"eval glob", `eval rm *`, []string{"eval rm * [hidden-text] [hidden]"}},
		{"source", "source .venv/bin/activate && . env.sh", []string{"source .venv/bin/activate [runner]", ". env.sh [runner]"}},
		{"exec", "exec go test", []string{"go test [in: exec go test]"}},
		{"exec redirect only", "exec 2>&1", []string{"exec"}},
		{"timeout and nohup", "timeout -s KILL 5 nohup go test", []string{"go test [in: timeout -s KILL 5 nohup go test]"}},
		{"env with assignments", "env -u X A=1 go test", []string{"go test [in: env -u X A=1 go test]"}},
		{"env -S", "env -S 'rm -rf /'", []string{"rm -rf /"}},
		{"nice stdbuf command builtin", "nice -n 5 stdbuf -oL command builtin make", []string{"make [in: nice -n 5 stdbuf -oL command builtin make]"}},
		{"command -v runs nothing", "command -v go", []string{"command -v go"}},
		{"wrapper with nothing to run", "timeout 5", []string{"timeout 5"}},
		{"sudo", "sudo -u root rm -rf /", []string{"sudo -u root rm -rf /", "rm -rf /"}},
		{"sudo -e edits", "sudo -e /etc/hosts", []string{"sudo -e /etc/hosts"}},
		{"xargs", "ls | xargs -n1 -I{} rm {}", []string{"ls", "xargs -n1 -I{} rm {}", "rm {}"}},
		{"find -exec", `find . -name '*.o' -exec rm {} \; -o -execdir sh -c 'x' +`, []string{"rm {}", "x", "find . -name *.o -exec rm {} ; -o -execdir sh -c x +"}},
		{"trap", "trap 'rm -f tmp' EXIT; go test", []string{"rm -f tmp", "trap rm -f tmp EXIT", "go test"}},
		{"PATH assignment", "PATH=/tmp:$PATH go test", []string{"go test [sets PATH, which changes what the command runs]"}},
		{"LD_PRELOAD", "LD_PRELOAD=x.so ls", []string{"ls [sets LD_PRELOAD, which changes what the command runs]"}},
		{"plain pager", "GIT_PAGER=cat git log", []string{"git log"}},
		{"pager running a shell", "GIT_PAGER='sh -c x' git log", []string{"git log [sets GIT_PAGER, which changes what the command runs]"}},
		{"bare PATH assignment", "PATH=/evil; go test", []string{" [sets PATH, which changes what the command runs]", "go test"}},
		{"export PATH", "export PATH=/evil:$PATH", []string{" [sets PATH, which changes what the command runs]"}},
		{"export plain", "export GOFLAGS_X=1 A=2", []string{}},
		{"env PATH", "env PATH=/x go test", []string{"go test [sets PATH, which changes what the command runs] [in: env PATH=/x go test]"}},
		{"static test clause", "[[ -f go.mod ]] && go build", []string{"go build"}},
		{"test clause with a variable", `[[ $x -eq 1 ]]`, []string{"[[ $x -eq 1 ]]"}},
		{"arithmetic", "(( i++ )); let x=1", []string{"(( i++ ))", "let x=1"}},
		{"time", "time go test", []string{"go test"}},
		{"coproc", "coproc rm x", []string{"rm x"}},
		{"select body", "select x in a b; do rm s; done", []string{"rm s"}},
		{"pipe with stderr", "go test |& tee log", []string{"go test", "tee log"}},
		{"substitution in a default", "echo ${x:-$(rm y)}", []string{"echo $", "rm y"}},
		{"substitution in arithmetic", "echo $(( a[$(rm z)] ))", []string{"echo $", "rm z"}},
		{"substitution in an array", "x=(a $(rm q))", []string{"rm q"}},
		{"substitution in local", "local x=$(rm l)", []string{"rm l"}},
		{"here-string", `read -r x <<< "$(rm h)"`, []string{"read -r x", "rm h"}},
		{"line continuation", "go te\\\nst ./...", []string{"go test ./..."}},
		{"stderr to a file", "rm x 2> err.log", []string{"rm x [redirect]"}},
		{"exec redirecting the shell", "exec > file", []string{"exec [redirect]"}},
		{"negation", "! grep -q x f", []string{"grep -q x f"}},
		{"comments", "# nothing\ngo vet # check", []string{"go vet"}},
		{"empty", "", []string{}},
		{"globs", "ls *.go ~/x {a,b}", []string{"ls *.go ~/x {a,b}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := splitLine(tc.line)
			if l.parseErr != nil {
				t.Fatalf("splitLine(%q): %v", tc.line, l.parseErr)
			}
			if got := describeLine(l); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("splitLine(%q)\n got %q\nwant %q", tc.line, got, tc.want)
			}
		})
	}
}

func TestSplitLineDenyTexts(t *testing.T) {
	for _, tc := range []struct{ line, deny string }{
		{"rm -rf /*", "rm -rf /<?>"},
		{"rm -rf ~", "rm -rf <?>"},
		{"rm -rf ~/x", "rm -rf <?>/x"},
		{"rm -rf {a,b}", "rm -rf <?>"},
		{"rm -rf '*'", "rm -rf *"}, // quoted: a literal star
		{"ls [ab]c", "ls <?>c"},
		{"ls @(a|b)", "ls <?>"},
		{"rm $DIR/x", "rm <?>/x"},
	} {
		l := splitLine(tc.line)
		if len(l.commands) != 1 {
			t.Fatalf("splitLine(%q) = %q, want one command", tc.line, describeLine(l))
		}
		if got := strings.ReplaceAll(joinDeny(l.commands[0].words), string(wild), "<?>"); got != tc.deny {
			t.Errorf("deny text of %q = %q, want %q", tc.line, got, tc.deny)
		}
	}
}

func TestSplitLineUnparsable(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"echo 'x", []string{"echo x [no-parse] [deny-only]"}},
		{"ls; rm -rf / (", []string{"ls [no-parse] [deny-only]", "rm -rf / [no-parse] [deny-only]"}},
		{"a && $(rm x", []string{"a [no-parse] [deny-only]", "rm x [no-parse] [deny-only]"}},
	} {
		l := splitLine(tc.line)
		if l.parseErr == nil {
			t.Fatalf("splitLine(%q) parsed", tc.line)
		}
		if got := describeLine(l); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitLine(%q)\n got %q\nwant %q", tc.line, got, tc.want)
		}
	}
}

func TestSplitLineDepth(t *testing.T) {
	line := "rm x"
	for range maxShellDepth + 1 {
		line = "bash -c " + shellQuote(line)
	}
	got := describeLine(splitLine(line))
	if len(got) != 1 || !strings.Contains(got[0], "[too-deep] [hidden]") {
		t.Errorf("a line nesting %d shells = %q, want one hidden command", maxShellDepth+1, got)
	}
}

// shellQuote quotes s in single quotes for a shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// splitLine splits src with a parser pool of its own.
func splitLine(src string) shellLine { return (&parsers{}).splitLine(src) }

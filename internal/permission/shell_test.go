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
	if len(c.words) == 0 {
		s = "{" + c.text + "}"
	}
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
		s += " [" + reasonTag(c.unallowable) + "]"
	}
	if c.runner {
		s += " [runner]"
	}
	if c.hidden {
		s += " [hidden]"
	}
	if c.opaque {
		s += " [opaque]"
	}
	if c.denyOnly {
		s += " [deny-only]"
	}
	if c.wrapped != nil {
		s += " [in: " + joinAllow(c.wrapped) + "]"
	}
	return s
}

// reasonTag names a reason shortly, for tables of expected splits.
func reasonTag(why string) string {
	tags := map[string]string{
		whyEval: "eval", whySource: "source", whyTrap: "trap", whyBuiltin: "builtin", whyExec: "exec",
		whyArithmetic: "arith", whySubscript: "subscript", whyIndirect: "indirect", whyPrompt: "prompt",
		whyDeclare: "declare", whyFunction: "function", whyUnknown: "unknown-syntax", whyNetworkFile: "network",
		whyDynamicIn: "dynamic-input", whyNamedFD: "named-fd", whyDynamicProgram: "dynamic-program", whyGitConfig: "git-config",
	}
	if tag, ok := tags[why]; ok {
		return tag
	}
	if name, ok := strings.CutPrefix(why, "sets "); ok {
		name, _, _ = strings.Cut(name, ",")
		if strings.Contains(why, "for the command") {
			return "env " + strings.TrimSuffix(name, " for the command")
		}
		return "sets " + name
	}
	return why
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
			[]string{"test -f x", "rm x", "gofmt -l $", "read l [builtin]", "echo $", "make"}},
		{"function body", "f() { rm -rf /; }; f", []string{"{f() { rm -rf /; }} [function]", "rm -rf /", "f"}},
		{"leading assignments", "FOO=1 BAR=$(x) go test", []string{"go test [env FOO]", "x"}},
		{"harmless leading assignments", "CGO_ENABLED=0 GOOS=$(x) go build", []string{"go build", "x"}},
		{"bare assignment", "x=1", []string{}},
		{"bare upper-case assignment", "X=1", []string{"{X=1} [sets X]"}},
		{"bare proxy assignment", "https_proxy=x; curl y", []string{"{https_proxy=x} [sets https_proxy]", "curl y"}},
		{"quoting", `"go" 't'est "a b" a\ b`, []string{"go test a b a b"}},
		{"dollar single quotes", `$'\x72m' x`, []string{"$ x [dynamic-program]"}},
		{"double-quoted expansion", `echo "hi $USER"`, []string{"echo hi $"}},
		{"redirect to file", "go test > out.txt", []string{"go test [redirect]"}},
		{"append and both", "a >> log; b &> log; c >| f", []string{"a [redirect]", "b [redirect]", "c [redirect]"}},
		{"redirect to dev null and descriptors", "go test >/dev/null 2>&1; a 2>/dev/stderr; b >&2; c 3>&-", []string{"go test", "a", "b", "c"}},
		{"redirect of a block", "{ a; b; } > f; c", []string{"a [redirect]", "b [redirect]", "c"}},
		{"redirect inside substitution goes to the outer command", "echo $(a > f)", []string{"echo $", "a [redirect]"}},
		{"substitution under a redirect writes nothing itself", "echo $(a) > f", []string{"echo $ [redirect]", "a"}},
		{"dynamic redirect target", "a > $F", []string{"a [redirect]"}},
		{"dup to a file", "a >& out", []string{"a [redirect]"}},
		{"redirect alone", "> f", []string{"{> f} [redirect]"}},
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
		{"eval literal", "eval go test", []string{"eval go test [eval]", "go test [eval]"}},
		{"eval quoted", `eval "a; b"`, []string{"eval a; b [eval]", "a [eval]", "b [eval]"}},
		{"eval dynamic", `eval "$X"`, []string{"eval $ [eval]", "eval $ [hidden-text] [hidden]"}},
		{"eval glob", `eval rm *`, []string{"eval rm * [eval]", "eval rm * [hidden-text] [hidden]"}},
		{"source", "source .venv/bin/activate && . env.sh", []string{"source .venv/bin/activate [source]", ". env.sh [source]"}},
		{"exec", "exec go test", []string{"go test [exec] [in: exec go test]"}},
		{"exec redirect only", "exec 2>&1", []string{"exec [exec]"}},
		{"timeout and nohup", "timeout -s KILL 5 nohup go test", []string{"go test [in: timeout -s KILL 5 nohup go test]"}},
		{"env with assignments", "env -u X A=1 go test", []string{"go test [env A] [in: env -u X A=1 go test]"}},
		{"env with harmless assignments", "env -u X TZ=UTC go test", []string{"go test [in: env -u X TZ=UTC go test]"}},
		{"env -S", "env -S 'rm -rf /'", []string{"rm -rf /"}},
		{"nice stdbuf command", "nice -n 5 stdbuf -oL command make", []string{"make [in: nice -n 5 stdbuf -oL command make]"}},
		{"builtin", "builtin cd x", []string{"cd x [builtin] [in: builtin cd x]"}},
		{"command -v runs nothing", "command -v go", []string{"command -v go"}},
		{"wrapper with nothing to run", "timeout 5", []string{"timeout 5"}},
		{"sudo", "sudo -u root rm -rf /", []string{"sudo -u root rm -rf /", "rm -rf /"}},
		{"sudo -e edits", "sudo -e /etc/hosts", []string{"sudo -e /etc/hosts"}},
		{"xargs", "ls | xargs -n1 -I{} rm {}", []string{"ls", "xargs -n1 -I{} rm {}", "rm {}"}},
		{"find -exec", `find . -name '*.o' -exec rm {} \; -o -execdir sh -c 'x' +`, []string{"rm {}", "x", "find . -name *.o -exec rm {} ; -o -execdir sh -c x +"}},
		{"trap", "trap 'rm -f tmp' EXIT; go test", []string{"rm -f tmp [trap]", "trap rm -f tmp EXIT [trap]", "go test"}},
		{"trap with --", "trap -- 'rm -f tmp' EXIT", []string{"rm -f tmp [trap]", "trap -- rm -f tmp EXIT [trap]"}},
		{"trap printing", "trap -p EXIT", []string{"trap -p EXIT [trap]"}},
		{"PATH assignment", "PATH=/tmp:$PATH go test", []string{"go test [env PATH]"}},
		{"LD_PRELOAD", "LD_PRELOAD=x.so ls", []string{"ls [env LD_PRELOAD]"}},
		{"HOME", "HOME=/tmp/x git status", []string{"git status [env HOME]"}},
		{"plain pager", "GIT_PAGER=cat git log", []string{"cat [deny-only]", "git log"}},
		{"pager running a shell", "GIT_PAGER='sh -c x' git log", []string{"x [deny-only]", "git log [env GIT_PAGER]"}},
		{"bare PATH assignment", "PATH=/evil; go test", []string{"{PATH=/evil} [sets PATH]", "go test"}},
		{"export PATH", "export PATH=/evil:$PATH", []string{"{export PATH=/evil:$PATH} [declare]"}},
		{"export plain", "export A=2", []string{"{export A=2} [declare]"}},
		{"declare a reference", "declare -n r='a[$(id)]'", []string{"{declare -n r='a[$(id)]'} [declare] [hidden]"}},
		{"env PATH", "env PATH=/x go test", []string{"go test [env PATH] [in: env PATH=/x go test]"}},
		{"static test clause", "[[ -f go.mod ]] && go build", []string{"go build"}},
		{"test clause with a variable", `[[ $x -eq 1 ]]`, []string{"{[[ $x -eq 1 ]]} [arith] [hidden]"}},
		{"test clause comparing strings", `[[ $x == 1 && -n $y ]]`, []string{}},
		{"test clause with numbers", `[[ 1 -eq $# ]]`, []string{}},
		{"test clause -v", `[[ -v a[$i] ]]`, []string{"{[[ -v a[$i] ]]} [subscript] [hidden]"}},
		{"test clause -v plain", `[[ -v HOME ]]`, []string{}},
		{"arithmetic", "(( i++ )); let x=1", []string{"{(( i++ ))} [arith] [hidden]", "{let x=1} [arith] [hidden]"}},
		{"literal arithmetic", "echo $((1 + 2 * 0x10)); (( 3 > 2 ))", []string{"echo $"}},
		{"arithmetic on a variable", "echo $((x))", []string{"echo $", "{$((x))} [arith] [hidden]"}},
		{"prompt expansion", "echo ${x@P}", []string{"echo $", "{${x@P}} [prompt] [hidden]"}},
		{"quoting expansion", "echo ${x@Q}", []string{"echo $"}},
		{"indirect expansion", "echo ${!x}", []string{"echo $", "{${!x}} [indirect] [hidden]"}},
		{"names by prefix", "echo ${!GO*}", []string{"echo $"}},
		{"subscript", "echo ${a[i]} ${a[1]} ${a[@]}", []string{"echo $ $ $", "{${a[i]}} [subscript] [hidden]"}},
		{"slice", "echo ${x:1:2} ${x:n}", []string{"echo $ $", "{${x:n}} [arith] [hidden]"}},
		{"default assigns", "echo ${PATH:=/x} ${y:=1}", []string{"echo $ $", "{${PATH:=/x}} [sets PATH]"}},
		{"printf -v", "printf -v x %s y", []string{"printf -v x %s y [builtin]"}},
		{"printf", "printf '%s\n' y", []string{"printf %s\n y"}},
		{"set safe", "set -euo pipefail; set -x", []string{"set -euo pipefail", "set -x"}},
		{"set other", "set -o posix", []string{"set -o posix [builtin]"}},
		{"hash", "hash -p /tmp/x git", []string{"hash -p /tmp/x git [builtin] [hidden]"}},
		{"alias", "alias ls='rm -rf /'", []string{"rm -rf / [builtin]", "alias ls=rm -rf / [builtin]"}},
		{"test builtin -v", "test -v 'a[$(id)]'", []string{"test -v a[$(id)] [subscript] [hidden]"}},
		{"array assignment with keys", "z=([k]=1)", []string{"{z=([k]=1)} [subscript] [hidden]"}},
		{"indexed assignment", "z[i]=1", []string{"{z[i]=1} [subscript] [hidden]"}},
		{"for over a special name", "for PATH in /x; do ls; done", []string{"{for PATH in /x; do ls; done} [sets PATH]", "ls"}},
		{"network redirect", "cat < /dev/tcp/example.com/80", []string{"{cat < /dev/tcp/example.com/80} [network]", "cat"}},
		{"dynamic input", "wc -l < $f", []string{"{wc -l < $f} [dynamic-input]", "wc -l"}},
		{"named descriptor", "exec {fd}>&1", []string{"{exec {fd}>&1} [named-fd]", "exec [exec]"}},
		{"git -c alias", "git -c alias.x='!rm -rf /' x", []string{"rm -rf / [git-config]", "git -c alias.x=!rm -rf / x [git-config]"}},
		{"git -c pager", "git -c core.pager='sh -c id' log", []string{"id [git-config]", "git -c core.pager=sh -c id log [git-config]"}},
		{"git alias from a file", "git co main", []string{"git co main [opaque]"}},
		{"git", "git -C x --no-pager status", []string{"git -C x --no-pager status"}},
		{"find -delete", "find . -name '*.o' -delete", []string{"rm -rf . [deny-only]", "find . -name *.o -delete"}},
		{"watch", "watch -n 1 'ls; rm x'", []string{"watch -n 1 ls; rm x", "ls", "rm x"}},
		{"su -c", "su -c 'rm x' root", []string{"su -c rm x root", "rm x"}},
		{"flock -c", "flock /tmp/l -c 'rm x'", []string{"flock /tmp/l -c rm x", "rm x"}},
		{"flock", "flock /tmp/l rm x", []string{"flock /tmp/l rm x", "rm x"}},
		{"ionice setsid busybox", "ionice -c 3 setsid busybox rm x", []string{"rm x [in: ionice -c 3 setsid busybox rm x]"}},
		{"sudo -s", "sudo -s 'rm x'", []string{"sudo -s rm x", "rm x"}},
		{"time", "time go test", []string{"go test"}},
		{"coproc", "coproc rm x", []string{"{coproc rm x} [unknown-syntax] [hidden]", "rm x"}},
		{"select body", "select x in a b; do rm s; done", []string{"{select x in a b; do rm s; done} [reads a choice from its input into a variable, which no allow rule covers]", "rm s"}},
		{"pipe with stderr", "go test |& tee log", []string{"go test", "tee log"}},
		{"substitution in a default", "echo ${x:-$(rm y)}", []string{"echo $", "rm y"}},
		{"substitution in arithmetic", "echo $(( a[$(rm z)] ))", []string{"echo $", "{$(( a[$(rm z)] ))} [arith] [hidden]", "{a[$(rm z)]} [subscript] [hidden]", "rm z"}},
		{"substitution in an array", "x=(a $(rm q))", []string{"rm q"}},
		{"substitution in local", "local x=$(rm l)", []string{"{local x=$(rm l)} [declare]", "rm l"}},
		{"here-string", `read -r x <<< "$(rm h)"`, []string{"read -r x [builtin]", "rm h"}},
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
func splitLine(src string) shellLine { return (&parsers{}).splitLine(src, nil) }

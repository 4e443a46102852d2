package permission

import (
	"strings"
	"testing"
	"time"
)

// attackRules are allow rules a project might well have: harmless each,
// and each a way in if the matcher trusts a line it has not fully read.
var attackRules = []string{
	"Bash(git status)", "Bash(echo:*)", "Bash(printf:*)", "Bash(test:*)", "Bash(cat:*)", "Bash(true)",
	"Bash(ls:*)", "Bash(wc:*)", "Bash(grep:*)", "Bash(go test:*)", "Bash(cd:*)", "Bash(git:*)", "Bash(make test)",
}

// attackLines run a command no rule names, through bash's evaluation of
// a value's text (arithmetic, subscripts, indirection, prompts, builtins
// that assign), through what changes the shell or the environment, or
// through what a rule cannot see. Each must be put to the person.
var attackLines = []string{
	// arithmetic and subscripts evaluate a value's text
	`x='a[$(touch pwned)]'; [[ $x -eq 1 ]]; git status`,
	`x='a[$(touch pwned)]'; echo $((x))`,
	`x='a[$(touch pwned)]'; echo $(( x + 1 ))`,
	`x='a[$(touch pwned)]'; (( x ))`,
	`x='a[$(touch pwned)]'; echo ${a[x]}`,
	`x='a[$(touch pwned)]'; echo ${s:x}`,
	`x='a[$(touch pwned)]'; test -v "$x"`,
	`x='a[$(touch pwned)]'; [[ -v $x ]]`,
	`x='a[$(touch pwned)]'; z=([$x]=1)`,
	`z[$x]=1; echo $z`,
	`let "x=1"`,
	`for ((i=x; i<1; i++)); do true; done`,
	// indirection and prompts
	`x='a[$(touch pwned)]'; y=x; echo ${!y}`,
	`x='$(touch pwned)'; echo ${x@P}`,
	// builtins that assign to a name they are given
	`x='a[$(touch pwned)]'; printf -v "$x" y`,
	`printf -va[$(touch\ pwned)] y`,
	`x='a[$(touch pwned)]'; read "$x" <<< 1`,
	`declare -n r='a[$(touch pwned)]'; echo $r`,
	`\declare -n r='a[$(touch pwned)]'; echo $r`,
	`typeset -n r=x; echo $r`,
	`local -n r=x`,
	`mapfile -t a < /dev/null`,
	`getopts ab x`,
	`unset 'a[$(touch pwned)]'`,
	`export X=1`,
	// what changes the shell
	`eval 'touch pwned'`,
	`source ./x.sh`,
	`. ./x.sh`,
	`trap 'touch pwned' EXIT; git status`,
	`trap -- 'touch pwned' EXIT; git status`,
	`exec touch pwned`,
	`exec 3<>/dev/tcp/example.com/80`,
	`alias git='touch pwned'; git status`,
	`enable -f ./x.so x`,
	`builtin echo hi`,
	`git() { touch pwned; }; git status`,
	`function git { touch pwned; }; git status`,
	`hash -p ./pwn git; git status`,
	`shopt -s expand_aliases`,
	`set -o posix`,
	`compgen -C 'touch pwned' x`,
	`fc -s`,
	`coproc touch pwned`,
	// environment that changes what an allowed command runs or reads
	`PATH=.:$PATH git status`,
	`HOME=/tmp/evil git status`,
	`GIT_CONFIG_GLOBAL=./evil git status`,
	`GIT_DIR=./evil git status`,
	`XDG_CONFIG_HOME=/tmp/evil git status`,
	`LD_PRELOAD=./x.so cat x`,
	`BASH_ENV=./x.sh echo hi`,
	`PAGER='sh -c x' git status`,
	`GIT_PAGER='touch pwned' git status`,
	`NODE_OPTIONS=--require=./x.js cat x`,
	`PYTHONPATH=. cat x`,
	`npm_config_script_shell=./x cat x`,
	`env PATH=. git status`,
	`env -S 'touch pwned'`,
	`PATH=.; git status`,
	`IFS=x; git status`,
	`http_proxy=http://evil; cat x`,
	`for PATH in .; do git status; done`,
	`echo ${PATH:=.}; git status`,
	// programs named only when they run
	`$'\x74ouch' pwned`,
	`x=touch; $x pwned`,
	`"$(printf touch)" pwned`,
	// git running what its options configure
	`git -c core.pager='touch pwned' status`,
	`git -c core.fsmonitor='touch pwned' status`,
	`git -c alias.status='!touch pwned' status`,
	`git --config-env=core.pager=X status`,
	// patterns the parser keeps as text and bash expands
	`[[ x == @($(touch pwned)) ]]; echo hi`,
	"[[ x = +(`touch pwned`) ]]",
	`[[ x != !($(touch pwned)|y) ]] || git status`,
	// options that make an allowed program run another one
	`go test --exec 'sh -c "touch pwned"' .`,
	`go test --toolexec='sh -c "touch pwned"' .`,
	`go test -exec 'sh -c "touch pwned"' ./...`,
	`go test -toolexec=./x ./...`,
	`grep -r x . ; git status --upload-pack=x`,
	`git log; git -C . rebase -x 'touch pwned' HEAD~1`,
	`make SHELL=./x test`,
	// a value the shell splits, or a -- an option takes as its value
	`go test -run $T ./...`, `git log a$X`, `git log -U "$X"`, `git branch --points-at -- -D main`,
	`git grep -e -- -O./x`, `git tag --sort -- -d v1`,
	// redirections a rule does not name
	`echo x > .bashrc`,
	`cat < /dev/tcp/example.com/80`,
	`cat < $f`,
	// lines forge cannot read whole, or reads differently from bash
	`echo 'unterminated`,
	"git status # \\\ntouch pwned",
	"echo hi # x\\\ntouch pwned",
	"git status\r\ntouch pwned",
	strings.Repeat("(", 600) + "true" + strings.Repeat(")", 600),
	"echo " + strings.Repeat("$(", 20000) + strings.Repeat(")", 20000),
}

// TestAttackLinesAsk: no attack line is allowed by harmless rules, in ask
// or auto-edit mode, and none is refused with a crash.
func TestAttackLinesAsk(t *testing.T) {
	fx := newFixture(t)
	for _, mode := range []Mode{ModeAsk, ModeAutoEdit} {
		p := fx.policy(t, mode, attackRules, nil)
		for _, line := range attackLines {
			if v := p.Decide(bash(line)); v.Decision == Allow {
				t.Errorf("%s mode allowed %q: %s", mode, shorten(line), v.Reason)
			}
		}
	}
}

// TestAttackLinesDenied: a deny rule for the command an attack line runs
// denies the line, or asks when forge cannot see the command.
func TestAttackLinesDenied(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeYolo, nil, []string{"Bash(touch:*)"})
	for _, line := range attackLines {
		if !strings.Contains(line, "touch") {
			continue
		}
		if v := p.Decide(bash(line)); v.Decision == Allow {
			t.Errorf("yolo with Bash(touch:*) denied allowed %q: %s", shorten(line), v.Reason)
		}
	}
}

// TestDenyReachesEveryCommand: a deny rule applies to the commands a line
// runs inside arithmetic, trap handlers, wrappers, git's configuration and
// find's actions, and to the program however it is quoted.
func TestDenyReachesEveryCommand(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeYolo, nil, []string{"Bash(rm:*)"})
	for _, line := range []string{
		"echo $(( $(rm x) ))", "echo ${a[$(rm x)]}", "trap -- 'rm x' EXIT", "ionice -c3 rm x", "setsid rm x",
		"time rm x", "command time rm x", "flock /tmp/l rm x", "flock /tmp/l -c 'rm x'", "busybox rm x",
		"chrt 5 rm x", "taskset 1 rm x", "stdbuf -o0 rm x", "nice rm x", "watch rm x", "su -c 'rm x'",
		"sudo -s rm x", "xargs rm", "find . -delete", "find . -execdir rm {} +", "git -c alias.x='!rm -rf /' x",
		"git -c core.pager='rm x' log", `'rm' x`, `r\m x`, `"r"'m' x`, "$'rm' x", "strace -f rm x",
		"/bin/r? x", `{"rm",x}`, "echo # \\\nrm x", "chroot / rm x", "prlimit rm x", "setpriv rm x",
		"runuser -u root -- rm x", "/bin/r[[:alpha:]] x", "go test --exec 'rm -f x --' .",
	} {
		if v := p.Decide(bash(line)); v.Decision != Deny {
			t.Errorf("Bash(rm:*) did not deny %q: %s (%s)", line, v.Decision, v.Reason)
		}
	}
	for _, line := range []string{"git co main", `x='a[$(rm x)]'; echo $((x))`, `eval "$X"`, `bash -c "$X"`} {
		if v := p.Decide(bash(line)); v.Decision != Ask || !strings.Contains(v.Reason, "cannot tell") {
			t.Errorf("Bash(rm:*) on %q: %s (%s), want a question: forge cannot see what it runs", line, v.Decision, v.Reason)
		}
	}
	for _, line := range []string{"git status", "git log --oneline", "echo rm", "grep -r rm ."} {
		if v := p.Decide(bash(line)); v.Decision != Allow {
			t.Errorf("Bash(rm:*) on %q: %s (%s), want allow", line, v.Decision, v.Reason)
		}
	}
}

// TestHostileLinesStayCheap: lines built to make the checks themselves
// explode (variables doubled thirty times over, nesting deeper than any
// stack, a line of megabytes) are decided at once and asked about.
func TestHostileLinesStayCheap(t *testing.T) {
	var doubling strings.Builder
	doubling.WriteString("a0=xyz; ")
	for i := 1; i <= 7; i++ {
		doubling.WriteString("a" + string(rune('0'+i)) + "=" + strings.Repeat("$a"+string(rune('0'+i-1)), 30) + "; ")
	}
	doubling.WriteString("echo $a7")
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, attackRules, nil)
	for name, line := range map[string]string{
		"doubling variables": doubling.String(),
		"nested if":          strings.Repeat("if echo;then ", 100000) + "echo" + strings.Repeat(";fi", 100000),
		"nested time":        strings.Repeat("time ", 700000) + "echo",
		"nested while":       strings.Repeat("while echo;do ", 50000) + "echo" + strings.Repeat(";done", 50000),
		"megabytes":          "echo " + strings.Repeat("x", 8<<20),
	} {
		done := make(chan Verdict, 1)
		go func() { done <- p.Decide(bash(line)) }()
		select {
		case v := <-done:
			if v.Decision == Allow && name != "doubling variables" && name != "megabytes" {
				t.Errorf("%s: allowed, want a question: %s", name, v.Reason)
			}
		case <-time.After(30 * time.Second): // a hang guard, far above the milliseconds it takes
			t.Fatalf("%s: Decide did not return", name)
		}
	}
}

// A line given to a shell whose grammar is not bash's is not read as
// bash's: a rule never allows it, and a deny rule still sees into it.
func TestOtherShellsAsk(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, []string{"Bash(echo:*)", "Bash(git status)"}, []string{"Bash(rm:*)"})
	for _, tc := range []struct {
		line string
		want Decision
	}{
		{`zsh -c 'echo =ls'`, Ask},
		{`zsh -c "echo a(e:'touch x':)"`, Ask},
		{`fish -c 'echo (id)'`, Ask},
		{`ksh -c 'echo ${ id;}'`, Ask},
		{`mksh -c 'git status'`, Ask},
		{`zsh -c 'rm -rf x'`, Deny},
		{`sh -c 'git status'`, Allow},
		{`bash -c 'echo hi'`, Allow},
		{`dash -c 'echo hi'`, Allow},
	} {
		if v := p.Decide(bash(tc.line)); v.Decision != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.line, v.Decision, v.Reason, tc.want)
		}
	}
}

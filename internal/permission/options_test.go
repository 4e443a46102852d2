package permission

import "testing"

// TestPrefixRuleOptions: a prefix rule allows further operands, and
// further options only when they are known to neither run or load code
// or configuration, nor write a file, nor change directory; every other
// word the rule does not name asks, however it is spelled.
func TestPrefixRuleOptions(t *testing.T) {
	npmRunTest := []string{"Bash(npm run test:*)"}
	npmTest := []string{"Bash(npm test:*)"}
	makeTest := []string{"Bash(make test:*)"}
	gitLog := []string{"Bash(git log:*)"}
	gitDiff := []string{"Bash(git diff:*)"}
	goTest := []string{"Bash(go test:*)"}
	sortAny := []string{"Bash(sort:*)"}
	pytest := []string{"Bash(pytest:*)"}
	cargoTest := []string{"Bash(cargo test:*)"}
	asks := func(name string, allow []string, line, reason string) decideCase {
		return decideCase{name: name, allow: allow, call: bash(line), want: Ask, reason: reason}
	}
	allows := func(name string, allow []string, line string) decideCase {
		return decideCase{name: name, allow: allow, call: bash(line), want: Allow}
	}
	runDecide(t, []decideCase{
		// what ran code or wrote a file through an allow rule
		asks("npm node options", npmRunTest, `npm run test '--node-options=--import=data:text/javascript,import("child_process").then(c=>c.execSync("id"))'`,
			"option --node-options is not named by the rule Bash(npm run test:*)"),
		asks("make eval", makeTest, `make test '--eval=x:=$(shell cat ~/.ssh/id_rsa > /tmp/k)'`, "option --eval is not named"),
		asks("git log output", gitLog, `git log -1 '--format=tformat:curl x|sh' --output=/var/tmp/ah/.bashrc`, "option --output is not named by the rule Bash(git log:*)"),
		// the spellings of the same class
		asks("make -E separate", makeTest, `make test -E 'x:=$(shell id)'`, "option -E"),
		asks("make -E combined", makeTest, `make test -Ex:=1`, "option -E (in -Ex:=1)"),
		asks("make -E after a harmless flag", makeTest, `make test -sE 'x:=1'`, "option -E (in -sE)"),
		asks("make -f", makeTest, "make test -f /tmp/evil.mk", "option -f"),
		asks("make -C", makeTest, "make test -C /tmp/evil", "option -C"),
		asks("make --file=", makeTest, "make test --file=/tmp/evil.mk", "option --file"),
		asks("make assignment", makeTest, "make test CC=/tmp/evil", "CC=/tmp/evil"),
		asks("make := assignment", makeTest, `make test 'x:=$(shell id)'`, "the variable assignment x:=…"),
		asks("make != assignment", makeTest, `make test 'x!=id'`, "the variable assignment x!=…"),
		asks("make assignment after --", makeTest, "make test -- SHELL=/tmp/sh", "SHELL=/tmp/sh"),
		asks("make assignment from an expansion", makeTest, "make test $X", "may expand to an option"),
		asks("make assignment from an expansion inside a word", makeTest, "make test build$X", "`build$…` may expand to a variable assignment"),
		asks("make assignment from a glob", makeTest, "make test *.o", "may expand to"),
		asks("uniq's output file", []string{"Bash(uniq:*)"}, "uniq -c in ~/.bashrc", "the file `~/.bashrc` that the command writes is not named"),
		allows("uniq's input", []string{"Bash(uniq:*)"}, "uniq -c -f 1 in"),
		asks("dd of=", []string{"Bash(dd if=a:*)"}, "dd if=a of=/tmp/x", "operand `of=/tmp/x`"),
		asks("git diff --output=", gitDiff, "git diff --output=/tmp/x", "option --output"),
		asks("git diff --output separate", gitDiff, "git diff --output /tmp/x", "option --output"),
		asks("git log --output quoted", gitLog, `git log "--output=x"`, "option --output"),
		asks("git log --output escaped", gitLog, `git log --out\put=x`, "option --output"),
		asks("git log abbreviated --output", gitLog, "git log --outp=x", "option --outp"),
		asks("git log -O is not listed", gitLog, "git log -Ofile", "option -O (in -Ofile)"),
		asks("sort -o", sortAny, "sort -o out x", "option -o"),
		asks("sort -o combined", sortAny, "sort -oout x", "option -o (in -oout)"),
		asks("sort -o after flags", sortAny, "sort -ro out x", "option -o (in -ro)"),
		asks("sort --output", sortAny, "sort --output=out x", "option --output"),
		asks("sort -T", sortAny, "sort -T /tmp/d x", "option -T"),
		asks("go test -o", goTest, "go test -o /tmp/x ./...", "option -o"),
		asks("go test -coverprofile=", goTest, "go test -coverprofile=c.out ./...", "option -coverprofile"),
		asks("go test --coverprofile", goTest, "go test --coverprofile c.out ./...", "option --coverprofile"),
		asks("go test -C", goTest, "go test -C /tmp/x ./...", "option -C"),
		asks("go test -ldflags", goTest, "go test -ldflags=-extld=/tmp/x ./...", "option -ldflags"),
		asks("go test -args", goTest, "go test ./... -args -test.coverprofile=x", "option -args"),
		asks("go test past --", goTest, "go test ./... -- -test.coverprofile=x", "option -test.coverprofile"),
		asks("npm --userconfig", npmTest, "npm test --userconfig=/tmp/rc", "option --userconfig"),
		asks("npm --prefix", npmTest, "npm test --prefix /tmp/x", "option --prefix"),
		asks("npm -w", npmTest, "npm test -w pkg", "option -w"),
		asks("npm script options past --", npmTest, "npm test -- --require ./evil.js", "option --require"),
		asks("npm run script options past --", npmRunTest, "npm run test -- --config=/tmp/x", "option --config"),
		asks("pytest -c", pytest, "pytest -c evil.ini", "option -c"),
		asks("pytest -c combined", pytest, "pytest -xcevil.ini", "option -c (in -xcevil.ini)"),
		asks("pytest -o addopts", pytest, "pytest -o addopts=-pevil", "option -o"),
		asks("pytest -p", pytest, "pytest -p evil", "option -p"),
		asks("pytest --rootdir", pytest, "pytest --rootdir=/tmp", "option --rootdir"),
		asks("cargo --manifest-path=", cargoTest, "cargo test --manifest-path=/tmp/x/Cargo.toml", "option --manifest-path"),
		asks("cargo --manifest-path separate", cargoTest, "cargo test --manifest-path /tmp/x/Cargo.toml", "option --manifest-path"),
		asks("cargo --config", cargoTest, "cargo test --config 'build.rustc=\"/tmp/x\"'", "option --config"),
		asks("cargo harness --logfile", cargoTest, "cargo test -- --logfile /tmp/x", "option --logfile"),
		asks("an expansion may be an option", gitLog, "git log $X", "`$…` may expand to an option"),
		asks("a quoted expansion may be an option", gitLog, `git log "$X"`, "may expand to an option"),
		asks("a glob may match a file named as an option", gitLog, "git log *", "`*` may expand to an option"),
		asks("a brace may expand to an option", gitLog, "git log {--output=x,y}", "may expand to an option"),
		allows("a tilde expands to a path", goTest, "go test ~/src/..."),
		asks("a program forge does not know: any option", []string{"Bash(./build.sh:*)"}, "./build.sh --out=/tmp/x", "option --out"),
		asks("a program by a path outside the system's directories is not the one forge knows", []string{"Bash(./ls:*)"}, "./ls -la", "option -la"),
		allows("a program in a system directory is", []string{"Bash(/usr/bin/ls:*)"}, "/usr/bin/ls -la"),
		asks("python-like names are not python", []string{"Bash(python-x:*)"}, "python-x -u", "option -u"),
		asks("a program forge does not know: + options too", []string{"Bash(less:*)"}, "less '+!id' x", "option +!id"),
		allows("+ is an operand for a program forge knows", sortAny, "sort +1 x"),
		asks("git options before the subcommand", []string{"Bash(git:*)"}, "git -C /tmp/x status", "option -C"),
		asks("git subcommand forge does not know", []string{"Bash(git:*)"}, "git frob --x", "option --x"),
		asks("git branch -D", []string{"Bash(git branch:*)"}, "git branch -D main", "option -D"),
		asks("find -delete", []string{"Bash(find:*)"}, "find . -delete", "option -delete"),
		asks("find -fprint", []string{"Bash(find:*)"}, "find . -fprint /tmp/x", "option -fprint"),
		asks("python -c", []string{"Bash(python3:*)"}, "python3 -c 'import os'", "option -c"),
		asks("python -m pytest -p", []string{"Bash(python3 -m pytest:*)"}, "python3 -m pytest -p evil", "option -p"),
		asks("xargs -a", []string{"Bash(xargs:*)", "Bash(grep:*)"}, "xargs -a /tmp/list grep x", "option -a"),
		asks("xargs runs an option the inner rule does not name", []string{"Bash(xargs:*)", "Bash(go test:*)"}, "echo x | xargs go test -exec /tmp/x", "runs the program its option -exec names"),

		// a value the option does not take, or takes whatever it is
		asks("git log -U's value is only in its word", gitLog, `git log -U "$X"`, "may expand to an option"),
		asks("git log -U then an expansion", gitLog, "git log -U $X", "may expand to an option"),
		asks("git grep -e takes -- as its pattern", []string{"Bash(git grep:*)"}, `git grep -e -- '-Otouch /tmp/x'`, "option -O"),
		asks("rg -e takes -- as its pattern", []string{"Bash(rg:*)"}, "rg -e -- --pre=sh x", "option --pre"),
		asks("go build -tags takes --", []string{"Bash(go build:*)"}, "go build -tags -- -o /tmp/x", "option -o"),
		asks("awk -F takes --", []string{"Bash(awk:*)"}, "awk -F -- -f evil.awk", "option -f"),
		asks("find -name takes --", []string{"Bash(find:*)"}, "find . -name -- -delete", "option -delete"),
		asks("git branch --points-at takes --", []string{"Bash(git branch:*)"}, "git branch --points-at -- -D main", "option -D"),
		asks("git tag --sort takes --", []string{"Bash(git tag:*)"}, "git tag --sort -- -d v1", "option -d"),
		asks("a flag before -- may take it as its value", []string{"Bash(git commit:*)"}, "git commit -q -- -e", "option -e"),
		allows("git config --default takes a value", []string{"Bash(git config:*)"}, "git config --get --default x core.pager"),
		allows("git branch --sort takes a value", []string{"Bash(git branch:*)"}, "git branch --sort=-committerdate --format '%(refname)' --points-at HEAD"),
		asks("sort -k takes --", sortAny, "sort -k -- --output=x", "option --output"),
		asks("pytest -k takes --", pytest, "pytest -k -- --rootdir=/tmp", "option --rootdir"),
		asks("cargo -p takes --", cargoTest, "cargo test -p -- --config=x", "option --config"),
		// an unquoted expansion may split into several words, options among them
		asks("unquoted expansion as a value", goTest, "go test -run $T ./...", "`$…` may expand to an option"),
		asks("unquoted expansion inside an operand", gitLog, "git log a$X", "`a$…` may expand to an option"),
		asks("unquoted command substitution inside an operand", []string{"Bash(git log:*)", "Bash(cat:*)"}, "git log a$(cat f)", "may expand to an option"),
		asks(`"$@" is several words`, gitLog, `git log -n "$@"`, "may expand to an option"),
		asks(`"${a[@]}" is several words`, gitLog, `git log --author "${a[@]}"`, "may expand to an option"),
		allows("a quoted expansion is one word", gitLog, `git log --author "$X" "a$X"`),
		asks("a glob as a value may be several words", goTest, "go test -run * ./...", "`*` may expand to an option"),
		asks("a brace as a value is several words", goTest, "go test -run {a,-o} ./...", "may expand to an option"),
		allows("a glob after a prefix as a value", goTest, "go test -run Test* ./..."),
		allows("a tilde as a value", gitLog, "git log -L 1,2:~/x"),
		// find reads its expression past --
		asks("find -- . -delete", []string{"Bash(find:*)"}, "find -- . -delete", "option -delete"),
		asks("find . -- -fprint", []string{"Bash(find:*)"}, "find . -- -fprint /tmp/x", "option -fprint"),
		// pytest loads -p's plugin before it parses anything else
		asks("pytest -p past --", pytest, "pytest -- -pevil", "-p"),
		asks("pytest -p past -- separate", pytest, "pytest tests -- -p evil", "option -p"),
		asks("pytest -p as a value", pytest, "pytest -k -pevil", "-p"),
		asks("pytest value that may be -p", pytest, `pytest -k "$X"`, "may expand to an option"),
		asks("python -m pytest -p past --", []string{"Bash(python3 -m pytest:*)"}, "python3 -m pytest -- -pevil", "-p"),
		// a file of more arguments
		asks("pytest @args", pytest, "pytest @args.txt", "the argument file `@args.txt`"),
		asks("pytest @args past --", pytest, "pytest -x -- @args.txt", "the argument file"),
		asks("pytest @ as a value", pytest, "pytest -k @args.txt", "the argument file"),
		asks("pytest @ glob", pytest, "pytest @*", "the argument file"),
		asks("clippy's rustc @file", []string{"Bash(cargo clippy:*)"}, "cargo clippy -- -D warnings @flags", "the argument file"),
		allows("clippy lint levels", []string{"Bash(cargo clippy:*)"}, "cargo clippy --all-targets -- -D warnings -A clippy::x"),
		// sed and awk: a value given as the next word is no program
		asks("sed --line-length's value is no script", []string{"Bash(sed:*)"}, "sed --line-length 5 'w /tmp/x' f", "script `w /tmp/x`"),
		asks("sed --expression separate", []string{"Bash(sed:*)"}, "sed --expression 'w /tmp/x' f", "script `w /tmp/x`"),
		asks("awk --assign's value is no program", []string{"Bash(awk:*)"}, `awk --assign x=1 'BEGIN{system("id")}'`, "script"),
		asks("awk --field-separator's value is no program", []string{"Bash(awk:*)"}, `awk --field-separator : 'BEGIN{system("id")}'`, "script"),
		allows("awk --assign", []string{"Bash(awk:*)"}, "awk --assign x=1 '{print x}' f"),
		// date's operand sets the clock as -s does
		asks("date MMDDhhmm", []string{"Bash(date:*)"}, "date 010100002030", "which may set the clock"),
		asks("date -u MMDDhhmm", []string{"Bash(date:*)"}, "date -u -- 0101000030", "which may set the clock"),
		asks("date -s", []string{"Bash(date:*)"}, "date -s tomorrow", "option -s"),
		asks("date --set abbreviated", []string{"Bash(date:*)"}, "date --se=tomorrow", "option --se"),
		allows("date +FORMAT", []string{"Bash(date:*)"}, "date -u -d yesterday +%F"),
		allows("date --rfc-3339 separate", []string{"Bash(date:*)"}, "date --rfc-3339 seconds"),
		// macOS's base64 writes the file -o names
		asks("base64 -o", []string{"Bash(base64:*)"}, "base64 -i payload -o ~/.zshrc", "option -o"),
		asks("base64 --output", []string{"Bash(base64:*)"}, "base64 --output=/tmp/x in", "option --output"),
		allows("base64 decode", []string{"Bash(base64:*)"}, "base64 -d -w 0 in"),
		// rg runs decompressors it finds in PATH
		asks("rg -z", []string{"Bash(rg:*)"}, "rg -z x", "option -z"),
		asks("rg --search-zip", []string{"Bash(rg:*)"}, "rg --search-zip x", "option --search-zip"),
		asks("rg --pre", []string{"Bash(rg:*)"}, "rg --pre=sh x", "option --pre"),
		// xargs --eof takes its value only after =, so the next word is the command
		asks("xargs --eof", []string{"Bash(xargs:*)", "Bash(grep:*)"}, `xargs --eof "$X" grep x`, "may expand to an option"),
		// go and git spellings that write or run
		asks("go vet -vettool", []string{"Bash(go vet:*)"}, "go vet -vettool=/tmp/x ./...", "option -vettool"),
		asks("go test -exec", goTest, "go test -exec /tmp/x ./...", "option -exec"),
		asks("go test -toolexec", goTest, "go test -toolexec=/tmp/x ./...", "option -toolexec"),
		asks("go test -cpuprofile", goTest, "go test -cpuprofile c ./...", "option -cpuprofile"),
		asks("go test -outputdir", goTest, "go test -outputdir /tmp ./...", "option -outputdir"),
		asks("git -c", []string{"Bash(git:*)"}, "git -c core.pager=sh log", "what git runs"),
		asks("git --exec-path", []string{"Bash(git:*)"}, "git --exec-path=/tmp log", "git configuration"),
		asks("git log --ext-diff", gitLog, "git log -p --ext-diff", "option --ext-diff"),
		asks("git log --textconv", gitLog, "git log -p --textconv", "option --textconv"),
		asks("git grep -O", []string{"Bash(git grep:*)"}, "git grep --open-files-in-pager=sh x", "option --open-files-in-pager"),
		asks("git cat-file --textconv", []string{"Bash(git cat-file:*)"}, "git cat-file --textconv HEAD:a", "option --textconv"),
		asks("npm --script-shell", npmTest, "npm test --script-shell=/tmp/x", "option --script-shell"),
		asks("npm --globalconfig", npmTest, "npm test --globalconfig /tmp/x", "option --globalconfig"),
		asks("npm --cache", npmTest, "npm test --cache /tmp/x", "option --cache"),
		asks("cargo -Z", cargoTest, "cargo test -Z unstable-options", "option -Z"),
		asks("cargo --target-dir", cargoTest, "cargo test --target-dir /tmp/x", "option --target-dir"),
		asks("pytest --basetemp", pytest, "pytest --basetemp=/tmp/x", "option --basetemp"),
		asks("pytest --junitxml", pytest, "pytest --junitxml /tmp/x", "option --junitxml"),
		asks("pytest --confcutdir", pytest, "pytest --confcutdir=/", "option --confcutdir"),
		asks("pytest --override-ini", pytest, "pytest --override-ini=addopts=-pevil", "option --override-ini"),
		asks("make -I", makeTest, "make test -I /tmp", "option -I"),
		asks("make -o", makeTest, "make test -o x", "option -o"),
		asks("make -W", makeTest, "make test -W x", "option -W"),
		asks("make --eval abbreviated", makeTest, "make test --ev=x", "option --ev"),
		asks("sort --compress-program", sortAny, "sort --compress-program=sh x", "option --compress-program"),
		asks("sort --comp abbreviated", sortAny, "sort --comp=sh x", "option --comp"),
		asks("jq -L", []string{"Bash(jq:*)"}, "jq -L /tmp .", "option -L"),
		asks("jq --rawfile", []string{"Bash(jq:*)"}, "jq --rawfile a /etc/passwd .", "option --rawfile"),
		asks("sed -i attached", []string{"Bash(sed:*)"}, "sed -ni.bak p f", "option -i (in -ni.bak)"),
		asks("sed --in-place", []string{"Bash(sed:*)"}, "sed --in-place p f", "option --in-place"),

		// what keeps running without a question
		allows("git log harmless", gitLog, `git log --oneline -n 5 --stat --graph --author "A B" --format=%H -5`),
		allows("git log path past --", gitLog, "git log -- --output=x"),
		allows("git log operand in a directory", gitLog, "git log ./*"),
		allows("go test flags", goTest, "go test -race -v -count=1 -run TestX -short -cover ./..."),
		allows("go test flags with two dashes", goTest, "go test --race -run=TestX ./..."),
		allows("go test value as a quoted expansion", goTest, `go test -run "$T" ./...`),
		allows("ls -la", []string{"Bash(ls:*)"}, "ls -la --color=auto $D"),
		allows("grep -rn", []string{"Bash(grep:*)"}, "grep -rn --include='*.go' foo ."),
		allows("npm test --silent", npmTest, "npm test --silent"),
		allows("npm run test operand", npmRunTest, "npm run test src/a.test.js"),
		allows("make test harmless", makeTest, "make test -j4 -k -s --no-print-directory"),
		allows("make test -j separate", makeTest, "make test -j 4"),
		allows("pytest harmless", pytest, `pytest -x -q -k "not slow" -rA tests/`),
		allows("python -m pytest", []string{"Bash(python3 -m pytest:*)"}, "python3 -m pytest -x -q tests"),
		allows("cargo test harmless", cargoTest, "cargo test --release -p core -- --nocapture --test-threads=1"),
		allows("find harmless", []string{"Bash(find:*)"}, "find . -name '*.go' -type f -not -path './vendor/*' -print0"),
		{name: "find -exec of an allowed command", allow: []string{"Bash(find:*)", "Bash(ls:*)"}, call: bash(`find . -type f -exec ls -la {} \;`),
			want: Allow, rule: "Bash(ls:*), Bash(find:*)"},
		{name: "xargs of an allowed command", allow: []string{"Bash(ls:*)", "Bash(xargs:*)", "Bash(grep:*)"}, call: bash("ls | xargs -0 grep -n x"),
			want: Allow, rule: "Bash(ls:*), Bash(xargs:*), Bash(grep:*)"},
		allows("git commit -m", []string{"Bash(git commit:*)"}, `git commit -am "fix: x"`),
		allows("rule that names the option", []string{"Bash(git log --output=x:*)"}, "git log --output=x -n 1"),
		allows("exact rule", []string{"Bash(git log --output=x)"}, "git log --output=x"),
		allows("sort harmless", sortAny, "sort -rn -k2,2 -t: x"),

		// a script is an operand with code in it
		allows("sed print", []string{"Bash(sed -n:*)"}, "sed -n 1,5p go.mod"),
		allows("sed substitute", []string{"Bash(sed -n:*)"}, "sed -n 's/a/b/gp' f"),
		allows("sed loop", []string{"Bash(sed:*)"}, `sed ':a;N;$!ba;s/\n/ /g' f`),
		allows("sed block", []string{"Bash(sed -n:*)"}, "sed -n '/foo/,/bar/{p}' f"),
		allows("sed -e scripts", []string{"Bash(sed:*)"}, "sed -e 's/a/b/' -e '$d' f"),
		asks("sed e command", []string{"Bash(sed -n:*)"}, "sed -n '1e id' f", "script `1e id` is not named"),
		asks("sed s///e", []string{"Bash(sed -n:*)"}, "sed -n 's/x/id/e' f", "script"),
		asks("sed w", []string{"Bash(sed -n:*)"}, "sed -n 'w /tmp/x' f", "script"),
		asks("sed s///w", []string{"Bash(sed -n:*)"}, "sed -n 's/a/b/w /tmp/x' f", "script"),
		asks("sed s///w with a bracket", []string{"Bash(sed -n:*)"}, "sed -n 's/[/]/x/w /tmp/f' f", "script"),
		asks("sed r in a second -e", []string{"Bash(sed:*)"}, "sed -e p -e 'r /etc/passwd' f", "script"),
		asks("sed --expression=", []string{"Bash(sed -n:*)"}, "sed -n --expression='1W /tmp/x' f", "script"),
		asks("sed -e attached", []string{"Bash(sed -n:*)"}, "sed -n -e'1e id' f", "script"),
		asks("sed label then a command", []string{"Bash(sed:*)"}, "sed ':a w /tmp/x' f", "script"),
		asks("sed script known only when it runs", []string{"Bash(sed -n:*)"}, `sed -n "$S" f`, "script"),
		asks("sed -i", []string{"Bash(sed -n:*)"}, "sed -n -i 's/a/b/' f", "option -i"),
		allows("awk print", []string{"Bash(awk:*)"}, "awk -F: -v x=1 '{print $1, x}' f"),
		asks("awk system", []string{"Bash(awk:*)"}, `awk 'BEGIN{system("id")}'`, "script"),
		asks("awk redirection", []string{"Bash(awk:*)"}, `awk '{print > "/tmp/x"}' f`, "script"),
		asks("awk pipe", []string{"Bash(awk:*)"}, `awk '{print | "sh"}' f`, "script"),
		asks("awk -f", []string{"Bash(awk:*)"}, "awk -f evil.awk f", "option -f"),

		// a glob rule's * names operands, not options
		asks("glob: npm node options", []string{"Bash(npm run test *)"}, "npm run test --node-options=--import=x",
			"option --node-options is not named by the rule Bash(npm run test *)"),
		asks("glob inside a word", []string{"Bash(go test*)"}, "go test -o /tmp/x", "option -o"),
		asks("glob: an option its words do not name", []string{"Bash(git log --format=* *)"}, "git log --format=%H --output=x", "option --output"),
		allows("glob: an option its words name", []string{"Bash(git log --output=/tmp/log *)"}, "git log --output=/tmp/log -n 3 --format=%H"),
		allows("glob: harmless options", []string{"Bash(npm run test *)"}, "npm run test --silent src"),
		allows("glob spanning words", []string{"Bash(git * --help)"}, "git commit --help"),
		asks("glob: a word with a space does not shift what is named", []string{"Bash(git log *)"}, "'git log' --output=x", "option --output"),

		// deny rules see through as before
		{name: "deny sees options", allow: gitLog, deny: []string{"Bash(git log:*)"}, call: bash("git log --output=x"), want: Deny, rule: "Bash(git log:*)"},
		{name: "deny sees make -E", mode: ModeYolo, deny: []string{"Bash(make:*)"}, call: bash("make test -E x"), want: Deny, rule: "Bash(make:*)"},
		// with the sandbox on, sandboxed commands still run without asking
		{name: "sandboxed", allow: []string{"Bash(git log:*)", "Bash(ls:*)"}, call: Call{Tool: "Bash", Args: bash("git log --output=x").Args, Sandbox: SandboxWorkspace},
			want: Allow, reason: "runs in the sandbox"},
	})
}

// TestPrefixRuleEverydayCommands: the commands agents run all day keep
// running without a question under the rules for their programs.
func TestPrefixRuleEverydayCommands(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, []string{"Bash(git:*)", "Bash(go:*)", "Bash(npm test:*)", "Bash(npm run:*)", "Bash(cargo:*)",
		"Bash(make:*)", "Bash(pytest:*)", "Bash(python3 -m pytest:*)", "Bash(ls:*)", "Bash(grep:*)", "Bash(find:*)",
		"Bash(rg:*)", "Bash(head:*)", "Bash(tail:*)", "Bash(wc:*)", "Bash(sort:*)", "Bash(cd:*)", "Bash(cat:*)",
		"Bash(sed:*)", "Bash(gofmt:*)", "Bash(xargs:*)"}, nil)
	for _, line := range []string{
		"git status --porcelain", "git status -sb", "git diff --cached --stat", "git diff HEAD~1 --name-only",
		`git log --oneline --graph --all -n 20`, `git log --since="2 weeks ago" --pretty=format:"%h %s"`, "git log -p -- a.go",
		"git show --stat HEAD", "git blame -L 10,20 a.go", "git branch --show-current", "git branch -a", "git rev-parse HEAD",
		"git rev-parse --show-toplevel", "git stash list", "git remote -v", "git fetch --prune origin", "git add -A",
		`git commit -m "fix: x"`, "git checkout -b feature", "git switch -c feature", "git push -u origin feature",
		"git grep -n foo", "git --no-pager log -5", "git ls-files --others --exclude-standard",
		"go test ./...", "go test -race -count=1 ./...", "go test -v -run 'TestA|TestB' ./pkg", "go test -run=^TestX$ -timeout 60s .",
		"go vet ./...", "go build ./...", "go mod tidy", "go list -m all", "go doc fmt.Println", "gofmt -l .",
		"npm test", "npm test -- src/a.test.js", "npm run build", "npm run lint --silent",
		"cargo test", "cargo test --release -- --nocapture", "cargo build --release", "cargo clippy --all-targets -- -D warnings",
		"cargo fmt -- --check", "make", "make test -j4", "make -k build",
		"pytest -x -q", "pytest tests/test_a.py::test_b -vv", "python3 -m pytest -xvs tests",
		"ls -la", "grep -rn --include=*.go foo .", "find . -name '*.go' -not -path './vendor/*'", "rg -n foo -g '*.go'",
		"head -n 50 a.go", "tail -f log", "wc -l a.go", "sort -u x", "cd src && ls", "cat a.go | grep -c x",
		"sed -n 1,40p a.go", "find . -name '*.go' | xargs grep -l foo",
	} {
		if v := p.Decide(bash(line)); v.Decision != Allow {
			t.Errorf("Decide(%q) = %s (%s), want allow", line, v.Decision, v.Reason)
		}
	}
}

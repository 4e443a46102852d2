package permission

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// oracleLines are lines harmless rules allow, to show that the oracle
// sees what it should: each runs only the commands it names.
var oracleLines = []string{
	"echo hi && ls -la | wc -l", "git status", "for f in *.go; do cat $f; done", "echo x$(ls) x`cat x`",
	"test -f x && cat x || echo no", "[[ -f x ]] && echo yes", "echo $((1+2))", "cat <<EOF\nhello $(ls)\nEOF",
	"x=1; echo $x", "case x in x) echo y;; esac", "echo x${x:-$(ls)}", "until true; do ls; done",
	"if true; then echo a; fi", "(cd /; ls)", "{ echo a; ls; } | grep a", "go test ./... 2>&1 | grep -v ok",
	"cat < /dev/null", "echo a > /dev/null", "printf '%s\\n' a b", "ls *.go ~/x", "echo ${#x} x${x%.go} x${x/a/b}",
	"GIT_PAGER=cat git status", "CGO_ENABLED=0 go test ./...", "echo x${a[1]} x${x@Q}", "[[ $# -eq 0 ]] && echo none",
	"echo \"x$(cat <(ls))\"", "cat <(ls)", "! grep -q x y", "time ls",
}

// oracleStubs are the programs the oracle's PATH holds: stand-ins for
// those attackRules name, which do nothing.
var oracleStubs = []string{"cat", "ls", "wc", "grep", "git", "go"}

// FuzzClassifierOracle runs the lines the classifier lets harmless rules
// allow under bash -x, in a scratch directory whose PATH holds only
// stand-ins for the programs the rules name, and checks that every
// command bash ran is one the classifier found in the line: nothing runs
// that a rule did not name. Its seeds are the attack lines (which must
// not be allowed, so do not run) and lines that are allowed.
func FuzzClassifierOracle(f *testing.F) {
	shell, err := exec.LookPath("bash")
	if err != nil {
		f.Skip("no bash to run lines under")
	}
	for _, l := range append(append([]string{}, attackLines...), oracleLines...) {
		f.Add(l)
	}
	fx := newFixture(f)
	p := fx.policy(f, ModeAsk, attackRules, nil)
	scratch := oracleScratch(f)
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 4096 || strings.IndexByte(line, 0) >= 0 {
			return
		}
		if v := p.Decide(bash(line)); v.Decision != Allow {
			return
		}
		named := map[string]bool{}
		for _, c := range p.parsers.splitLine(line, &p.shell).commands {
			for _, ws := range [][]word{c.words, c.wrapped} {
				if len(ws) > 0 && ws[0].literal() {
					named[path.Base(ws[0].allow)] = true
				}
			}
		}
		for _, ran := range traceLine(t, shell, scratch, line) {
			if !named[ran] {
				t.Fatalf("line %q, allowed by %q, ran %q, which the classifier did not name (it named %v)", line, attackRules, ran, named)
			}
		}
	})
}

// oracleScratch makes the directory lines run in, with a bin directory
// of stand-ins and a few files for globs to find.
func oracleScratch(t testing.TB) string {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, os.MkdirAll(filepath.Join(dir, "work"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	for _, name := range oracleStubs {
		must(t, os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\nexit 0\n"), 0o755))
	}
	// The shells whose -c lines the classifier reads as part of the line
	// trace those lines too, so the oracle sees what runs inside them.
	if shell, err := exec.LookPath("bash"); err == nil {
		for _, name := range []string{"bash", "sh", "dash"} {
			script := "#!" + shell + "\nexec " + shell + " --norc --noprofile -x \"$@\"\n"
			must(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
		}
	}
	for _, name := range []string{"a.go", "x", "y"} {
		must(t, os.WriteFile(filepath.Join(dir, "work", name), []byte("x\n"), 0o644))
	}
	return dir
}

// traceLine runs line with bash -x and returns the program of each simple
// command bash ran, as its trace shows it; assignments and the shell's
// own compound commands ([[ ]], (( )), let, for, case) are left out:
// the classifier judges their arithmetic itself.
func traceLine(t *testing.T, shell, scratch, line string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.CommandContext(ctx, shell, "--norc", "--noprofile", "-x", "-c", line)
	cmd.Dir = filepath.Join(scratch, "work")
	cmd.Env = []string{"PATH=" + filepath.Join(scratch, "bin"), "HOME=" + scratch, "TMPDIR=" + scratch, "LANG=C", "BASH_XTRACEFD=3"}
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatal(err)
	}
	w.Close()
	var ran []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	entry := ""
	for sc.Scan() {
		// A traced word holding a newline spans lines, inside its single
		// quotes: an entry ends where its quotes balance.
		if entry += sc.Text(); strings.Count(entry, "'")%2 == 1 {
			entry += "\n"
			continue
		}
		if name, ok := tracedProgram(entry); ok {
			ran = append(ran, name)
		}
		entry = ""
	}
	_ = cmd.Wait() // a failing line is fine: what it ran is what counts
	return ran
}

// tracedProgram reads the program of one line of bash's trace: "+ ls -la",
// "++ 'a b' x"; false for lines that run no program.
func tracedProgram(l string) (string, bool) {
	rest := strings.TrimLeft(l, "+")
	if rest == l || !strings.HasPrefix(rest, " ") {
		return "", false // a value's further lines
	}
	rest = rest[1:]
	var name string
	switch {
	case strings.HasPrefix(rest, "'"):
		end := strings.IndexByte(rest[1:], '\'')
		if end < 0 {
			return "", false
		}
		name = rest[1 : 1+end]
	case strings.HasPrefix(rest, "$'"):
		return "$'", true // a name with control characters: never one the rules name
	default:
		name, _, _ = strings.Cut(rest, " ")
	}
	if eq := strings.IndexByte(name, '='); eq > 0 && assignedName(name[:eq]) ||
		strings.HasPrefix(name, "[[") || strings.HasPrefix(name, "((") || name == "let" || name == "for" || name == "case" || name == "select" || name == "" {
		return "", false
	}
	if readsLikeBash(path.Base(name)) && runsCommandString(rest) {
		return "", false // its line is traced in its turn
	}
	return path.Base(name), true
}

// runsCommandString reports whether a traced shell's words have -c.
func runsCommandString(traced string) bool {
	for _, f := range strings.Fields(traced)[1:] {
		f = strings.Trim(f, "'") // bash -x quotes "-!c"
		if len(f) > 1 && f[0] == '-' && f[1] != '-' && strings.IndexByte(f, 'c') > 0 {
			return true
		}
	}
	return false
}

// assignedName reports whether the text before a traced "=" is what an
// assignment puts there: a name, perhaps with a subscript and a "+".
func assignedName(s string) bool {
	s = strings.TrimSuffix(s, "+")
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		s = s[:i]
	}
	return validName(s)
}

// TestOracleSees: the oracle's own lines are allowed and it sees what
// they run, and it sees a command run through a value's text, which is
// what it is there to catch.
func TestOracleSees(t *testing.T) {
	shell, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run lines under")
	}
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, attackRules, nil)
	scratch := oracleScratch(t)
	for _, line := range oracleLines {
		if v := p.Decide(bash(line)); v.Decision != Allow {
			t.Errorf("oracle line %q: %s (%s), want allow", line, v.Decision, v.Reason)
		}
	}
	if ran := traceLine(t, shell, scratch, "echo hi && ls -la | wc -l"); strings.Join(ran, " ") != "echo ls wc" && strings.Join(ran, " ") != "echo wc ls" {
		t.Errorf("trace of a pipeline = %q", ran)
	}
	if ran := traceLine(t, shell, scratch, `sh -c 'ls | wc -l'`); strings.Join(ran, " ") != "ls wc" && strings.Join(ran, " ") != "wc ls" {
		t.Errorf("trace of a line sh runs = %q", ran)
	}
	ran := traceLine(t, shell, scratch, `x='a[$(grep q)]'; echo $((x))`)
	if !strings.Contains(strings.Join(ran, " "), "grep") {
		t.Errorf("trace of arithmetic on a value = %q, want grep among them", ran)
	}
}

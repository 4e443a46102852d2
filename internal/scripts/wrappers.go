package scripts

import "slices"

// wrapper is a program that runs the command after its options and
// operands (env, timeout 5, sudo -u x), perhaps elsewhere.
type wrapper struct {
	opts
	// operands are the words between the options and the command
	// (timeout's duration, flock's lock file).
	operands int
	// chdir are the options whose value is the directory the command runs in.
	chdir []string
	// assigns: NAME=VALUE words come before the command (env).
	assigns bool
	// probe are the options with which it runs no command (command -v).
	probe []string
	// split are the options whose value is more words of the command (env -S).
	split []string
	// line are the options whose value is a shell line it runs (flock -c).
	line []string
}

// wrappers are the programs that run another command, by name.
var wrappers = map[string]wrapper{
	"env": {opts: opts{valued: "uCS", long: []string{"--unset", "--chdir", "--split-string"}},
		chdir: []string{"-C", "--chdir"}, assigns: true, split: []string{"-S", "--split-string"}},
	"exec":    {opts: opts{valued: "a"}},
	"command": {probe: []string{"-v", "-V"}},
	"builtin": {},
	"nohup":   {},
	"setsid":  {},
	"busybox": {},
	"time":    {opts: opts{valued: "of", long: []string{"--output", "--format"}}},
	"nice":    {opts: opts{valued: "n", long: []string{"--adjustment"}}},
	"ionice":  {opts: opts{valued: "cnpPu", long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}}, probe: []string{"-p", "-P", "-u", "--pid", "--pgid", "--uid"}},
	"timeout": {opts: opts{valued: "sk", long: []string{"--signal", "--kill-after"}}, operands: 1},
	"stdbuf":  {opts: opts{valued: "ioe", long: []string{"--input", "--output", "--error"}}},
	"sudo": {opts: opts{valued: "ugpCDhrtUTR", long: []string{"--user", "--group", "--prompt", "--close-from", "--chdir", "--host", "--role", "--type", "--other-user", "--command-timeout", "--chroot"}},
		chdir: []string{"-D", "--chdir"}, probe: []string{"-l", "--list", "-v", "--validate", "-V", "--version", "-e", "--edit", "-K", "--remove-timestamp"}},
	"doas":    {opts: opts{valued: "uC"}, probe: []string{"-C"}},
	"xargs":   {opts: opts{valued: "aEILnPsd", long: []string{"--arg-file", "--delimiter", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}}},
	"flock":   {opts: opts{valued: "wEc", long: []string{"--timeout", "--conflict-exit-code", "--command"}}, operands: 1, line: []string{"-c", "--command"}},
	"chrt":    {operands: 1, probe: []string{"-p", "--pid", "-m", "--max"}},
	"taskset": {operands: 1, probe: []string{"-p", "--pid"}},
}

// handler follows the wrapper to the command it runs.
func (w wrapper) handler(f *finder, args []arg, _ arg, st *state, depth int) ([]arg, *state) {
	var extra []arg
	probe := false
	on := func(op option) {
		switch {
		case slices.Contains(w.probe, op.name):
			probe = true
		case slices.Contains(w.chdir, op.name):
			st = st.fork()
			st.move(op.val)
		case slices.Contains(w.split, op.name):
			extra = append(extra, fields(op.val)...)
		case slices.Contains(w.line, op.name):
			if op.val.ok {
				f.line(op.val.s, st.fork(), depth)
			}
			probe = true
		}
	}
	rest := w.skip(args, on)
	if w.operands > 0 {
		rest = w.skip(rest[min(w.operands, len(rest)):], on)
	}
	for w.assigns && len(rest) > 0 && rest[0].ok && isAssign(rest[0].s) {
		rest = rest[1:]
	}
	if probe {
		return nil, st
	}
	return append(extra, rest...), st
}

// fields splits env -S's string at spaces, as env does for plain words.
func fields(a arg) []arg {
	if !a.ok {
		return []arg{{}}
	}
	var out []arg
	for _, s := range splitSpace(a.s) {
		out = append(out, arg{s: s, ok: true})
	}
	return out
}

// isAssign says the word is NAME=VALUE.
func isAssign(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			return i > 0 && validName(s[:i])
		}
	}
	return false
}

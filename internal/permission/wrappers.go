package permission

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapper describes a program that runs the command in its arguments.
type wrapper struct {
	valued   string // options that take a value, space-separated
	stop     string // options meaning no command is run (command -v)
	split    string // options whose value is a shell line (env -S)
	line     string // options whose value is a line a shell runs (su -c)
	operands int    // operands before the command (timeout's duration)
	assigns  bool   // NAME=VALUE words may precede the command (env, sudo)
	// joined: the wrapper joins its arguments into a line for a shell
	// (watch, sudo -s).
	joined string // the options that make it do so; "*" for always
	// separate: the wrapper adds arguments, privileges or effects of its
	// own (sudo, xargs, strace -o), so it and the command are two
	// commands, each needing a rule. Otherwise the wrapper only changes how
	// the command runs (timeout, nohup) and rules judge the command alone.
	separate bool
}

// wrapperFor returns the wrapper named name, if it is one.
func wrapperFor(name string) (wrapper, bool) {
	switch name {
	case "exec":
		return wrapper{valued: "-a"}, true
	case "command":
		return wrapper{stop: "-v -V"}, true
	case "builtin", "nohup", "setsid", "unbuffer", "chronic", "catchsegv", "setpriv":
		return wrapper{}, true
	case "prlimit":
		return wrapper{valued: "-p --pid"}, true
	case "chroot":
		return wrapper{valued: "--userspec --groups", operands: 1, separate: true}, true
	case "nice":
		return wrapper{valued: "-n --adjustment"}, true
	case "ionice":
		return wrapper{valued: "-c --class -n --classdata", stop: "-p --pid -P --pgid -u --uid"}, true
	case "chrt", "taskset":
		return wrapper{valued: "-T -P -D --sched-runtime --sched-period --sched-deadline", stop: "-p --pid -a --all-tasks -m --max", operands: 1}, true
	case "timeout":
		return wrapper{valued: "-s --signal -k --kill-after", operands: 1}, true
	case "stdbuf":
		return wrapper{valued: "-i -o -e --input --output --error"}, true
	case "time":
		return wrapper{valued: "-f --format -o --output"}, true
	case "busybox":
		return wrapper{stop: "--list --list-full --install --help"}, true
	case "fakeroot":
		return wrapper{valued: "-l --lib --faked -s -i"}, true
	case "env":
		return wrapper{valued: "-u --unset -C --chdir", split: "-S --split-string", assigns: true}, true
	case "flock":
		return wrapper{valued: "-w --wait --timeout -E --conflict-exit-code", line: "-c --command", operands: 1, separate: true}, true
	case "watch":
		return wrapper{valued: "-n --interval -d --differences -q --equexit", joined: "*", separate: true}, true
	case "su", "runuser":
		return wrapper{valued: "-g --group -G --supp-group -s --shell -w --whitelist-environment -u --user",
			line: "-c --command --session-command", separate: true}, true
	case "script":
		return wrapper{valued: "-E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m --logging-format", line: "-c --command", separate: true}, true
	case "sudo":
		return wrapper{
			valued:   "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role -t --type -U --other-user -T --command-timeout",
			stop:     "-e --edit -l --list -v --validate -K --remove-timestamp -V --version",
			joined:   "-s --shell -i --login",
			assigns:  true,
			separate: true,
		}, true
	case "doas":
		return wrapper{valued: "-u -C", separate: true}, true
	case "pkexec":
		return wrapper{valued: "--user", separate: true}, true
	case "strace", "ltrace":
		return wrapper{valued: "-o -e -s -u -E -a -b -I -O -P -S -X -U -n", stop: "-p --attach -c", separate: true}, true
	case "valgrind", "firejail", "unshare", "nsenter", "proxychains", "proxychains4", "torsocks":
		return wrapper{valued: "-f -t -n -m -u -i -p -U -C -T -S -G", separate: true}, true
	case "xargs":
		return wrapper{
			valued:   "-a --arg-file -d --delimiter -E -I -L -n --max-args -P --max-procs -s --max-chars --process-slot-var",
			separate: true,
		}, true
	}
	return wrapper{}, false
}

// unwrapped is what unwrap found.
type unwrapped struct {
	rest     []word   // the command the wrapper runs
	risky    string   // a variable env or sudo sets that is not known to be harmless
	sets     []string // the variables env or sudo sets
	split    *word    // env -S's shell line
	line     *word    // a line the wrapper's shell runs (su -c, watch, sudo -s)
	separate bool     // see wrapper.separate
	joins    bool     // the options asked for rest to be joined into a line
}

// unwrap returns the command a wrapper (ws[0]) runs. It reports false when
// ws[0] is no wrapper, runs no command (command -v x, a bare timeout 5) or
// has options it cannot read.
func unwrap(ws []word) (unwrapped, bool) {
	if len(ws) < 2 || !ws[0].literal() {
		return unwrapped{}, false
	}
	wr, ok := wrapperFor(path.Base(ws[0].allow))
	if !ok {
		return unwrapped{}, false
	}
	u := unwrapped{separate: wr.separate, joins: wr.joined == "*"}
	i, ok := wr.options(ws, &u)
	if !ok {
		return unwrapped{}, false
	}
	if u.split != nil || u.line != nil {
		return u, true
	}
	i += wr.operands
	if wr.line != "" && i+1 < len(ws) && hasWord(wr.line, ws[i].allow) { // flock FILE -c LINE
		w := ws[i+1]
		u.line = &w
		return u, true
	}
	for ; wr.assigns && i < len(ws); i++ {
		name, _, isAssign := strings.Cut(ws[i].allow, "=")
		if !isAssign || !syntax.ValidName(name) {
			break
		}
		if !harmlessEnv(name, valueAfter(ws[i], len(name)+1)) && u.risky == "" {
			u.risky = name
		}
		u.sets = append(u.sets, name)
	}
	if i >= len(ws) {
		return unwrapped{}, false
	}
	u.rest = ws[i:]
	if u.joins {
		line := joinWords(u.rest)
		u.line = &line
	}
	return u, true
}

// valueAfter returns the part of w after its first n bytes, as a word.
func valueAfter(w word, n int) word {
	v := w.allow[n:]
	return word{allow: v, deny: v, dynamic: strings.IndexByte(v, wild) >= 0, expands: w.expands}
}

// options reads the wrapper's options in ws[1:] and returns the index of
// the first word after them; false when they cannot be read.
func (wr wrapper) options(ws []word, u *unwrapped) (int, bool) {
	i := 1
	for i < len(ws) {
		w := ws[i]
		if !w.literal() {
			return 0, false
		}
		s := w.allow
		switch {
		case s == "--":
			return i + 1, true
		case s == "-":
			i++
		case strings.HasPrefix(s, "--"):
			name, value, hasValue := strings.Cut(s, "=")
			switch {
			case hasWord(wr.stop, name):
				return 0, false
			case hasWord(wr.split, name):
				return wr.splitValue(ws, i, value, hasValue, &u.split)
			case hasWord(wr.line, name):
				return wr.splitValue(ws, i, value, hasValue, &u.line)
			case hasWord(wr.joined, name):
				u.joins = true
				i++
			case hasWord(wr.valued, name) && !hasValue:
				i += 2
			default:
				i++
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			next, done, ok := wr.shortOptions(ws, i, u)
			if done || !ok {
				return next, ok
			}
			i = next
		default:
			return i, true
		}
	}
	return i, true
}

// shortOptions reads a cluster of short options such as -Eu root. done
// means the cluster ended the options (env -S).
func (wr wrapper) shortOptions(ws []word, i int, u *unwrapped) (next int, done, ok bool) {
	s := ws[i].allow
	for j := 1; j < len(s); j++ {
		opt := "-" + s[j:j+1]
		attached := s[j+1:]
		switch {
		case hasWord(wr.stop, opt):
			return 0, true, false
		case hasWord(wr.split, opt):
			n, ok := wr.splitValue(ws, i, attached, attached != "", &u.split)
			return n, true, ok
		case hasWord(wr.line, opt):
			n, ok := wr.splitValue(ws, i, attached, attached != "", &u.line)
			return n, true, ok
		case hasWord(wr.joined, opt):
			u.joins = true
		case hasWord(wr.valued, opt):
			if attached != "" {
				return i + 1, false, true
			}
			return i + 2, false, true
		}
	}
	return i + 1, false, true
}

// splitValue records an option's shell line (env -S, su -c), attached or
// the next word, in *dst.
func (wr wrapper) splitValue(ws []word, i int, attached string, hasAttached bool, dst **word) (int, bool) {
	if hasAttached {
		w := staticWord(attached)
		*dst = &w
		return i + 1, true
	}
	if i+1 >= len(ws) {
		return 0, false
	}
	w := ws[i+1]
	*dst = &w
	return i + 2, true
}

// hasWord reports whether the space-separated list has w.
func hasWord(list, w string) bool {
	for _, item := range strings.Fields(list) {
		if item == w {
			return true
		}
	}
	return false
}

// isShell reports whether the program name is a shell that runs -c lines.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish":
		return true
	}
	return false
}

// readsLikeBash reports whether the shell reads a -c line in bash's
// grammar or a subset of it, so that forge's reading of the line holds.
func readsLikeBash(name string) bool {
	return name == "bash" || name == "sh" || name == "dash"
}

// shellCommandString reads a shell's options: hasC when it has -c, and str
// the line it runs then. ok is false when the options are not literal.
func shellCommandString(ws []word) (str *word, hasC, ok bool) {
	i := 1
	for ; i < len(ws); i++ {
		if !ws[i].literal() {
			return nil, false, false
		}
		s := ws[i].allow
		if s == "--" || s == "-" {
			i++
			break
		}
		if s == "--rcfile" || s == "--init-file" {
			i++
			continue
		}
		if strings.HasPrefix(s, "--") {
			continue
		}
		if len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			break
		}
		if strings.IndexFunc(s[1:], func(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') }) >= 0 {
			return nil, false, false // not an option a shell takes: it would refuse to start, or read it otherwise
		}
		if s[0] == '-' && strings.IndexByte(s, 'c') >= 0 {
			hasC = true
		}
		if strings.ContainsAny(s[1:], "oO") {
			i++ // -o option, -O shopt_option
		}
	}
	if hasC && i < len(ws) {
		return &ws[i], true, true
	}
	return nil, hasC, true
}

// findExecs returns the commands of find's -exec, -execdir, -ok and -okdir
// actions.
func findExecs(ws []word) [][]word {
	var out [][]word
	for i := 1; i < len(ws); i++ {
		switch ws[i].allow {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		start := i + 1
		for i++; i < len(ws) && ws[i].allow != ";" && ws[i].allow != "+"; i++ {
		}
		if i > start {
			out = append(out, ws[start:i])
		}
	}
	return out
}

// trapHandler returns the handler trap sets (trap [-lpP] [--] HANDLER
// SIGNAL...); false when it sets none (it prints, or resets signals).
func trapHandler(ws []word) (word, bool) {
	i := 1
	for ; i < len(ws); i++ {
		w := ws[i]
		if !w.literal() {
			break
		}
		if w.allow == "--" {
			i++
			break
		}
		if len(w.allow) < 2 || w.allow[0] != '-' {
			break
		}
		return word{}, false // -l, -p and -P print; any other option fails
	}
	if len(ws)-i < 2 || (ws[i].literal() && ws[i].allow == "-") {
		return word{}, false
	}
	return ws[i], true
}

// aliasValues returns the commands alias NAME=VALUE defines.
func aliasValues(ws []word) []word {
	var out []word
	for _, w := range ws[1:] {
		if w.literal() && strings.HasPrefix(w.allow, "-") {
			continue
		}
		name, value, ok := strings.Cut(w.allow, "=")
		if !ok || name == "" {
			continue
		}
		if !w.literal() {
			out = append(out, word{allow: string(wild), deny: string(wild), dynamic: true})
			continue
		}
		out = append(out, staticWord(value))
	}
	return out
}

// find records the commands find runs for each file (-exec, -execdir,
// -ok, -okdir) and, for deny rules, the removal -delete does.
func (s *splitter) find(ws []word, text, why string, ctx lineContext) {
	for _, group := range findExecs(ws) {
		s.words(group, text, why, ctx)
	}
	for _, w := range ws[1:] {
		if w.literal() && w.allow == "-delete" {
			rm := append([]word{staticWord("rm"), staticWord("-rf")}, findStarts(ws)...)
			s.add(command{text: text, words: rm, denyOnly: true})
			return
		}
	}
}

// findStarts returns find's starting points: the words before its first
// expression word.
func findStarts(ws []word) []word {
	var out []word
	for _, w := range ws[1:] {
		if w.literal() && (strings.HasPrefix(w.allow, "-") || w.allow == "(" || w.allow == "!") {
			break
		}
		out = append(out, w)
	}
	return out
}

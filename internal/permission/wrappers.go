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
	operands int    // operands before the command (timeout's duration)
	assigns  bool   // NAME=VALUE words may precede the command (env, sudo)
	// separate: the wrapper adds arguments or privileges of its own
	// (sudo, xargs), so it and the command are two commands, each needing
	// a rule. Otherwise the wrapper only changes how the command runs
	// (timeout, nohup) and rules judge the command alone.
	separate bool
}

// wrapperFor returns the wrapper named name, if it is one.
func wrapperFor(name string) (wrapper, bool) {
	switch name {
	case "exec":
		return wrapper{valued: "-a"}, true
	case "command":
		return wrapper{stop: "-v -V"}, true
	case "builtin", "nohup":
		return wrapper{}, true
	case "nice":
		return wrapper{valued: "-n --adjustment"}, true
	case "timeout":
		return wrapper{valued: "-s --signal -k --kill-after", operands: 1}, true
	case "stdbuf":
		return wrapper{valued: "-i -o -e --input --output --error"}, true
	case "env":
		return wrapper{valued: "-u --unset -C --chdir", split: "-S --split-string", assigns: true}, true
	case "sudo":
		return wrapper{
			valued:   "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role -t --type -U --other-user -T --command-timeout",
			stop:     "-e --edit -l --list -v --validate -K --remove-timestamp -V --version",
			assigns:  true,
			separate: true,
		}, true
	case "doas":
		return wrapper{valued: "-u -C", separate: true}, true
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
	rest     []word // the command the wrapper runs
	risky    string // a risky variable env or sudo sets, if any
	split    *word  // env -S's shell line
	separate bool   // see wrapper.separate
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
	u := unwrapped{separate: wr.separate}
	i, ok := wr.options(ws, &u)
	if !ok {
		return unwrapped{}, false
	}
	if u.split != nil {
		return u, true
	}
	i += wr.operands
	for ; wr.assigns && i < len(ws); i++ {
		name, _, isAssign := strings.Cut(ws[i].allow, "=")
		if !isAssign || !syntax.ValidName(name) {
			break
		}
		if riskyAssignment(name, valueAfter(ws[i], len(name)+1)) && u.risky == "" {
			u.risky = name
		}
	}
	if i >= len(ws) {
		return unwrapped{}, false
	}
	u.rest = ws[i:]
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
				return wr.splitValue(ws, i, value, hasValue, u)
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
			n, ok := wr.splitValue(ws, i, attached, attached != "", u)
			return n, true, ok
		case hasWord(wr.valued, opt):
			if attached != "" {
				return i + 1, false, true
			}
			return i + 2, false, true
		}
	}
	return i + 1, false, true
}

// splitValue records env -S's shell line, attached or the next word.
func (wr wrapper) splitValue(ws []word, i int, attached string, hasAttached bool, u *unwrapped) (int, bool) {
	if hasAttached {
		w := staticWord(attached)
		u.split = &w
		return i + 1, true
	}
	if i+1 >= len(ws) {
		return 0, false
	}
	w := ws[i+1]
	u.split = &w
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

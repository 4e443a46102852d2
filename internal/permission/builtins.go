package permission

import (
	"strings"
)

// Reasons a shell builtin keeps rules with a pattern from allowing a command.
const (
	whyEval    = "runs its arguments as a shell line, which no allow rule covers"
	whySource  = "runs a file's lines in this shell, which no allow rule covers"
	whyTrap    = "sets a handler that runs later, which no allow rule covers"
	whyBuiltin = "changes the shell itself (variables, aliases, options, what a name runs), which no allow rule covers"
	whyExec    = "replaces the shell or its descriptors, which no allow rule covers"
)

// builtinRisk says why the bash builtin name, run with the words ws, may
// not be allowed by a rule with a pattern, and whether what it does
// depends on text known only when it runs. It returns "" for builtins
// that only print, test or move around (echo, test, cd), and for names
// that are not builtins.
func builtinRisk(name string, ws []word) (why string, hidden bool) {
	switch name {
	case ":", "true", "false", "echo", "pwd", "cd", "pushd", "popd", "dirs", "test", "[", "exit", "return",
		"break", "continue", "shift", "type", "help", "times", "umask", "ulimit", "wait", "jobs", "kill",
		"command", "logout", "disown", "suspend", "fg", "bg", "caller":
		if (name == "test" || name == "[") && testEvaluates(ws) {
			return whySubscript, true
		}
		return "", false
	case "printf":
		if len(ws) > 1 && (!ws[1].literal() || strings.HasPrefix(ws[1].allow, "-v")) {
			name := strings.TrimPrefix(ws[1].allow, "-v")
			if name == "" && len(ws) > 2 && ws[2].literal() {
				name = ws[2].allow
			}
			return whyBuiltin, !ws[1].literal() || !validName(name)
		}
		return "", false
	case "set":
		if safeSet(ws[1:]) {
			return "", false
		}
		return whyBuiltin, false
	case "eval":
		return whyEval, false
	case "source", ".":
		return whySource, false
	case "trap":
		return whyTrap, false
	case "exec":
		return whyExec, false
	case "read", "mapfile", "readarray", "getopts", "unset":
		return whyBuiltin, !assignsPlainNames(ws[1:])
	case "declare", "typeset", "local", "export", "readonly":
		return whyDeclare, !assignsPlainNames(ws[1:]) || referenceOption(ws[1:])
	case "let":
		return whyArithmetic, true
	case "alias", "unalias", "builtin", "shopt", "history", "compopt":
		return whyBuiltin, false
	case "enable", "hash", "fc", "bind", "complete", "compgen":
		return whyBuiltin, true // load code, rebind names, or run commands they are given
	}
	return "", false
}

// testEvaluates reports whether test or [ is asked -v or -R about a name
// that is not a plain literal one: the subscript of a[$(cmd)] runs cmd.
func testEvaluates(ws []word) bool {
	for i := 1; i < len(ws); i++ {
		if !ws[i].literal() {
			if i > 1 && (ws[i-1].allow == "-v" || ws[i-1].allow == "-R") {
				return true
			}
			continue
		}
		if (ws[i].allow == "-v" || ws[i].allow == "-R") && i+1 < len(ws) &&
			!(ws[i+1].literal() && validName(ws[i+1].allow)) {
			return true
		}
	}
	return false
}

// assignsPlainNames reports whether every word that is not an option is
// a literal plain name, or name=value: then a builtin that assigns to
// them evaluates no subscript.
func assignsPlainNames(ws []word) bool {
	for _, w := range ws {
		if !w.literal() {
			return false
		}
		name, _, _ := strings.Cut(w.allow, "=")
		if strings.HasPrefix(name, "-") || strings.HasPrefix(name, "+") {
			continue
		}
		if !validName(name) {
			return false
		}
	}
	return true
}

// commandVariable reports whether a program runs the value of the
// environment variable name as a shell line (a pager, an editor, git's
// ssh command): deny rules must see what it runs.
func commandVariable(name string) bool {
	switch name {
	case "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "GH_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR",
		"GIT_SEQUENCE_EDITOR", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF",
		"LESSOPEN", "LESSCLOSE", "BROWSER", "PROMPT_COMMAND":
		return true
	}
	return false
}

// referenceOption reports whether declare's options make a name
// reference (-n) or an integer (-i), whose values bash evaluates.
func referenceOption(ws []word) bool {
	for _, w := range ws {
		if w.literal() && strings.HasPrefix(w.allow, "-") && strings.ContainsAny(w.allow, "ni") {
			return true
		}
	}
	return false
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// safeSet reports whether set's arguments only turn on the options
// scripts use for safety (set -euo pipefail, set -x), or set the
// positional parameters.
func safeSet(ws []word) bool {
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !w.literal() {
			return false
		}
		s := w.allow
		switch {
		case s == "--" || s == "-":
			return true
		case len(s) < 2 || (s[0] != '-' && s[0] != '+'):
			return false
		}
		for _, c := range s[1:] {
			switch c {
			case 'e', 'u', 'x', 'v', 'C', 'f':
			case 'o':
				i++
				if i >= len(ws) || !ws[i].literal() || !safeSetOption(ws[i].allow) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// safeSetOption reports whether set -o NAME is one of the safety options.
func safeSetOption(name string) bool {
	switch name {
	case "pipefail", "errexit", "nounset", "xtrace", "verbose", "noclobber", "noglob":
		return true
	}
	return false
}

// harmlessEnv reports whether setting name to value in a command's
// environment (NAME=value cmd, env NAME=value cmd) cannot change which
// code the command runs or which files it reads as code or settings.
// Every other name asks: a variable such as PATH, LD_PRELOAD, GIT_DIR,
// PYTHONPATH, NODE_OPTIONS, BASH_ENV or HOME makes an allowed command run
// something else.
func harmlessEnv(name string, value word) bool {
	switch name {
	case "CI", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLORTERM", "TERM", "COLUMNS", "LINES", "TZ",
		"LANG", "LANGUAGE", "CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOMAXPROCS",
		"GOTRACEBACK", "GOGC", "GOMEMLIMIT", "GO111MODULE", "RUST_BACKTRACE", "RUST_LOG", "CARGO_TERM_COLOR",
		"NODE_ENV", "NODE_NO_WARNINGS", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED",
		"PYTHONIOENCODING", "PYTHONUTF8", "DEBUG", "VERBOSE", "LOG_LEVEL", "RAILS_ENV", "RACK_ENV", "MIX_ENV",
		"GIT_TERMINAL_PROMPT", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
		"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "DOCKER_BUILDKIT", "TERM_PROGRAM":
		return true
	case "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "GH_PAGER":
		return value.literal() && (value.allow == "" || value.allow == "cat")
	case "GOWORK", "GOTOOLCHAIN", "GOFLAGS":
		return value.literal() && (value.allow == "off" || value.allow == "local" || value.allow == "")
	}
	return strings.HasPrefix(name, "LC_")
}

package sandbox

import (
	"path/filepath"
	"strings"
	"time"
)

// How the model can get past the sandbox, said once in every hint: the
// person is asked, or the person widens the configuration.
const (
	leaveHint = "run it with sandbox: false (forge asks the person)"
)

// maxExplainScan bounds how much of an output Explain reads: the lines
// that say what failed are near its end.
const maxExplainScan = 64 << 10

// Explain says in one line what the sandbox blocked of a command that ran
// in dir, started at since and printed output, and how to ask for more;
// "" when it sees nothing the sandbox did. It reads the hosts the proxy
// refused and the errors programs print for a write to a read-only place
// or a name they could not resolve, so that the model does not retry
// blindly.
func (s *Sandbox) Explain(output, dir string, since time.Time) string {
	hint := s.explain(output, dir, since)
	if s.guard == nil {
		return hint
	}
	if told := s.guard.tell(since); len(told) > 0 {
		if hint != "" {
			told = append(told, hint)
		}
		return strings.Join(told, "\n")
	}
	return hint
}

// explain is Explain's line for what was blocked.
func (s *Sandbox) explain(output, dir string, since time.Time) string {
	if hosts := s.Blocked(since); len(hosts) > 0 {
		return "[sandbox] the sandbox's proxy refused " + strings.Join(hosts, ", ") + ": only the hosts in sandbox.network.allow are reachable" +
			s.allowedList() + "; " + leaveHint + ", or the person adds the host to sandbox.network.allow"
	}
	if len(output) > maxExplainScan {
		output = output[len(output)-maxExplainScan:]
	}
	sp := s.policy.places(dir, s.guard.known(), s.names.cached())
	best, rank := "", 0
	for _, line := range strings.Split(output, "\n") {
		if hint, r := s.explainLine(line, dir, sp); r > rank {
			best, rank = hint, r
		}
	}
	if best == "" {
		return ""
	}
	return "[sandbox] " + best
}

// What a line can say the sandbox did, the most telling first: a write
// is what a model most often needs to hear about.
const (
	rankNetwork = 1 + iota
	rankSocket
	rankHidden
	rankWrite
)

// explainLine reads one line of output: what it says the sandbox
// blocked, and how telling that is (0: nothing).
func (s *Sandbox) explainLine(line, dir string, sp spec) (string, int) {
	low := strings.ToLower(line)
	if at := phraseAt(low, "read-only file system", "permission denied"); at >= 0 &&
		(strings.Contains(low, "read-only file system") || writeDenied(low)) {
		if hint := s.writeHint(pathNear(line, at, dir), sp); hint != "" {
			return hint, rankWrite
		}
		return "", 0
	}
	if at := phraseAt(low, "no such file or directory"); at >= 0 {
		if p := pathNear(line, at, dir); p != "" && (insideAny(p, sp.HideDirs) || insideAny(p, sp.HideFiles)) {
			return p + " is hidden in the sandbox (a place where credentials are kept); " + leaveHint +
				" if the command really needs it", rankHidden
		}
		return "", 0
	}
	if socketRefused(low) {
		return "the sandbox refuses unix sockets (a daemon listening on one, such as tmux, ssh-agent or docker, would act " +
			"outside the sandbox; socketpair works); " + leaveHint + " if the command really needs one", rankSocket
	}
	if unreachable(low) {
		return "the sandbox has no network but the hosts in sandbox.network.allow" + s.allowedList() +
			", reached through forge's proxy; " + leaveHint + ", or the person adds the host to sandbox.network.allow", rankNetwork
	}
	return "", 0
}

// phraseAt is where the first of phrases is in low; -1 when none is.
func phraseAt(low string, phrases ...string) int {
	for _, p := range phrases {
		if i := strings.Index(low, p); i >= 0 {
			return i
		}
	}
	return -1
}

// pathNear is the path an error message at byte at of line is about:
// the word just before it (touch: cannot touch '/x': Read-only file
// system; bash: line 1: .git/hooks/x: ...; open /x: ...), else the first
// path after it (Python's ...: '/x'); "" for none.
func pathNear(line string, at int, dir string) string {
	before := strings.TrimRight(line[:at], ": \t")
	if i := strings.LastIndexAny(before, " \t"); i >= 0 {
		before = before[i+1:]
	}
	word := strings.Trim(before, "'\"`‘’")
	quoted := word != before
	if word != "" && (quoted || strings.ContainsAny(word, "/.")) && !strings.ContainsAny(word, "=") {
		if !filepath.IsAbs(word) {
			word = filepath.Join(dir, word)
		}
		return resolved(filepath.Clean(word))
	}
	if after := pathsIn(line[at:], dir); len(after) > 0 {
		return after[0]
	}
	return ""
}

// writeHint says why a write to path ("" when the message named none)
// failed; "" when the sandbox did not refuse it.
func (s *Sandbox) writeHint(path string, sp spec) string {
	where := "the project, the temporary directory and the toolchains' caches"
	switch {
	case s.policy.Mode == ModeReadOnly:
		return "the sandbox is read-only here (plan mode, or sandbox.mode: read-only): nothing can be written; " + leaveHint
	case path == "":
		return "a write was blocked: commands may write only in " + where + "; " + leaveHint +
			", or the person adds the directory to sandbox.writable"
	case insideAny(path, sp.ReadOnly):
		return path + " stays read-only in the sandbox (forge's settings and program, git's configuration and hooks, the scripts forge runs); " +
			leaveHint + " if the person should decide"
	case !insideAny(path, sp.Writable) && !insideAny(path, sp.Private):
		return "the sandbox blocked a write to " + path + ": commands may write only in " + where + "; " + leaveHint +
			", or the person adds the directory to sandbox.writable"
	}
	return ""
}

// allowedList is ": a, b" for the allowed hosts, or " (none)".
func (s *Sandbox) allowedList() string {
	if len(s.policy.AllowedHosts) == 0 {
		return " (none)"
	}
	return " (" + strings.Join(s.policy.AllowedHosts, ", ") + ")"
}

// writeDenied says the line reports a refused write (Landlock answers
// EACCES where the mounts would not have).
func writeDenied(low string) bool {
	if !strings.Contains(low, "permission denied") {
		return false
	}
	for _, w := range []string{"cannot create", "cannot touch", "cannot make directory", "cannot remove", "cannot move",
		"mkdir", "write", "creat", "rename", "unlink", "cannot open"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// socketRefused says the line reports a socket or a connection the
// seccomp filter refused (EPERM), as C programs, curl, Go and Python word
// it.
func socketRefused(low string) bool {
	if !strings.Contains(low, "operation not permitted") && !strings.Contains(low, "eperm") {
		return false
	}
	for _, w := range []string{"socket", "connect", ".sock", "unix"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// unreachable says the line reports a host that could not be resolved or
// reached, as curl, git, Go, Python, Node and the resolver word it.
func unreachable(low string) bool {
	for _, w := range []string{"could not resolve host", "temporary failure in name resolution", "name or service not known",
		"no such host", "network is unreachable", "enotfound", "eai_again", "getaddrinfo", "nodename nor servname",
		"failed to resolve", "couldn't resolve", "connection refused", "econnrefused", "couldn't connect to server",
		"failed to connect to"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// pathsIn are the paths a line of output names: absolute ones, and
// relative ones in quotes taken from dir.
func pathsIn(line, dir string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(line, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\'' || r == '"' || r == '`' || r == '(' || r == ')' || r == ',' || r == '‘' || r == '’'
	}) {
		f = strings.TrimRight(f, ":;.")
		switch {
		case strings.HasPrefix(f, "/"):
			out = append(out, resolved(filepath.Clean(f)))
		case strings.Contains(line, "'"+f+"'") || strings.Contains(line, "‘"+f+"’") || strings.Contains(line, `"`+f+`"`):
			if f != "" && !strings.ContainsAny(f, " =") {
				out = append(out, resolved(filepath.Join(dir, f)))
			}
		}
	}
	return out
}

// resolved is p with the links of its longest existing part resolved,
// as the sandbox's places are.
func resolved(p string) string {
	rest := ""
	for d := p; ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
		if d == filepath.Dir(d) {
			return p
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

package permission

import (
	"net/url"
	"sort"
	"strings"
	"unicode"

	"github.com/forgehq/forge/internal/tools"
)

// subjects are what a call's rule patterns are matched against, chosen by
// its arguments: a string command (a shell line), else the path arguments,
// else a url, else every top-level string argument.
type subjects struct {
	isCommand bool
	line      shellLine
	paths     []pathSubject
	url       string
	hasURL    bool
	texts     []string
	// hosts are where the call sends data (Call.Hosts): domain rules meet
	// them too.
	hosts []string
}

// subjectsFor chooses a call's subjects: its arguments' and its hosts.
func (p *Policy) subjectsFor(c Call) subjects {
	s := p.subjectsOf(c.Args)
	s.hosts = c.Hosts
	return s
}

// subjectsOf chooses a call's subjects from its arguments.
func (p *Policy) subjectsOf(args tools.Args) subjects {
	if cmd, ok := args["command"].(string); ok {
		return subjects{isCommand: true, line: p.parsers.splitLine(cmd, &p.shell)}
	}
	var s subjects
	for _, key := range [...]string{"file_path", "notebook_path", "path"} {
		if v, ok := args[key].(string); ok {
			s.paths = append(s.paths, p.pathSubject(v))
		}
	}
	if len(s.paths) > 0 {
		return s
	}
	if u, ok := args["url"].(string); ok {
		return subjects{url: u, hasURL: true}
	}
	keys := make([]string, 0, len(args))
	for k, v := range args {
		if _, ok := v.(string); ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.texts = append(s.texts, args[k].(string))
	}
	return s
}

// urlHost returns the lower-case host of a URL; a URL without a scheme is
// read as https.
func urlHost(raw string) (string, bool) {
	s := strings.TrimSpace(raw)
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), true
}

// primaryArg returns the argument that best shows what a call does, for
// messages: the command, path, url or first string argument.
func primaryArg(args tools.Args) string {
	for _, key := range [...]string{"command", "file_path", "notebook_path", "path", "url"} {
		if v, ok := args[key].(string); ok {
			return v
		}
	}
	keys := make([]string, 0, len(args))
	for k, v := range args {
		if _, ok := v.(string); ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Strings(keys)
	return args[keys[0]].(string)
}

// maxShown bounds the length of a call or command quoted in a reason.
const maxShown = 80

// shorten makes s one short line for a reason: runs of white space become
// one space, and text past maxShown characters becomes "…".
func shorten(s string) string {
	if len(s) <= maxShown && !strings.ContainsAny(s, "\t\n\r\v\f") && !strings.Contains(s, "  ") && strings.TrimSpace(s) == s {
		return s
	}
	out := make([]rune, 0, maxShown+1)
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
		if len(out) > maxShown {
			return string(out[:maxShown-1]) + "…"
		}
	}
	return string(out)
}

// display shows a call as Tool(argument), one short line.
func display(c Call) string {
	tool, arg := shorten(c.Tool), primaryArg(c.Args)
	if arg == "" {
		return tool
	}
	return tool + "(" + shorten(arg) + ")"
}

package repl

import (
	"sort"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// Completion candidates are whole words. A candidate that ends a word ends
// with a space; one that continues (file_path=) does not, so the value can
// be typed straight after it.

// Do implements readline.AutoCompleter: it returns the suffixes that
// complete the word before the cursor, and that word's length in runes.
func (s *Shell) Do(line []rune, pos int) ([][]rune, int) {
	if pos > len(line) {
		pos = len(line)
	}
	cands, partial := s.completeLine(string(line[:pos]))
	out := make([][]rune, 0, len(cands))
	for _, c := range cands {
		if strings.HasPrefix(c, partial) {
			out = append(out, []rune(c[len(partial):]))
		}
	}
	return out, len([]rune(partial))
}

// completeLine returns the candidates for the last, partial word of line,
// and that word.
func (s *Shell) completeLine(line string) ([]string, string) {
	partial := line
	if i := strings.LastIndexAny(line, " \t"); i >= 0 {
		partial = line[i+1:]
	}
	words, err := Fields(line[:len(line)-len(partial)])
	if err != nil {
		return nil, partial
	}
	if len(words) == 0 {
		var cands []string
		if !strings.HasPrefix(partial, "/") && partial != "" {
			for _, n := range s.app.reg.ListNames() {
				cands = append(cands, n+" ")
			}
		}
		for _, c := range s.commands() {
			cands = append(cands, c.Name+" ")
			for _, a := range c.Aliases {
				cands = append(cands, a+" ")
			}
		}
		return filterPrefix(cands, partial), partial
	}
	if !strings.HasPrefix(words[0], "/") {
		if s.app.reg.Exists(words[0]) {
			return filterPrefix(completeArgs(s, words[0], words[1:], partial), partial), partial
		}
		return nil, partial
	}
	c, ok := s.lookup(words[0])
	if !ok || c.Complete == nil {
		return nil, partial
	}
	return filterPrefix(c.Complete(s, words[1:], partial), partial), partial
}

// filterPrefix keeps the candidates that start with prefix, sorted and
// without duplicates.
func filterPrefix(cands []string, prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

func withSpace(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x + " "
	}
	return out
}

func completeHelp(s *Shell, words []string, _ string) []string {
	if len(words) > 0 {
		return nil
	}
	var out []string
	for _, c := range s.commands() {
		out = append(out, strings.TrimPrefix(c.Name, "/")+" ")
	}
	return out
}

func completeRun(s *Shell, words []string, partial string) []string {
	if len(words) == 0 {
		return withSpace(s.app.reg.ListNames())
	}
	return completeArgs(s, words[0], words[1:], partial)
}

// completeArgs offers the parameters of tool not given yet (file_path=),
// and after key= the values an enum or boolean parameter allows.
func completeArgs(s *Shell, tool string, given []string, partial string) []string {
	t, ok := s.app.reg.Get(tool)
	if !ok {
		return nil
	}
	params := t.Parameters()
	if key, _, found := strings.Cut(partial, "="); found {
		p := findParam(params, key)
		if p == nil {
			return nil
		}
		var vals []string
		switch {
		case len(p.Enum) > 0:
			for _, e := range p.Enum {
				if es, ok := e.(string); ok {
					vals = append(vals, es)
				}
			}
		case p.Type == tools.TypeBoolean:
			vals = []string{"true", "false"}
		}
		out := make([]string, len(vals))
		for i, v := range vals {
			out[i] = key + "=" + v + " "
		}
		return out
	}
	have := map[string]bool{}
	for _, w := range given {
		if k, _, ok := strings.Cut(w, "="); ok {
			have[k] = true
		}
	}
	var out []string
	for _, p := range params {
		if !have[p.Name] {
			out = append(out, p.Name+"=")
		}
	}
	return out
}

func completeTools(s *Shell, words []string, partial string) []string {
	if n := len(words); n > 0 && words[n-1] == "--category" {
		return withSpace(categoryNames())
	}
	if strings.HasPrefix(partial, "-") {
		return []string{"--category "}
	}
	return withSpace(s.app.reg.ListNames())
}

func completeSchema(s *Shell, words []string, partial string) []string {
	if n := len(words); n > 0 {
		switch words[n-1] {
		case "--format", "-f":
			return withSpace(formatNames())
		case "--category":
			return withSpace(categoryNames())
		}
	}
	if strings.HasPrefix(partial, "-") {
		return []string{"--format ", "--category "}
	}
	return withSpace(s.app.reg.ListNames())
}

func completeSet(s *Shell, words []string, _ string) []string {
	switch len(words) {
	case 0:
		return withSpace(settingKeys)
	case 1:
		switch words[0] {
		case "dry_run":
			return withSpace([]string{"true", "false"})
		case "output":
			return withSpace([]string{"text", "json"})
		case "timeout":
			return withSpace([]string{"30s", "2m", "10m"})
		}
	}
	return nil
}

// completeFlags offers a fixed set of flags.
func completeFlags(flags ...string) func(*Shell, []string, string) []string {
	return func(_ *Shell, _ []string, partial string) []string {
		if !strings.HasPrefix(partial, "-") {
			return nil
		}
		return withSpace(flags)
	}
}

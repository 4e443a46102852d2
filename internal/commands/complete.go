package commands

import (
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/tools"
)

// Completion candidates are whole words. A candidate that ends a word ends
// with a space; one that continues (file_path=) does not, so the value can
// be typed straight after it.

// Complete returns the candidates for the last, partial word of line (the
// text before the cursor), and that word.
func (s *Shell) Complete(line string) ([]string, string) {
	partial := line
	if i := strings.LastIndexAny(line, " \t"); i >= 0 {
		partial = line[i+1:]
	}
	if strings.HasPrefix(partial, "@") && !strings.HasPrefix(line, "/") {
		return s.env.mentionCandidates(partial), partial
	}
	words, err := Fields(line[:len(line)-len(partial)])
	if err != nil {
		return nil, partial
	}
	if len(words) == 0 {
		return FilterPrefix(s.firstWords(partial), partial), partial
	}
	if !strings.HasPrefix(words[0], "/") {
		return nil, partial // a prompt to the agent
	}
	c, ok := s.command(words[0])
	if !ok {
		return nil, partial
	}
	return FilterPrefix(CompleteCommand(s.env, c, words[1:], partial), partial), partial
}

// firstWords are the candidates for a line's first word: the commands and
// their aliases (any other line is a prompt).
func (s *Shell) firstWords(partial string) []string {
	if !strings.HasPrefix(partial, "/") {
		return nil
	}
	var cands []string
	for _, c := range s.commands() {
		if !c.InShell() {
			continue
		}
		cands = append(cands, "/"+c.Name+" ")
		for _, a := range c.Aliases {
			cands = append(cands, "/"+a+" ")
		}
	}
	return cands
}

// CompleteCommand offers the candidates for the word after words, typed to
// c: a subcommand, a flag's value, a flag, or what c completes itself.
func CompleteCommand(env *Env, c Command, words []string, partial string) []string {
	if len(c.Subcommands) > 0 {
		if len(words) == 0 {
			var verbs []string
			for _, sub := range c.Subcommands {
				if sub.InShell() {
					verbs = append(verbs, sub.Name+" ")
				}
			}
			return verbs
		}
		sub, ok := shellSubcommand(c, words[0])
		if !ok {
			return nil
		}
		return CompleteCommand(env, sub, words[1:], partial)
	}
	if n := len(words); n > 0 {
		if vals, ok := c.FlagValues[words[n-1]]; ok {
			return withSpace(vals)
		}
	}
	if strings.HasPrefix(partial, "-") {
		return flagNames(c)
	}
	if c.Complete != nil {
		return c.Complete(env, words, partial)
	}
	return nil
}

// flagNames are c's long flags, as completions.
func flagNames(c Command) []string {
	if c.Flags == nil {
		return nil
	}
	fs := newFlags(c.Name)
	c.Flags(fs)
	var out []string
	fs.VisitAll(func(f *pflag.Flag) { out = append(out, "--"+f.Name+" ") })
	return out
}

// CompleteArgs offers the parameters of tool not given yet (file_path=),
// and after key= the values an enum or boolean parameter allows.
func CompleteArgs(env *Env, tool string, given []string, partial string) []string {
	t, ok := env.Registry.Get(tool)
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

// FilterPrefix keeps the candidates that start with prefix, sorted and
// without duplicates.
func FilterPrefix(cands []string, prefix string) []string {
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

// toolNames completes tool names.
func toolNames(env *Env, _ []string, _ string) []string {
	return withSpace(env.Registry.ListNames())
}

// categoryNames are the categories, for flags that take one.
func categoryNames() []string {
	var out []string
	for _, c := range tools.Categories() {
		out = append(out, string(c))
	}
	return out
}

// formatNames are the schema formats.
func formatNames() []string {
	var out []string
	for _, f := range tools.Formats() {
		out = append(out, string(f))
	}
	return out
}

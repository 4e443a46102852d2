package memory

import (
	"strings"
)

// Imports are the paths an instructions file imports, in order, each once:
// words of the form @path (@docs/style.md, @~/.claude/mine.md) that begin
// a line or follow a space, outside code spans and fenced code blocks,
// where a shell command or an example may use @ for something else.
// Trailing punctuation is not part of the path; a word with a URL scheme
// or no path at all (a lone @, an e-mail's second half) is none.
func Imports(text string) []string {
	var out []string
	seen := map[string]bool{}
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if f := fenceOf(trimmed); f != "" {
			fence = f
			continue
		}
		for _, p := range lineImports(line) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// fenceOf is the fence a line opens (``` or ~~~), "" for none.
func fenceOf(line string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, f) {
			return f
		}
	}
	return ""
}

// lineImports are the @paths of one line outside its code spans.
func lineImports(line string) []string {
	var out []string
	inCode := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '`':
			inCode = !inCode
		case c == '@' && !inCode && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			end := i + 1
			for end < len(line) && line[end] != ' ' && line[end] != '\t' && line[end] != '`' {
				end++
			}
			if p := importPath(line[i+1 : end]); p != "" {
				out = append(out, p)
			}
			i = end - 1
		}
	}
	return out
}

// importPath is the path of an @word, "" when it is none.
func importPath(w string) string {
	w = strings.TrimRight(w, ".,;:!?)]}'\"")
	if w == "" || w == "~" || strings.Contains(w, "://") || strings.ContainsAny(w, "@<>|*\x00") {
		return ""
	}
	if c := w[0]; !(c == '.' || c == '/' || c == '~' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		return ""
	}
	if strings.HasPrefix(w, "~") && !strings.HasPrefix(w, "~/") {
		return "" // ~user is another person's home
	}
	return w
}

package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// grepTypes maps Grep's type filter (ripgrep's --type names, as Claude
// Code's Grep takes them) to the file-name globs of that type. It is a
// small, common subset of ripgrep's table.
var grepTypes = map[string][]string{
	"c":          {"*.c", "*.h"},
	"cpp":        {"*.cc", "*.cpp", "*.cxx", "*.hh", "*.hpp", "*.hxx", "*.h", "*.inl"},
	"cs":         {"*.cs"},
	"css":        {"*.css", "*.scss", "*.sass", "*.less"},
	"go":         {"*.go"},
	"html":       {"*.html", "*.htm"},
	"java":       {"*.java"},
	"js":         {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"},
	"json":       {"*.json", "*.jsonl"},
	"kotlin":     {"*.kt", "*.kts"},
	"lua":        {"*.lua"},
	"make":       {"Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak"},
	"markdown":   {"*.md", "*.markdown", "*.mdx"},
	"md":         {"*.md", "*.markdown", "*.mdx"},
	"php":        {"*.php"},
	"proto":      {"*.proto"},
	"py":         {"*.py", "*.pyi"},
	"python":     {"*.py", "*.pyi"},
	"rb":         {"*.rb", "Gemfile", "Rakefile"},
	"ruby":       {"*.rb", "Gemfile", "Rakefile"},
	"rs":         {"*.rs"},
	"rust":       {"*.rs"},
	"scala":      {"*.scala", "*.sc"},
	"sh":         {"*.sh", "*.bash", "*.zsh", ".bashrc", ".zshrc"},
	"sql":        {"*.sql"},
	"swift":      {"*.swift"},
	"toml":       {"*.toml"},
	"ts":         {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"typescript": {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"txt":        {"*.txt"},
	"xml":        {"*.xml", "*.xsd", "*.xsl"},
	"yaml":       {"*.yaml", "*.yml"},
}

// typeGlobs returns the globs of a file type, or an error naming the known
// types.
func typeGlobs(name string) ([]string, error) {
	if g, ok := grepTypes[strings.ToLower(name)]; ok {
		return g, nil
	}
	known := make([]string, 0, len(grepTypes))
	for k := range grepTypes {
		known = append(known, k)
	}
	sort.Strings(known)
	return nil, fmt.Errorf("Unknown file type: %s (known: %s; or use glob)", name, strings.Join(known, ", "))
}

// matchesType reports whether a file name matches one of globs.
func matchesType(globs []string, name string) bool {
	for _, g := range globs {
		if doublestar.MatchUnvalidated(g, name) {
			return true
		}
	}
	return false
}

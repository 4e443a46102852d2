package scripts

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// maxLoadsDepth bounds how far Loads follows a script into the scripts it
// loads, and maxScriptBytes how much of each it reads: a hook's script
// that sources a library that imports a module is three levels.
const (
	maxLoadsDepth  = 4
	maxScriptBytes = 256 << 10
)

// Loads returns the local files the given scripts load in turn, read from
// their text: what a shell script sources or runs by path (as Line finds
// it, from p), the modules a Python script imports from beside it, the
// relative paths a JavaScript or TypeScript file requires or imports.
// Each is absolute and cleaned, whether or not it exists (a file created
// there would be loaded), in the order found, none of files among them.
// A script that names its library through a variable ($(dirname "$0"))
// is not followed: callers that must cover it protect the script's
// directory as well.
func Loads(files []string, p Place) []string {
	l := loader{p: p, seen: map[string]bool{}}
	for _, f := range files {
		l.seen[filepath.Clean(f)] = true
	}
	for _, f := range files {
		l.follow(filepath.Clean(f), 0)
	}
	return l.out
}

type loader struct {
	p    Place
	seen map[string]bool
	out  []string
}

// follow adds what the script at path loads, and what those load.
func (l *loader) follow(path string, depth int) {
	if depth >= maxLoadsDepth {
		return
	}
	text, ok := readScript(path)
	if !ok {
		return
	}
	for _, dep := range loadsOf(path, text, l.p) {
		if l.seen[dep] {
			continue
		}
		l.seen[dep] = true
		l.out = append(l.out, dep)
		l.follow(dep, depth+1)
	}
}

// readScript reads the start of a regular file; false for anything else
// (a directory, a FIFO that would never answer, a missing file).
func readScript(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScriptBytes))
	if err != nil || bytes.IndexByte(b, 0) >= 0 {
		return "", false // a program, not a script
	}
	return string(b), true
}

// language is how a script's loads are read.
type language int

const (
	langNone language = iota
	langShell
	langPython
	langJS
)

// languageOf tells a script's language by its extension, then its #! line.
func languageOf(path, text string) language {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".sh", ".bash", ".zsh", ".ksh":
		return langShell
	case ".py", ".pyw":
		return langPython
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		return langJS
	}
	first, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, "#!") {
		return langNone
	}
	fields := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(fields) > 1 && filepath.Base(fields[0]) == "env" {
		fields = fields[1:]
		for len(fields) > 1 && strings.HasPrefix(fields[0], "-") {
			fields = fields[1:]
		}
	}
	if len(fields) == 0 {
		return langNone
	}
	name := strings.TrimRight(filepath.Base(fields[0]), "0123456789.")
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "ash":
		return langShell
	case "python", "pypy":
		return langPython
	case "node", "nodejs", "tsx", "ts-node", "deno", "bun":
		return langJS
	}
	return langNone
}

// loadsOf is what one script loads, by its language.
func loadsOf(path, text string, p Place) []string {
	dir := filepath.Dir(path)
	switch languageOf(path, text) {
	case langShell:
		// A sourced path is taken from where the command runs; the
		// script's own directory is where its author usually means.
		out := Line(text, p)
		beside := p
		beside.Dir = dir
		return append(out, Line(text, beside)...)
	case langPython:
		return pythonImports(dir, text)
	case langJS:
		return jsImports(dir, text)
	}
	return nil
}

var (
	pyImport = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:from\s+(\.*)([\w.]*)\s+import\s+([\w\s,().*]+)|import\s+([\w.\s,]+))`)
	})
	jsImport = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:require\s*\(|import\s*\(|from|import)\s*['"](\.{1,2}/[^'"]+)['"]`)
	})
)

// pythonImports are the modules a Python script imports that Python would
// find beside it (sys.path[0] is the script's directory): NAME.py or the
// package NAME for each top-level name, and a relative import's modules.
func pythonImports(dir, text string) []string {
	var out []string
	module := func(base, name string) {
		top, _, _ := strings.Cut(strings.TrimSpace(name), ".")
		top, _, _ = strings.Cut(top, " ") // import x as y
		if validName(top) {
			out = append(out, filepath.Join(base, top+".py"), filepath.Join(base, top))
		}
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), maxScriptBytes)
	for sc.Scan() {
		m := pyImport().FindStringSubmatch(sc.Text())
		switch {
		case m == nil:
		case m[4] != "":
			for _, name := range strings.Split(m[4], ",") {
				module(dir, name)
			}
		case m[1] == "":
			module(dir, m[2])
		default:
			base := dir
			for range len(m[1]) - 1 {
				base = filepath.Dir(base)
			}
			if m[2] != "" {
				module(base, m[2])
				continue
			}
			for _, name := range strings.Split(strings.Trim(m[3], "() "), ",") {
				module(base, name)
			}
		}
	}
	return out
}

// jsExtensions are what Node and the TypeScript runners try after a bare
// relative path.
var jsExtensions = []string{"", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".json"}

// jsImports are the relative paths a JavaScript or TypeScript file
// requires or imports, with the files a resolver would try for each.
func jsImports(dir, text string) []string {
	var out []string
	for _, m := range jsImport().FindAllStringSubmatch(text, -1) {
		base := filepath.Join(dir, m[1])
		for _, ext := range jsExtensions {
			out = append(out, base+ext)
		}
		out = append(out, filepath.Join(base, "index.js"), filepath.Join(base, "index.ts"))
	}
	return out
}

// Package memory reads the instructions files sent with every request:
// the person's own, then AGENTS.md, CLAUDE.md and CLAUDE.local.md of each
// directory from the project's root down to the working directory, with
// the files they import (@path). Their text reaches the model, so a file is read only
// when it is a regular file of the project (or of the person's home) with
// no other names: a cloned repository must not turn the person's secrets
// into a prompt.
package memory

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Names are the instructions files of a directory, the shared convention
// first; CLAUDE.local.md is a person's own beside CLAUDE.md, which Claude
// Code reads after it and keeps out of the repository.
var Names = []string{"AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"}

// MaxFile bounds one file's text; MaxTotal all of them together: the
// instructions go with every request, and tokens are the person's money.
const (
	MaxFile  = 16 << 10
	MaxTotal = 48 << 10
)

// MaxDepth bounds the chain of imports from a file found by name.
const MaxDepth = 5

// Scope is whose file it is.
type Scope string

// The scopes.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// Options say where to look.
type Options struct {
	WorkingDir string
	// Root is the project's root: its files are read from Root down to
	// WorkingDir, and must lie inside it. "" is WorkingDir.
	Root string
	// Home is the person's home: ~ in an import, and where the imports of
	// the person's files must lie. "" has none.
	Home string
	// User are the person's own files, in order (~/.claude/CLAUDE.md,
	// forge's); a missing one is no error.
	User []string
	// HomeImports lets the project's files import files of the person's
	// home (@~/.claude/mine.md): only a trusted project's may.
	HomeImports bool
}

// File is one file found, as /memory lists it.
type File struct {
	Path  string
	Label string // as the prompt names it: relative to the root, or ~/...
	Scope Scope
	// ImportedBy is the label of the file that imports this one.
	ImportedBy string
	Bytes      int // of text sent
	// Note says why it was sent only in part or not at all.
	Note string
}

// Memory is what Load found.
type Memory struct {
	Files []File
	// Text is the files' text for the system prompt, each under a heading.
	Text string
	// Notices name each file not read, or not sent whole, and why: for
	// the person, never the model.
	Notices []string
}

// loader is one Load's state.
type loader struct {
	o       Options
	root    string
	mem     Memory
	text    strings.Builder
	total   int
	seen    map[string]string   // real path: label
	sums    map[[32]byte]string // text: label
	skipped []string            // labels not sent for the cap
}

// Load reads the instructions files of o.
func Load(o Options) Memory {
	if o.WorkingDir != "" {
		o.WorkingDir = physicalDir(o.WorkingDir)
	}
	l := &loader{o: o, root: o.Root, seen: map[string]string{}, sums: map[[32]byte]string{}}
	if l.root != "" {
		l.root = physicalDir(l.root)
	}
	if l.root == "" || !inside(o.WorkingDir, l.root) && o.WorkingDir != l.root {
		l.root = o.WorkingDir
	}
	for _, p := range o.User {
		l.file(p, ScopeUser, "", nil, 0)
	}
	for _, dir := range l.dirs() {
		for _, name := range Names {
			l.file(filepath.Join(dir, name), ScopeProject, "", []string{l.root}, 0)
		}
	}
	if len(l.skipped) > 0 {
		fmt.Fprintf(&l.text, "\n[... not sent, as the instructions reached their cap of %d KiB: %s]\n", MaxTotal>>10, strings.Join(l.skipped, ", "))
		l.mem.Notices = append(l.mem.Notices, fmt.Sprintf("the instructions files come to more than %d KiB: %s not sent (/memory lists them)",
			MaxTotal>>10, strings.Join(l.skipped, ", ")))
	}
	l.mem.Text = l.text.String()
	return l.mem
}

// dirs are the directories from the root down to the working directory.
func (l *loader) dirs() []string {
	out := []string{l.root}
	rel, err := filepath.Rel(l.root, l.o.WorkingDir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return out
	}
	d := l.root
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		d = filepath.Join(d, seg)
		out = append(out, d)
	}
	return out
}

// label names path for the prompt and the person.
func (l *loader) label(path string, scope Scope) string {
	if scope == ScopeProject {
		if rel, err := filepath.Rel(l.root, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if h := l.o.Home; h != "" {
		if rel, err := filepath.Rel(h, path); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// file reads path, of scope, imported by the file labelled by (none when
// ""), depth imports down, which must lie within one of within (nil:
// anywhere, for the person's own files), then the files it imports.
func (l *loader) file(path string, scope Scope, by string, within []string, depth int) {
	text, cut, err := readFile(path, within, placeOf(scope, len(within)), MaxFile)
	if err == errNoFile {
		return
	}
	if err != nil {
		l.mem.Notices = append(l.mem.Notices, fmt.Sprintf("%s is not read: %v", path, err))
		return
	}
	label := l.label(path, scope)
	f := File{Path: path, Label: label, Scope: scope, ImportedBy: by}
	real, _ := filepath.EvalSymlinks(path)
	if was, dup := l.seen[real]; dup {
		if by == "" { // an import already read is no news
			f.Note = "the same file as " + was + ", not sent again"
			l.mem.Files = append(l.mem.Files, f)
		}
		return
	}
	l.seen[real] = label
	sum := sha256.Sum256([]byte(text))
	if was, dup := l.sums[sum]; dup && text != "" {
		f.Note = "the same text as " + was + ", not sent again"
		l.mem.Files = append(l.mem.Files, f)
		return
	}
	l.sums[sum] = label
	if cut {
		l.mem.Notices = append(l.mem.Notices, fmt.Sprintf("%s is longer than %d KiB: only its first %d KiB are sent", path, MaxFile>>10, MaxFile>>10))
		f.Note = fmt.Sprintf("cut at %d KiB", MaxFile>>10)
	}
	l.send(&f, text)
	l.mem.Files = append(l.mem.Files, f)
	if depth >= MaxDepth {
		if len(Imports(text)) > 0 {
			l.mem.Notices = append(l.mem.Notices, fmt.Sprintf("%s: its imports are not read: imports go %d files deep at most", path, MaxDepth))
		}
		return
	}
	l.imports(path, scope, label, text, depth)
}

// send adds f's text to the prompt, within the cap.
func (l *loader) send(f *File, text string) {
	if text == "" {
		return
	}
	left := MaxTotal - l.total
	if left <= 0 {
		l.skipped = append(l.skipped, f.Label)
		f.Note = fmt.Sprintf("not sent: the instructions reached their cap of %d KiB", MaxTotal>>10)
		return
	}
	if len(text) > left {
		text = strings.ToValidUTF8(text[:left], "") + fmt.Sprintf("\n[... cut: the instructions reached their cap of %d KiB]", MaxTotal>>10)
		f.Note = fmt.Sprintf("cut: the instructions reached their cap of %d KiB", MaxTotal>>10)
		l.skipped = append(l.skipped, f.Label+" (the rest of it)")
	}
	f.Bytes = len(text)
	l.total += len(text)
	heading := "Project instructions"
	if f.Scope == ScopeUser {
		heading = "Your instructions"
	}
	if f.ImportedBy != "" {
		fmt.Fprintf(&l.text, "\n%s (%s, imported by %s):\n%s\n", heading, f.Label, f.ImportedBy, text)
		return
	}
	fmt.Fprintf(&l.text, "\n%s (%s):\n%s\n", heading, f.Label, text)
}

// imports reads the files the file at path imports: relative to its
// directory, or to the home (~/), inside the project (its own files') or
// the home (the person's), the home also for a trusted project's.
func (l *loader) imports(path string, scope Scope, label, text string, depth int) {
	within := []string{l.root}
	if scope == ScopeUser {
		within = []string{l.o.Home}
	} else if l.o.HomeImports && l.o.Home != "" {
		within = append(within, l.o.Home)
	}
	for _, imp := range Imports(text) {
		var p string
		switch {
		case strings.HasPrefix(imp, "~/"):
			if l.o.Home == "" {
				continue
			}
			p = filepath.Join(l.o.Home, imp[2:])
		case filepath.IsAbs(imp):
			p = filepath.Clean(imp)
		default:
			p = filepath.Join(filepath.Dir(path), filepath.FromSlash(imp))
		}
		if _, err := os.Lstat(p); err != nil {
			continue // an @word that names no file is a mention, not an import
		}
		if !insideAny(p, within) {
			l.mem.Notices = append(l.mem.Notices, fmt.Sprintf("%s: @%s is not read: it is outside %s", path, imp, placeOf(scope, len(within))))
			continue
		}
		l.file(p, scope, label, within, depth+1)
	}
}

// placeOf names where the imports of a file of scope must lie.
func placeOf(scope Scope, n int) string {
	switch {
	case scope == ScopeUser:
		return "your home"
	case n > 1:
		return "the project and your home"
	}
	return "the project"
}

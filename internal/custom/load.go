package custom

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/forgehq/forge/internal/filekind"
)

// MaxFileSize bounds one command or agent file: a prompt larger than this
// is a mistake (a log, a data file), not a prompt.
const MaxFileSize = 256 << 10

// maxFiles bounds the files read from one directory.
const maxFiles = 1000

// Scope is where a definition comes from.
type Scope string

// The scopes. A project's definitions override the user's of the same name.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// Dir is a directory of definitions and its scope.
type Dir struct {
	Path  string
	Scope Scope
	// NoOverride keeps the definitions of earlier directories of another
	// scope over this one's of the same name: an untrusted project's must
	// not replace the person's own.
	NoOverride bool
}

// Source is the file a definition came from.
type Source struct {
	Path  string
	Scope Scope
}

// String is "project .forge/commands/review.md", for the person.
func (s Source) String() string { return string(s.Scope) + " " + s.Path }

// Command is a custom slash command.
type Command struct {
	// Name is the path under the commands directory without .md, its
	// directories joined by ":" (git/commit.md is git:commit).
	Name         string
	Description  string
	ArgumentHint string
	// AllowedTools narrow the tools of the command's prompt (tool names or
	// rules such as Bash(git diff:*)); nil when not given.
	AllowedTools []string
	Model        string
	// Body is the prompt, with $ARGUMENTS and $1..$9 to fill in (Expand).
	Body   string
	Source Source
}

// Agent is a custom subagent.
type Agent struct {
	Name        string
	Description string
	// Tools narrow the subagent's tools; nil means the default subagent's.
	Tools  []string
	Model  string
	Prompt string // the system prompt
	Source Source
}

// Warning is a problem with one file, which was skipped or partly ignored.
type Warning struct {
	Path string
	Line int // 0: the whole file
	Msg  string
}

// String is "path:line: message".
func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.Path, w.Line, w.Msg)
	}
	return w.Path + ": " + w.Msg
}

// Override says a project definition replaced a user one of the same
// name, or, Refused, that it did not because its directory may not
// override (Kept is then the user's, Replaced the project's).
type Override struct {
	Name     string
	Kept     Source
	Replaced Source
	Refused  bool
}

// Report is what loading had to say besides the definitions.
type Report struct {
	Warnings  []Warning
	Overrides []Override
	// Dropped counts, by tool, the files that name a tool of Claude Code's
	// that forge does not have (TodoWrite): they go without it, and the
	// person gets one line for all of them rather than one a file.
	Dropped map[string]int
}

// drop notes the tools a file goes without.
func (r *Report) drop(tools []string) {
	for _, t := range tools {
		if r.Dropped == nil {
			r.Dropped = map[string]int{}
		}
		r.Dropped[t]++
	}
}

// validName says s can be one segment of a command's name, or an
// agent's or a skill's name: letters, digits, -, _ and ., starting with a
// letter or a digit.
func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '.' && c != '-') {
			return false
		}
	}
	return s != ""
}

// LoadCommands reads the .md files under dirs, later directories
// overriding earlier ones (give the user's, then the project's). A missing
// directory is no error. Commands come back sorted by name.
func LoadCommands(dirs []Dir) ([]Command, Report) {
	var rep Report
	byName := map[string]Command{}
	for _, d := range dirs {
		for _, c := range loadDir(d, &rep, isMarkdown, func(f file, rep *Report) (Command, bool) { return command(f, rep) }) {
			place(byName, c.Name, c, d, &rep)
		}
	}
	return byNameSorted(byName), rep
}

// LoadAgents reads the .md files under dirs as LoadCommands does. Two
// files of one directory naming the same agent keep the first by path.
func LoadAgents(dirs []Dir) ([]Agent, Report) {
	return loadNamed(dirs, "agent", isMarkdown, func(f file, _ Dir, rep *Report) (Agent, bool) { return agent(f, rep) })
}

// isMarkdown says rel, a path under a directory of definitions, is a
// Markdown file.
func isMarkdown(rel string) bool { return strings.HasSuffix(rel, ".md") }

// loadNamed reads the definitions of kind in each of dirs (want picks a
// directory's files, read makes one definition of a file), later
// directories overriding earlier ones; two files of one directory naming
// the same definition keep the first by path, with a warning.
func loadNamed[T definition](dirs []Dir, kind string, want func(rel string) bool,
	read func(file, Dir, *Report) (T, bool)) ([]T, Report) {
	var rep Report
	byName := map[string]T{}
	for _, d := range dirs {
		here := map[string]bool{}
		for _, def := range loadDir(d, &rep, want, func(f file, rep *Report) (T, bool) { return read(f, d, rep) }) {
			name := def.name()
			if here[name] {
				rep.Warnings = append(rep.Warnings, Warning{Path: def.from().Path, Msg: fmt.Sprintf("%s %q is already defined in %s; this file is skipped", kind, name, d.Path)})
				continue
			}
			here[name] = true
			place(byName, name, def, d, &rep)
		}
	}
	return byNameSorted(byName), rep
}

// definition is a command or an agent, as place keeps them.
type definition interface {
	Command | Agent | Skill
	from() Source
	name() string
}

func (c Command) from() Source { return c.Source }
func (a Agent) from() Source   { return a.Source }
func (s Skill) from() Source   { return s.Source }
func (c Command) name() string { return c.Name }
func (a Agent) name() string   { return a.Name }
func (s Skill) name() string   { return s.Name }

// place puts def under name in byName, a later directory's definition
// replacing an earlier one's unless d refuses to override one of another
// scope (an untrusted project, the person's); either way the override
// goes into rep. Within a scope the later directory wins: forge's own
// (.forge) over Claude Code's (.claude).
func place[T definition](byName map[string]T, name string, def T, d Dir, rep *Report) {
	if old, dup := byName[name]; dup {
		if d.NoOverride && old.from().Scope != d.Scope {
			rep.Overrides = append(rep.Overrides, Override{Name: name, Kept: old.from(), Replaced: def.from(), Refused: true})
			return
		}
		rep.Overrides = append(rep.Overrides, Override{Name: name, Kept: def.from(), Replaced: old.from()})
	}
	byName[name] = def
}

// byNameSorted is the definitions of byName, sorted by name.
func byNameSorted[T definition](byName map[string]T) []T {
	out := make([]T, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, byName[name])
	}
	return out
}

// file is one .md file read from a directory.
type file struct {
	path string // as shown: the directory's path joined with rel
	rel  string // slash-separated, under the directory
	data []byte
	src  Source
}

// found is a file a directory's walk found, or a problem it met.
type found struct {
	path, rel string
	warn      *Warning // the problem; the rest is then unset
}

// loaded is what became of one found file: the problem reading it, or
// its definition and what its file had to say.
type loaded[T any] struct {
	readWarn *Warning
	def      T
	ok       bool
	rep      Report
}

// loadWorkers bounds the files read and parsed at once: enough to keep
// the processors busy while others wait on the disk.
func loadWorkers() int { return min(2*runtime.GOMAXPROCS(0), 16) }

// loadDir reads the files under d that want accepts (in lexical order,
// skipping hidden files and directories) and makes a definition of each
// with def. Hundreds of files are most of what start-up spends on a large
// setup, so they are read and parsed in parallel; the definitions, and the
// problems that go to rep, come in the order one goroutine would give
// them: the walk's and the reads', then each file's.
//
// A project's directory is read through an os.Root and its symbolic links
// are skipped: a cloned repository must not turn the person's files
// (~/.aws/credentials) into a prompt sent to the model. The person's own
// directories may hold links (to their dotfiles).
func loadDir[T any](d Dir, rep *Report, want func(rel string) bool, def func(file, *Report) (T, bool)) []T {
	if d.Path == "" {
		return nil
	}
	// Non-blocking: a FIFO named like a definition must not hang start-up
	// (readCapped then skips it), and a regular file, which reads the
	// same, is then not offered to the poller, which costs five system
	// calls a file to refuse it.
	const flags = os.O_RDONLY | syscall.O_NONBLOCK
	open := func(rel string) (fs.File, error) { return os.OpenFile(filepath.Join(d.Path, rel), flags, 0) }
	if d.Scope == ScopeProject {
		root, err := os.OpenRoot(d.Path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				rep.Warnings = append(rep.Warnings, Warning{Path: d.Path, Msg: "cannot read: " + unwrapPath(err)})
			}
			return nil
		}
		defer root.Close()
		open = func(rel string) (fs.File, error) { return root.OpenFile(rel, flags, 0) }
	}
	files := walkDir(d, want)
	out := make([]loaded[T], len(files))
	load := func(i int) {
		f := files[i]
		if f.warn != nil {
			return
		}
		data, err := readCapped(open, f.rel)
		if err != nil {
			out[i].readWarn = &Warning{Path: f.path, Msg: err.Error()}
			return
		}
		out[i].def, out[i].ok = def(file{path: f.path, rel: filepath.ToSlash(f.rel), data: data, src: Source{Path: f.path, Scope: d.Scope}}, &out[i].rep)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(loadWorkers(), len(files)) {
		wg.Go(func() {
			for i := range next {
				load(i)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, f := range files {
		if w := cmp.Or(f.warn, out[i].readWarn); w != nil {
			rep.Warnings = append(rep.Warnings, *w)
		}
	}
	var defs []T
	for _, l := range out {
		rep.Warnings = append(rep.Warnings, l.rep.Warnings...)
		for t, n := range l.rep.Dropped {
			if rep.Dropped == nil {
				rep.Dropped = map[string]int{}
			}
			rep.Dropped[t] += n
		}
		if l.ok {
			defs = append(defs, l.def)
		}
	}
	return defs
}

// walkDir lists the files under d that want accepts, and the problems met
// on the way, in lexical order, skipping hidden files and directories,
// and a project's symbolic links.
func walkDir(d Dir, want func(rel string) bool) []found {
	var out []found
	problem := func(p, msg string) { out = append(out, found{warn: &Warning{Path: p, Msg: msg}}) }
	n := 0
	err := filepath.WalkDir(d.Path, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == d.Path && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			problem(p, "cannot read: "+unwrapPath(err))
			return nil
		}
		if p != d.Path && strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(d.Path, p)
		if e.IsDir() || !want(filepath.ToSlash(rel)) {
			return nil
		}
		if n == maxFiles {
			problem(d.Path, fmt.Sprintf("more than %d files; the rest are skipped", maxFiles))
			return fs.SkipAll
		}
		if d.Scope == ScopeProject && e.Type()&fs.ModeSymlink != 0 {
			problem(p, "a symbolic link, which forge does not follow in a project's directory; skipped")
			return nil
		}
		n++
		out = append(out, found{path: p, rel: rel})
		return nil
	})
	if err != nil {
		problem(d.Path, "cannot read: "+unwrapPath(err))
	}
	return out
}

// readCapped reads the regular file rel, opened with open, of at most
// MaxFileSize bytes.
func readCapped(open func(rel string) (fs.File, error), rel string) ([]byte, error) {
	f, err := open(rel)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", unwrapPath(err))
	}
	defer f.Close()
	size := 512
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file; skipped")
	} else if err == nil && filekind.HardLinked(fi) {
		return nil, errors.New("it has other hard links, so it may be a file from outside; skipped")
	} else if err == nil {
		size = int(min(max(fi.Size(), 0), MaxFileSize)) + 1 // +1: the read that finds the end
	}
	b, err := readAllSized(io.LimitReader(f, MaxFileSize+1), size)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", unwrapPath(err))
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("larger than %d KiB; skipped", MaxFileSize>>10)
	}
	return b, nil
}

// readAllSized is io.ReadAll starting with a buffer of size bytes, the
// file's, so that a file is read into one buffer, without the copies of
// a buffer that grows.
func readAllSized(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// parseFile parses f, reporting its issues; ok is false when it is unusable.
func parseFile(f file, k Kind, rep *Report) (Doc, bool) {
	doc, warns, err := Parse(f.data, k)
	for _, w := range warns {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Line: w.Line, Msg: w.Msg})
	}
	if err != nil {
		w := Warning{Path: f.path, Msg: err.Error() + "; skipped"}
		var is Issue
		if errors.As(err, &is) {
			w.Line, w.Msg = is.Line, is.Msg+"; skipped"
		}
		rep.Warnings = append(rep.Warnings, w)
		return Doc{}, false
	}
	return doc, true
}

// command makes the command of f.
func command(f file, rep *Report) (Command, bool) {
	segs := strings.Split(strings.TrimSuffix(f.rel, ".md"), "/")
	for _, s := range segs {
		if !validName(s) {
			rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: fmt.Sprintf("%q cannot be a command name "+
				"(letters, digits, -, _ and . only, starting with a letter or digit); skipped", s)})
			return Command{}, false
		}
	}
	doc, ok := parseFile(f, KindCommand, rep)
	if !ok {
		return Command{}, false
	}
	c := Command{Name: strings.Join(segs, ":"), Description: doc.Meta.Description, ArgumentHint: doc.Meta.ArgumentHint,
		Model: doc.Meta.Model, Body: doc.Body, Source: f.src}
	if doc.Meta.ToolsSet {
		var dropped []string
		c.AllowedTools, dropped = MapTools(doc.Meta.Tools)
		rep.drop(dropped)
	}
	if c.Description == "" {
		c.Description = firstLine(doc.Body)
	}
	if c.Body == "" {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: "the command has no prompt (the file's body is empty)"})
	}
	return c, true
}

// agent makes the agent of f: its name is the front matter's, else the
// file's.
func agent(f file, rep *Report) (Agent, bool) {
	doc, ok := parseFile(f, KindAgent, rep)
	if !ok {
		return Agent{}, false
	}
	name := doc.Meta.Name
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(f.rel), ".md")
	}
	if !validName(name) {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: fmt.Sprintf("%q cannot be an agent name "+
			"(letters, digits, -, _ and . only, starting with a letter or digit); skipped", name)})
		return Agent{}, false
	}
	a := Agent{Name: name, Description: doc.Meta.Description, Model: doc.Meta.Model, Prompt: doc.Body, Source: f.src}
	if doc.Meta.ToolsSet {
		var dropped []string
		a.Tools, dropped = MapTools(doc.Meta.Tools)
		rep.drop(dropped)
	}
	if a.Description == "" {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: "no description: the model will not know when to use this agent"})
	}
	if a.Prompt == "" {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: "the agent has no system prompt (the file's body is empty)"})
	}
	return a, true
}

// firstLine is the first non-blank line of s, for a command without a
// description, as Claude Code shows it.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#")); l != "" {
			if r := []rune(l); len(r) > 80 {
				l = string(r[:77]) + "..."
			}
			return l
		}
	}
	return ""
}

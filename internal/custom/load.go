package custom

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

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

// validName is one segment of a command's name, or an agent's name.
var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })

// LoadCommands reads the .md files under dirs, later directories
// overriding earlier ones (give the user's, then the project's). A missing
// directory is no error. Commands come back sorted by name.
func LoadCommands(dirs []Dir) ([]Command, Report) {
	var rep Report
	byName := map[string]Command{}
	for _, d := range dirs {
		for _, f := range readDir(d, &rep) {
			c, ok := command(f, &rep)
			if !ok {
				continue
			}
			place(byName, c.Name, c, d, &rep)
		}
	}
	return byNameSorted(byName), rep
}

// LoadAgents reads the .md files under dirs as LoadCommands does. Two
// files of one directory naming the same agent keep the first by path.
func LoadAgents(dirs []Dir) ([]Agent, Report) {
	return loadNamed(dirs, "agent", readDir, func(f file, _ Dir, rep *Report) (Agent, bool) { return agent(f, rep) })
}

// loadNamed reads the definitions of kind in each of dirs (files lists a
// directory's files, read makes one definition of a file), later
// directories overriding earlier ones; two files of one directory naming
// the same definition keep the first by path, with a warning.
func loadNamed[T definition](dirs []Dir, kind string, files func(Dir, *Report) []file,
	read func(file, Dir, *Report) (T, bool)) ([]T, Report) {
	var rep Report
	byName := map[string]T{}
	for _, d := range dirs {
		here := map[string]bool{}
		for _, f := range files(d, &rep) {
			def, ok := read(f, d, &rep)
			if !ok {
				continue
			}
			name := def.name()
			if here[name] {
				rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: fmt.Sprintf("%s %q is already defined in %s; this file is skipped", kind, name, d.Path)})
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

// readDir reads the .md files under d, in lexical order, skipping hidden
// files and directories; problems go to rep. A project's directory is read
// through an os.Root and its symbolic links are skipped: a cloned
// repository must not turn the person's files (~/.aws/credentials) into a
// prompt sent to the model. The person's own directories may hold links
// (to their dotfiles).
func readDir(d Dir, rep *Report) []file {
	return readFiles(d, rep, func(rel string) bool { return strings.HasSuffix(rel, ".md") })
}

// readFiles reads the files under d whose slash-separated path under it
// want accepts, as readDir does.
func readFiles(d Dir, rep *Report, want func(rel string) bool) []file {
	if d.Path == "" {
		return nil
	}
	open := func(rel string) (fs.File, error) { return os.Open(filepath.Join(d.Path, rel)) }
	if d.Scope == ScopeProject {
		root, err := os.OpenRoot(d.Path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				rep.Warnings = append(rep.Warnings, Warning{Path: d.Path, Msg: "cannot read: " + unwrapPath(err)})
			}
			return nil
		}
		defer root.Close()
		open = func(rel string) (fs.File, error) { return root.Open(rel) }
	}
	var out []file
	err := filepath.WalkDir(d.Path, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == d.Path && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			rep.Warnings = append(rep.Warnings, Warning{Path: p, Msg: "cannot read: " + unwrapPath(err)})
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
		if len(out) == maxFiles {
			rep.Warnings = append(rep.Warnings, Warning{Path: d.Path, Msg: fmt.Sprintf("more than %d files; the rest are skipped", maxFiles)})
			return fs.SkipAll
		}
		if d.Scope == ScopeProject && e.Type()&fs.ModeSymlink != 0 {
			rep.Warnings = append(rep.Warnings, Warning{Path: p, Msg: "a symbolic link, which forge does not follow in a project's directory; skipped"})
			return nil
		}
		data, rerr := readCapped(open, rel)
		if rerr != nil {
			rep.Warnings = append(rep.Warnings, Warning{Path: p, Msg: rerr.Error()})
			return nil
		}
		out = append(out, file{path: p, rel: filepath.ToSlash(rel), data: data, src: Source{Path: p, Scope: d.Scope}})
		return nil
	})
	if err != nil {
		rep.Warnings = append(rep.Warnings, Warning{Path: d.Path, Msg: "cannot read: " + unwrapPath(err)})
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
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file; skipped")
	} else if err == nil && filekind.HardLinked(fi) {
		return nil, errors.New("it has other hard links, so it may be a file from outside; skipped")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", unwrapPath(err))
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("larger than %d KiB; skipped", MaxFileSize>>10)
	}
	return b, nil
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
		if !validName().MatchString(s) {
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
	if !validName().MatchString(name) {
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

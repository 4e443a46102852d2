package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/forgehq/forge/internal/scripts"
)

// Bounds on what ProjectHash reads: a .forge directory and the scripts it
// names are a few small files. Past them the project cannot be verified,
// so it is never trusted.
const (
	maxHashedBytes   = 64 << 20
	maxHashedEntries = 10000
)

// errUnverifiable is a project too large for ProjectHash to read whole.
var errUnverifiable = errors.New("its .forge directory and the files it runs are too large to verify (over 10,000 entries or 64 MiB), so it cannot be trusted")

// ProjectHash is what trust records of the project at dir: a sha256 over
// everything under its .forge directory (settings, hook scripts, commands,
// agents), names and contents, and over what its settings make forge run
// wherever it lies: the files its hooks' and MCP servers' commands run and
// its plugin directories' manifests and programs (see package scripts). A
// pull or an edit that changes any of them needs the person's word again.
// A symbolic link counts by its target's name and, when that is a file, by
// the file's content: a script linked from elsewhere is covered too. home
// expands ~ in the project's settings.
func ProjectHash(dir, home string) (string, error) {
	root := filepath.Join(dir, ProjectDirName)
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("project %s: %s is a symbolic link; forge reads a project's settings only from a real directory", dir, root)
	}
	h := &hasher{h: sha256.New(), budget: maxHashedBytes}
	err := h.tree(root, root, true)
	if err == nil {
		err = h.claude(dir)
	}
	runs := slices.Concat(projectRuns(dir, home), claudeRuns(dir, home))
	// What those scripts load counts too: a trusted server's helper module
	// changed by a pull is as much a change as its entry file.
	// Only the project's own: a program elsewhere is not the project's to change.
	for _, p := range scripts.Loads(runs, projectPlace(dir, home)) {
		if within(p, dir) {
			runs = append(runs, p)
		}
	}
	for _, p := range runs {
		if err != nil {
			break
		}
		if within(p, root) || within(dir, p) {
			continue // hashed above; or the whole project, which is not a script
		}
		if filepath.Base(p) == "node_modules" {
			// Installed packages, not the project's own files: a pull does not
			// change them, and they are too many to read whole.
			fmt.Fprintf(h.h, "dependencies %q\n", p)
			continue
		}
		err = h.path(p)
	}
	if err != nil {
		return "", fmt.Errorf("project %s: %w", dir, err)
	}
	return hex.EncodeToString(h.h.Sum(nil)), nil
}

// claude adds Claude Code's files of the project at dir, when it has
// them: its .claude directory (settings, the person's settings.local.json
// among them, as forge reads it too, hook scripts, commands, agents,
// skills), and its .mcp.json. A project without them hashes as before.
func (h *hasher) claude(dir string) error {
	root := filepath.Join(dir, ClaudeDirName)
	if fi, err := os.Lstat(root); err == nil && fi.IsDir() {
		fmt.Fprintf(h.h, "claude\n")
		if err := h.tree(root, dir, true); err != nil {
			return err
		}
	}
	mcp := filepath.Join(dir, claudeMCPFile)
	if _, err := os.Lstat(mcp); err == nil {
		return h.path(mcp)
	}
	return nil
}

// claudeRuns are the files the project's Claude Code settings and MCP
// file make forge run (their hooks' and servers' scripts), as projectRuns
// finds those of .forge/config.yaml; variables without a default expand
// to nothing, as they would in a bare environment.
func claudeRuns(dir, home string) []string {
	r := resolver{cwd: dir, home: home}
	none := func(string) (string, bool) { return "", false }
	layers, _, _ := readClaudeLayers(claudeSettingsFiles(dir), filepath.Join(dir, claudeMCPFile), none, r)
	place := projectPlace(dir, home)
	var runs []string
	for _, l := range layers {
		if hooks, _, err := parseHooks(l.path, l.sections["hooks"]); err == nil {
			for _, hk := range hooks {
				runs = append(runs, scripts.Line(hk.Command, place)...)
			}
		}
		if mcp, _, err := parseMCP(l.path, l.sections["mcp"], r); err == nil {
			for _, s := range mcp.Servers {
				if s.Command != "" {
					p := place
					p.Dir = projectServerDir(dir, s.Cwd)
					runs = append(runs, scripts.Argv(append([]string{s.Command}, s.Args...), p)...)
				}
			}
		}
	}
	return runs
}

// hasher sums names and contents within a budget of bytes and entries.
type hasher struct {
	h       hash.Hash
	budget  int64
	entries int
}

// tree adds everything under root, named relative to base. A missing root
// adds nothing when quiet, and is noted otherwise.
func (h *hasher) tree(root, base string, quiet bool) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == root {
				if !quiet {
					fmt.Fprintf(h.h, "missing %q\n", root)
				}
				return filepath.SkipAll
			}
			return err
		}
		if h.entries++; h.entries > maxHashedEntries {
			return errUnverifiable
		}
		rel, _ := filepath.Rel(base, path)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h.h, "link %q %q\n", rel, target)
			if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
				return h.file(rel, path)
			}
			return nil
		}
		if d.Type().IsRegular() {
			return h.file(rel, path)
		}
		return nil
	})
}

// path adds a file or directory a project's settings name, by its absolute
// name, whatever it is: missing (creating it changes what runs), a file,
// a directory (a Python package) or a link to one.
func (h *hasher) path(p string) error {
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		fmt.Fprintf(h.h, "missing %q\n", p)
		return nil
	case fi.IsDir():
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h.h, "dir %q\n", p)
		return h.tree(real, filepath.Dir(real), false)
	case fi.Mode().IsRegular():
		return h.file(p, p)
	}
	fmt.Fprintf(h.h, "special %q %v\n", p, fi.Mode().Type())
	return nil
}

// file adds one file's name, size and content, within the budget.
func (h *hasher) file(name, path string) error {
	if h.entries++; h.entries > maxHashedEntries {
		return errUnverifiable
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		fmt.Fprintf(h.h, "special %q %v\n", name, fi.Mode().Type())
		return nil
	}
	if fi.Size() > h.budget {
		return errUnverifiable
	}
	fmt.Fprintf(h.h, "file %q %d\n", name, fi.Size())
	n, err := io.Copy(h.h, io.LimitReader(f, h.budget+1))
	if h.budget -= n; h.budget < 0 {
		return errUnverifiable
	}
	return err
}

// projectRuns are the files the project file of dir makes forge run, as
// Load would read them, sorted: its hooks' scripts, its MCP servers'
// scripts, its plugin directories' manifests and programs. A file
// that does not parse names none: Load refuses it.
func projectRuns(dir, home string) []string {
	path := projectFile(dir)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, _, err := readFile(path, false)
	if err != nil {
		return nil
	}
	l, err := readLayer(path, "project file "+path, data)
	if err != nil {
		return nil
	}
	r := resolver{cwd: dir, home: home}
	place := projectPlace(dir, home)
	var runs []string
	if hooks, _, err := parseHooks(path, l.sections["hooks"]); err == nil {
		for _, hk := range hooks {
			runs = append(runs, scripts.Line(hk.Command, place)...)
		}
	}
	if mcp, _, err := parseMCP(path, l.sections["mcp"], r); err == nil {
		for _, s := range mcp.Servers {
			if s.Command != "" {
				p := place
				p.Dir = projectServerDir(dir, s.Cwd)
				runs = append(runs, scripts.Argv(append([]string{s.Command}, s.Args...), p)...)
			}
		}
	}
	var plugins []string
	if v, ok := l.flat["plugin_dirs"]; ok && setPaths(&plugins, v, r) == nil {
		runs = append(runs, pluginRuns(plugins, place)...)
	}
	slices.Sort(runs)
	return slices.Compact(runs)
}

// projectPlace is where a project's hooks run: its root, with the
// variables that name it and no other.
func projectPlace(dir, home string) scripts.Place {
	return scripts.Place{Dir: dir, Home: home, Env: func(name string) (string, bool) {
		if name == "FORGE_PROJECT_DIR" || name == "CLAUDE_PROJECT_DIR" {
			return dir, true
		}
		return "", false
	}}
}

// projectServerDir is the directory a project's MCP server runs in: its
// cwd taken from the project's root, as its other relative paths are.
func projectServerDir(project, cwd string) string {
	if filepath.IsAbs(cwd) {
		return filepath.Clean(cwd)
	}
	return filepath.Join(project, cwd)
}

// pluginRuns are the plugin directories' manifests (*.yaml, *.yml, as
// forge's plugin loader reads them: a new one changes the list) and the
// files the manifests' commands run: the program from the manifest's directory, its arguments
// from the project's root.
func pluginRuns(dirs []string, place scripts.Place) []string {
	var runs []string
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			ext := strings.ToLower(filepath.Ext(name))
			if e.IsDir() || ext != ".yaml" && ext != ".yml" || strings.HasPrefix(name, ".") {
				continue
			}
			manifest := filepath.Join(d, name)
			runs = append(runs, manifest)
			if argv := manifestCommand(manifest); len(argv) > 0 {
				if strings.ContainsRune(argv[0], '/') && !filepath.IsAbs(argv[0]) {
					argv[0] = filepath.Join(d, argv[0])
				}
				runs = append(runs, scripts.Argv(argv, place)...)
			}
		}
	}
	return runs
}

// manifestCommand is a plugin manifest's command: a string split at
// spaces, or a list of words; nil when the manifest does not say.
func manifestCommand(path string) []string {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil // a FIFO would never answer
	}
	data, found, err := readFile(path, false)
	if err != nil || !found {
		return nil
	}
	var m struct {
		Command any `yaml:"command"`
	}
	if yaml.Unmarshal(data, &m) != nil {
		return nil
	}
	switch c := m.Command.(type) {
	case string:
		return strings.Fields(c)
	case []any:
		var argv []string
		for _, w := range c {
			s, ok := w.(string)
			if !ok {
				return nil
			}
			argv = append(argv, s)
		}
		return argv
	}
	return nil
}

// within says p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

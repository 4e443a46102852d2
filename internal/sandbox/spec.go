package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// spec is what the sandbox's first process is told: the places of the
// policy that exist, with their links resolved, and the command.
type spec struct {
	Mode Mode `json:"mode"`
	// Dir is where the command runs; Path is the program.
	Dir  string `json:"dir"`
	Path string `json:"path"`
	// Writable are bound back read-write (workspace-write).
	Writable []string `json:"writable,omitempty"`
	// Scratch are made private copies whose writes are thrown away
	// (read-only mode).
	Scratch []string `json:"scratch,omitempty"`
	// Keep are places inside the private copies (read-only mode) that
	// stay the real ones, read-only: a project under the temporary
	// directory must not become a copy that takes writes and loses them.
	Keep []string `json:"keep,omitempty"`
	// Private are the toolchains' caches, seen as they are and written in
	// copies kept under PrivateDir (workspace-write).
	Private    []string `json:"private,omitempty"`
	PrivateDir string   `json:"private_dir,omitempty"`
	// ReadOnly are bound read-only inside the writable places.
	ReadOnly []string `json:"read_only,omitempty"`
	// HideDirs are covered by an empty read-only directory, HideFiles by
	// an empty read-only file.
	HideDirs  []string `json:"hide_dirs,omitempty"`
	HideFiles []string `json:"hide_files,omitempty"`
	// Proxy is the unix socket of forge's proxy; "" means no network.
	Proxy string `json:"proxy,omitempty"`
	// ProxyDev and ProxyIno name the proxy's socket file as forge made it:
	// the relay connects to nothing else, whatever a command puts at
	// Proxy's path (a link or a hard link to another daemon's socket).
	ProxyDev uint64 `json:"proxy_dev,omitempty"`
	ProxyIno uint64 `json:"proxy_ino,omitempty"`
	// Status is the descriptor on which to report the command's exit; 0
	// for none.
	Status int `json:"status,omitempty"`
	// Life is a descriptor the first process holds open until it ends,
	// when nothing of the command runs any more; 0 for none.
	Life int `json:"life,omitempty"`
}

// gitRoots are the roots scanned for git control entries: the writable
// directories (not the temporary directory and caches, too large to scan
// before every command), in workspace-write mode.
func (p Policy) gitRoots() []string {
	if p.Mode == ModeReadOnly || p.Mode == ModeOff {
		return nil
	}
	return outermost(existing(p.Writable))
}

// Places are the places a policy applies to a command, as they exist:
// links resolved, nested ones left out.
type Places struct {
	// Writable are where a command may write; Scratch (read-only mode)
	// are private copies whose writes vanish.
	Writable, Scratch []string
	// Private are the toolchains' caches a command sees whole but writes
	// in the sandbox's own copy of.
	Private []string
	// ReadOnly are the read-only places inside the writable ones.
	ReadOnly []string
	// Hidden are the places a command cannot see.
	Hidden []string
}

// Places says where a command running in dir may write and what it
// cannot see.
func (p Policy) Places(dir string) Places {
	var controls []string
	for _, root := range p.gitRoots() {
		for c := range scanGit(root).controls {
			controls = append(controls, c)
		}
	}
	sp := p.places(dir, controls, newNameGuard().find(p.NameRoots, p.HiddenNames))
	return Places{Writable: sp.Writable, Scratch: sp.Scratch, Private: sp.Private, ReadOnly: sp.ReadOnly,
		Hidden: append(append([]string(nil), sp.HideDirs...), sp.HideFiles...)}
}

// places works out, for a command running in dir, which existing places
// the policy makes writable, scratch, read-only and hidden; controls are
// the git control entries found in the writable roots (gitScan), kept
// read-only; named are the files HiddenNames match, hidden outside the
// writable directories.
func (p Policy) places(dir string, controls, named []string) spec {
	var sp spec
	sp.Mode, sp.Dir = p.Mode, dir
	writable := existing(p.Writable)
	caches := existing(p.Caches)
	private := existing(p.Private)
	var hidden []string
	for _, f := range existing(named) {
		if !insideAny(f, writable) {
			hidden = append(hidden, f)
		}
	}
	for _, h := range existing(p.Hidden) {
		// The project cannot be hidden, nor what holds it or a cache.
		if !holdsAny(h, writable) && !holdsAny(h, caches) && !holdsAny(h, private) && !within(dir, h) {
			hidden = append(hidden, h)
		}
	}
	hidden = outermost(hidden)
	if p.Mode == ModeReadOnly {
		sp.Scratch = outermost(withoutInside(append(caches, private...), hidden))
		for _, w := range outermost(writable) {
			if insideAny(w, sp.Scratch) && !slices.Contains(sp.Scratch, w) {
				sp.Keep = append(sp.Keep, w)
			}
		}
	} else {
		sp.Writable = outermost(withoutInside(append(writable, caches...), hidden))
		sp.Private, sp.PrivateDir = privateCaches(private, sp.Writable, hidden), p.PrivateDir
	}
	var ro []string
	for _, w := range sp.Writable {
		ro = append(ro, controlFiles(w)...)
	}
	ro = append(ro, controls...)
	if root := repositoryRoot(dir); root != "" && insideAny(root, sp.Writable) {
		ro = append(ro, controlFiles(root)...)
	}
	for d := dir; insideAny(d, sp.Writable); d = filepath.Dir(d) {
		ro = append(ro, projectSettings(d)...)
		if d == filepath.Dir(d) {
			break
		}
	}
	ro = append(ro, p.ReadOnly...)
	for _, r := range outermost(existing(ro)) {
		if insideAny(r, sp.Writable) && !insideAny(r, hidden) {
			sp.ReadOnly = append(sp.ReadOnly, r)
		}
	}
	for _, h := range hidden {
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			sp.HideDirs = append(sp.HideDirs, h)
		} else {
			sp.HideFiles = append(sp.HideFiles, h)
		}
	}
	return sp
}

// privateCaches are the caches that become the sandbox's own copies: not
// inside a writable place (a cache in the project is the project's), nor
// holding one (the copy would hide the project's real files), nor hidden.
func privateCaches(private, writable, hidden []string) []string {
	var out []string
	for _, c := range outermost(withoutInside(private, hidden)) {
		if !insideAny(c, writable) && !holdsAny(c, writable) {
			out = append(out, c)
		}
	}
	return out
}

// makeCaches creates the caches that do not exist yet where their parent
// does (~/go/pkg/mod once ~/go/pkg is there), so that a toolchain's first
// download in the sandbox has a writable place to go; none is made
// directly in home, which would litter it with every toolchain's name.
func (p Policy) makeCaches(home string) {
	if p.Mode != ModeWorkspace {
		return
	}
	for _, c := range slices.Concat(p.Caches, p.Private) {
		parent := filepath.Dir(c)
		if !filepath.IsAbs(c) || parent == filepath.Clean(home) {
			continue
		}
		if _, err := os.Lstat(c); err == nil {
			continue
		}
		if fi, err := os.Stat(parent); err == nil && fi.IsDir() {
			_ = os.Mkdir(c, 0o755)
		}
	}
}

// projectSettings are the files of a directory that configure forge for
// it: .forge, and Claude Code's .claude and .mcp.json, which forge reads
// too. A command that changed them would change what forge runs next, or
// (in a trusted project) end its trust.
func projectSettings(dir string) []string {
	return []string{filepath.Join(dir, ".forge"), filepath.Join(dir, ".claude"), filepath.Join(dir, ".mcp.json")}
}

// controlFiles are what a command in a writable root must not change:
// its project settings, and its repository's whole .git (a directory, or the file
// of a worktree that names one). Much in .git makes git run commands
// (config, config.worktree, hooks, and a commondir that points git at
// another directory's configuration, which a read-only config and hooks
// would not stop: git creates its lock files beside them, so the
// directory cannot be left writable for only some of its names). Reading
// the repository works; committing asks to leave the sandbox.
func controlFiles(root string) []string {
	return append(projectSettings(root), filepath.Join(root, ".git"))
}

// repositoryRoot is the nearest directory from dir upward with a .git
// entry; "" when there is none.
func repositoryRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// existing are the paths that exist, absolute, with their links resolved,
// each once.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// outermost drops the paths inside another of them.
func outermost(paths []string) []string {
	var out []string
	for i, p := range paths {
		inner := false
		for j, q := range paths {
			if i != j && p != q && within(p, q) {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, p)
		}
	}
	return out
}

// withoutInside drops the paths inside one of outer.
func withoutInside(paths, outer []string) []string {
	var out []string
	for _, p := range paths {
		if !insideAny(p, outer) {
			out = append(out, p)
		}
	}
	return out
}

// insideAny says p is one of dirs or inside one.
func insideAny(p string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return within(p, d) })
}

// holdsAny says one of paths is p or inside it.
func holdsAny(p string, paths []string) bool {
	return slices.ContainsFunc(paths, func(q string) bool { return within(q, p) })
}

// within says p is dir or inside it.
func within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// placesFor is what the sandbox lets cmd, not yet started, see and write,
// from the directory it will run in (forge's own when it names none); the
// toolchains' caches are made first, so that they can be mounted.
func (s *Sandbox) placesFor(cmd *exec.Cmd, controls []string) (spec, error) {
	if cmd.Err != nil {
		return spec{}, cmd.Err
	}
	dir := cmd.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return spec{}, fmt.Errorf("the working directory is unknown: %w", err)
		}
		dir = wd
	}
	home, _ := os.UserHomeDir()
	s.policy.makeCaches(home)
	return s.policy.places(dir, controls, s.names.find(s.policy.NameRoots, s.policy.HiddenNames)), nil
}

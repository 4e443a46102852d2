package plugin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/tools"
)

// Info describes one manifest found in the plugin directories, loaded or
// not, for /plugins.
type Info struct {
	Name        string         // the tool name; empty when the manifest is bad
	Path        string         // the manifest file
	Description string         // the manifest's description
	Category    tools.Category // the manifest's category
	Command     []string       // the manifest's command
	Err         error          // why it is not registered: a *FieldError or a registration *tools.ToolError
}

// Loaded reports whether the plugin is registered.
func (i Info) Loaded() bool { return i.Err == nil }

// Manager loads the plugins of some directories into a registry and can
// load them again. It is safe for concurrent use.
type Manager struct {
	reg  *tools.Registry
	dirs []string
	wrap func(tools.Tool) tools.Tool
	// passEnv are the secret-looking variables plugins inherit all the same.
	passEnv []string

	mu         sync.Mutex
	infos      []Info
	registered map[string]tools.Tool // name -> the value we put in the registry
}

// Option configures a Manager.
type Option func(*Manager)

// WithWrap sets a decorator applied to every plugin tool before it is
// registered (the rate limiter: ratelimit.Set.Wrap).
func WithWrap(wrap func(tools.Tool) tools.Tool) Option { return func(m *Manager) { m.wrap = wrap } }

// WithPassEnv names environment variables that plugins inherit even though
// their names look secret (they contain KEY, TOKEN, SECRET or PASSWORD:
// such variables of forge's environment are otherwise withheld). Names
// match case-insensitively and may be patterns ("AWS_*"); see proc.Environ.
func WithPassEnv(names ...string) Option {
	return func(m *Manager) { m.passEnv = append(m.passEnv, names...) }
}

// NewManager returns a manager for the plugin directories dirs, searched in
// order: when two manifests give the same name, the first one wins and the
// second is reported as a collision.
func NewManager(reg *tools.Registry, dirs []string, opts ...Option) *Manager {
	m := &Manager{reg: reg, dirs: slices.Clone(dirs), registered: map[string]tools.Tool{}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Dirs returns the plugin directories.
func (m *Manager) Dirs() []string { return slices.Clone(m.dirs) }

// Scan reads every manifest (*.yaml, *.yml) directly inside dirs, in order
// and sorted by file name within a directory. A directory that does not
// exist is skipped: the default one usually does not. Manifests that cannot
// be read or parsed come back as errors, each naming its file.
func Scan(dirs []string) ([]*Manifest, []error) {
	var ms []*Manifest
	var errs []error
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, &FieldError{File: dir, Message: err.Error()})
			}
			continue
		}
		for _, e := range entries {
			name := e.Name()
			ext := strings.ToLower(filepath.Ext(name))
			if e.IsDir() || (ext != ".yaml" && ext != ".yml") || strings.HasPrefix(name, ".") {
				continue
			}
			man, err := ReadManifest(filepath.Join(dir, name))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ms = append(ms, man)
		}
	}
	return ms, errs
}

// Load registers every plugin of the directories. It returns one error per
// manifest that was refused (bad manifest, or a name already taken: a
// *tools.ToolError wrapping tools.ErrAlreadyRegistered, for the
// registration-failed panel), joined; the good ones are registered anyway.
func (m *Manager) Load(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.load(ctx)
}

func (m *Manager) load(ctx context.Context) error {
	mans, scanErrs := Scan(m.dirs)
	infos := make([]Info, 0, len(mans)+len(scanErrs))
	var errs []error
	for _, err := range scanErrs {
		var fe *FieldError
		path := ""
		if errors.As(err, &fe) {
			path = fe.File
		}
		infos = append(infos, Info{Path: path, Err: err})
		errs = append(errs, err)
	}
	for _, man := range mans {
		if err := ctx.Err(); err != nil {
			return errors.Join(append(errs, err)...)
		}
		info := Info{Name: man.Name, Path: man.Path, Description: man.Description, Category: man.Category, Command: man.Command}
		var t tools.Tool = &Plugin{m: man, passEnv: m.passEnv}
		if m.wrap != nil {
			t = m.wrap(t)
		}
		if err := m.reg.Register(t); err != nil {
			info.Err = fmt.Errorf("%s: %w", man.Path, err)
			errs = append(errs, info.Err)
		} else {
			m.registered[man.Name] = t
		}
		infos = append(infos, info)
	}
	m.infos = infos
	return errors.Join(errs...)
}

// Reload deregisters the plugins this manager registered and loads the
// directories again, so that edited, added and removed manifests take
// effect. A tool of the same name registered by someone else in between is
// left alone.
func (m *Manager) Reload(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unload()
	return m.load(ctx)
}

// Unload deregisters the plugins this manager registered.
func (m *Manager) Unload() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unload()
}

func (m *Manager) unload() {
	for name, t := range m.registered {
		if cur, ok := m.reg.Get(name); ok && cur == t {
			m.reg.Deregister(name)
		}
	}
	clear(m.registered)
	m.infos = nil
}

// List returns what the last Load or Reload found, in the order found.
func (m *Manager) List() []Info {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.infos)
}

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// fixture is a hermetic world for Load: a working directory, a home directory, an
// environment map and the command line.
type fixture struct {
	t    *testing.T
	cwd  string
	home string
	env  map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, cwd: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	for _, d := range []string{f.cwd, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.env = map[string]string{"HOME": f.home}
	return f
}

// write puts a file under the working directory and returns its absolute path.
func (f *fixture) write(name, content string) string {
	f.t.Helper()
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.cwd, name)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// mkdir makes a directory under the working directory and returns its absolute path.
func (f *fixture) mkdir(name string) string {
	f.t.Helper()
	p := filepath.Join(f.cwd, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) lookup(k string) (string, bool) {
	v, ok := f.env[k]
	return v, ok
}

// source returns a Source reading file (may be "") with args parsed by AddFlags' flags.
func (f *fixture) source(file string, args ...string) Source {
	f.t.Helper()
	fs := pflag.NewFlagSet("forge", pflag.ContinueOnError)
	AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		f.t.Fatalf("parse %v: %v", args, err)
	}
	return Source{File: file, Flags: fs, Env: f.lookup, Getwd: func() (string, error) { return f.cwd, nil }}
}

// load runs Load and fails the test on error.
func (f *fixture) load(file string, args ...string) Config {
	f.t.Helper()
	c, err := Load(f.source(file, args...))
	if err != nil {
		f.t.Fatalf("Load: %v", err)
	}
	return c
}

// loadErr runs Load and returns its error, failing the test when there is none.
func (f *fixture) loadErr(file string, args ...string) string {
	f.t.Helper()
	_, err := Load(f.source(file, args...))
	if err == nil {
		f.t.Fatalf("Load succeeded, want an error")
	}
	return err.Error()
}

func wantContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%q does not contain %q", got, w)
		}
	}
}

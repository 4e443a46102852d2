package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// specRegistry returns a fresh registry holding the tools of groups, lazily,
// each built with cfg[name] as its configuration section.
func specRegistry(t testing.TB, cfg map[string]map[string]any, groups ...[]spec) *tools.Registry {
	t.Helper()
	reg := tools.NewRegistry(tools.WithDeps(func(name string) tools.Deps { return tools.Deps{Config: cfg[name]} }))
	for _, group := range groups {
		for _, s := range group {
			if err := reg.RegisterLazy(s.desc, s.factory, s.how); err != nil {
				t.Fatalf("register %s: %v", s.desc.Name, err)
			}
		}
	}
	return reg
}

// fileExecutor returns an executor over a registry holding only the file
// tools, each built with cfg[name] as its configuration section.
func fileExecutor(t testing.TB, cfg map[string]map[string]any) *tools.Executor {
	t.Helper()
	return tools.NewExecutor(specRegistry(t, cfg, fileSpecs(&shellHolder{})))
}

// execFile runs one file tool through a fresh executor with working
// directory wd.
func execFile(t testing.TB, wd, name string, args tools.Args) tools.Result {
	t.Helper()
	return fileExecutor(t, nil).Execute(context.Background(), name, tools.NewExecutionContext(wd), args)
}

// realTempDir is t.TempDir with its symbolic links resolved, so that paths
// the tools report (resolved) compare equal to the test's.
func realTempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeFiles creates files (path relative to dir -> content).
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustRead(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantOK fails unless r succeeded; it returns the output.
func wantOK(t testing.TB, r tools.Result) string {
	t.Helper()
	if !r.Success {
		t.Fatalf("want success, got error %q", r.Error)
	}
	return r.Display()
}

// wantFail fails unless r failed with an error containing want.
func wantFail(t testing.TB, r tools.Result, want string) {
	t.Helper()
	if r.Success {
		t.Fatalf("want failure containing %q, got success: %q", want, r.Display())
	}
	if !strings.Contains(r.Error, want) {
		t.Fatalf("error %q does not contain %q", r.Error, want)
	}
}

// cancelled returns a context that is already cancelled.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// buildTool builds a tool directly from its factory.
func buildTool(t testing.TB, f tools.Factory, cfg map[string]any) tools.Tool {
	t.Helper()
	tl, err := f(context.Background(), tools.Deps{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestFileToolsRegistered checks that Register adds the five file tools,
// lazily, in the file category, with descriptors the core accepts.
func TestFileToolsRegistered(t *testing.T) {
	reg := tools.NewRegistry()
	_ = Register(reg) // other groups' errors are theirs to test
	for _, name := range []string{"Read", "Write", "Edit", "Glob", "Grep"} {
		tl, ok := reg.Get(name)
		if !ok {
			t.Errorf("%s not registered", name)
			continue
		}
		if tl.Category() != tools.CategoryFile {
			t.Errorf("%s in category %s", name, tl.Category())
		}
		if err := tools.CheckTool(tools.Describe(tl)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for _, f := range tools.Formats() {
			if _, err := tools.ExportSchema(tools.Describe(tl), f); err != nil {
				t.Errorf("%s: export %s: %v", name, f, err)
			}
		}
	}
}

package plugin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

type fixed struct{ name string }

func (f fixed) Name() string                  { return f.name }
func (f fixed) Description() string           { return "built in" }
func (f fixed) Category() tools.Category      { return tools.CategoryFile }
func (f fixed) Parameters() []tools.Parameter { return nil }
func (f fixed) Execute(context.Context, tools.ExecutionContext, tools.Args) tools.Result {
	return tools.OK("builtin")
}

func TestManagerLoadCollisionsAndBadManifests(t *testing.T) {
	dir1, dir2 := t.TempDir(), t.TempDir()
	writePlugin(t, dir1, "good", "echo good", "")
	writePlugin(t, dir1, "Read", "echo impostor", "")
	writePlugin(t, dir2, "good", "echo shadowed", "")
	if err := os.WriteFile(filepath.Join(dir1, "bad.yaml"), []byte("name: bad\ndescription: d\ncommand: c\nparameters:\n  - {name: a, type: strng}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir1, "notes.txt"), []byte("not a manifest"), 0o644)

	reg := tools.NewRegistry()
	if err := reg.Register(fixed{name: "Read"}); err != nil {
		t.Fatal(err)
	}
	wrapped := 0
	mgr := NewManager(reg, []string{dir1, filepath.Join(dir1, "missing"), dir2}, WithWrap(func(t tools.Tool) tools.Tool { wrapped++; return t }))
	err := mgr.Load(context.Background())
	if err == nil {
		t.Fatal("no error for the bad manifest and the collisions")
	}
	if !errors.Is(err, tools.ErrAlreadyRegistered) || !errors.Is(err, ErrBadManifest) {
		t.Errorf("error = %v", err)
	}
	var te *tools.ToolError
	if !errors.As(err, &te) || te.ToolName != "Read" {
		t.Errorf("no *ToolError for Read in %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		filepath.Join(dir1, "bad.yaml") + `: parameters[0].type: unknown type "strng"`,
		filepath.Join(dir1, "Read.yaml") + ": Tool 'Read' error: Tool already registered",
		filepath.Join(dir2, "good.yaml") + ": Tool 'good' error: Tool already registered",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if got := reg.ListNames(); strings.Join(got, ",") != "Read,good" {
		t.Errorf("registered = %v", got)
	}
	if r := run(t, reg, "good", tools.NewExecutionContext(""), nil); r.Output != "good" {
		t.Errorf("good ran %+v", r)
	}
	if r := run(t, reg, "Read", tools.NewExecutionContext(""), nil); r.Output != "builtin" {
		t.Errorf("the built-in was replaced: %+v", r)
	}
	if wrapped != 3 {
		t.Errorf("wrapped %d plugins", wrapped)
	}
	infos := mgr.List()
	if len(infos) != 4 {
		t.Fatalf("infos = %+v", infos)
	}
	loaded := 0
	for _, in := range infos {
		if in.Loaded() {
			loaded++
		}
	}
	if loaded != 1 {
		t.Errorf("loaded = %d", loaded)
	}
}

func TestManagerReload(t *testing.T) {
	dir := t.TempDir()
	writePlugin(t, dir, "one", "echo one", "")
	writePlugin(t, dir, "two", "echo two", "")
	reg := tools.NewRegistry()
	mgr := NewManager(reg, []string{dir})
	if err := mgr.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Edit one, remove two, add three.
	writePlugin(t, dir, "one", "echo ONE", "")
	os.Remove(filepath.Join(dir, "two.yaml"))
	writePlugin(t, dir, "three", "echo three", "")
	if err := mgr.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(reg.ListNames(), ","); got != "one,three" {
		t.Errorf("after reload: %s", got)
	}
	if r := run(t, reg, "one", tools.NewExecutionContext(""), nil); r.Output != "ONE" {
		t.Errorf("one = %+v", r)
	}
	// A tool of a plugin's name registered by someone else survives Unload.
	reg.Deregister("three")
	if err := reg.Register(fixed{name: "three"}); err != nil {
		t.Fatal(err)
	}
	mgr.Unload()
	if got := strings.Join(reg.ListNames(), ","); got != "three" {
		t.Errorf("after unload: %s", got)
	}
	if len(mgr.List()) != 0 {
		t.Errorf("list after unload: %v", mgr.List())
	}
}

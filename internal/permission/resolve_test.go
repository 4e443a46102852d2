package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// A path written clean is resolved once: each resolution stats every
// directory above it, and a Read's decision is on every step's path.
// Allocations count the walks, whatever the machine's speed.
func TestPathSubjectResolvesOnce(t *testing.T) {
	wd := t.TempDir()
	deep := filepath.Join(wd, "a", "b", "c", "d", "e")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(deep, "x.go")
	if err := os.WriteFile(file, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{Mode: ModeAsk, WorkingDir: wd})
	if err != nil {
		t.Fatal(err)
	}
	walk := testing.AllocsPerRun(20, func() { _, _ = resolvePhysical(file) })
	for _, arg := range []string{file, "a/b/c/d/e/x.go"} {
		ps := p.pathSubject(arg)
		if !ps.resolved || len(ps.physical) != 1 || !p.inside(ps) {
			t.Fatalf("pathSubject(%q) = %+v", arg, ps)
		}
		got := testing.AllocsPerRun(20, func() { p.pathSubject(arg) })
		if got > walk+4 {
			t.Errorf("pathSubject(%q): %.0f allocations, one walk makes %.0f: it resolved the path more than once", arg, got, walk)
		}
	}
	// A path written unclean is resolved as written too, since a tool that
	// hands it to the system follows a link before the .. after it.
	if got := testing.AllocsPerRun(20, func() { p.pathSubject(file + "/../x.go") }); got < 2*walk {
		t.Errorf("an unclean path: %.0f allocations, want two walks (%.0f each)", got, walk)
	}
}

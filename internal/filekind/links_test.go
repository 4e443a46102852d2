package filekind

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestHardLinked(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one")
	if err := os.WriteFile(one, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(one)
	if err != nil {
		t.Fatal(err)
	}
	if HardLinked(fi) {
		t.Error("a file with one name is hard-linked")
	}
	if err := os.Link(one, filepath.Join(dir, "two")); err != nil {
		t.Skip("no hard links here:", err)
	}
	fi, _ = os.Stat(one)
	if got := HardLinked(fi); got != (runtime.GOOS != "windows") {
		t.Errorf("a file with two names: HardLinked = %v", got)
	}
}

package sandbox

import (
	"os/exec"
	"testing"
)

func BenchmarkTrue(b *testing.B) {
	dir := b.TempDir()
	s, err := New(Policy{Mode: ModeWorkspace, Writable: []string{dir}, Hidden: []string{"/root/.npmrc", "/root/.cargo"}}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("sandboxed", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("/bin/true")
			cmd.Dir = dir
			if _, err := s.Wrap(cmd, nil); err != nil {
				b.Fatal(err)
			}
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("/bin/true")
			cmd.Dir = dir
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

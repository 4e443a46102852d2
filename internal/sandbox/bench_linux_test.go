package sandbox

import (
	"os"
	"os/exec"
	"testing"
)

// BenchmarkTrue is the sandbox's cost per command: `true` run plainly,
// then in the sandbox (its first process is this test binary; with
// FORGE_BENCH_FORGE naming a built forge, that forge too, as it runs for
// real).
func BenchmarkTrue(b *testing.B) {
	requireSandbox(b)
	dir := b.TempDir()
	run := func(b *testing.B, sb *Sandbox) {
		for b.Loop() {
			cmd := exec.Command("/bin/true")
			cmd.Dir = dir
			release := func() {}
			if sb != nil {
				var err error
				if release, err = sb.Wrap(cmd, nil); err != nil {
					b.Fatal(err)
				}
			}
			err := cmd.Start()
			release()
			if err == nil {
				err = cmd.Wait()
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	policy := Policy{Mode: ModeWorkspace, Writable: []string{dir}, Caches: []string{os.TempDir()}}
	b.Run("unsandboxed", func(b *testing.B) { run(b, nil) })
	b.Run("sandboxed", func(b *testing.B) {
		sb, err := New(policy, Options{})
		if err != nil {
			b.Fatal(err)
		}
		run(b, sb)
	})
	if exe := os.Getenv("FORGE_BENCH_FORGE"); exe != "" {
		b.Run("sandboxed-by-forge", func(b *testing.B) {
			sb, err := New(policy, Options{Executable: exe})
			if err != nil {
				b.Fatal(err)
			}
			run(b, sb)
		})
	}
}

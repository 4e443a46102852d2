package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkGitScan: the first scan of a project of 3,331 directories
// (30 × 10 × 10, a file in each), and the checks before and after each
// command when nothing changed.
func BenchmarkGitScan(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 30 {
		for j := range 10 {
			for k := range 10 {
				d := filepath.Join(root, "p"+strconv.Itoa(i), "q"+strconv.Itoa(j), "r"+strconv.Itoa(k))
				if err := os.MkdirAll(d, 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, "f.go"), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("first scan", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			if s := scanGit(root); len(s.dirs) != 3331 {
				b.Fatalf("%d directories", len(s.dirs))
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	// What each command pays once the root is known: the check before
	// it and the one after it.
	b.Run("per command", func(b *testing.B) {
		g := newGitGuard()
		g.cancel(func() *gitWatch { _, w := g.prepare([]string{root}); return w }())
		cpu := cpuTime()
		for b.Loop() {
			_, w := g.prepare([]string{root})
			g.settle(w)
			if told := g.tell(time.Time{}); len(told) != 0 {
				b.Fatal(told)
			}
		}
		// CPU time says more than wall time on a shared machine.
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the CPU time this process used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package tools

import (
	"fmt"
	"testing"
)

// BenchmarkRegistryGet looks tools up among 100 (target: <= 25 ns, 0 allocs).
func BenchmarkRegistryGet(b *testing.B) {
	r := NewRegistry()
	names := make([]string, 100)
	for i := range names {
		names[i] = fmt.Sprintf("Tool_%03d", i)
		mustRegister(b, r, newTool(names[i], CategoryOther))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := r.Get(names[i]); !ok {
			b.Fatal("missing")
		}
		i++
		if i == len(names) {
			i = 0
		}
	}
}

// BenchmarkRegistryGetParallel is Get from every processor at once: with
// the copy-on-write snapshot, readers share no lock.
func BenchmarkRegistryGetParallel(b *testing.B) {
	r := NewRegistry()
	for i := range 100 {
		mustRegister(b, r, newTool(fmt.Sprintf("Tool_%03d", i), CategoryOther))
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, ok := r.Get("Tool_042"); !ok {
				b.Fatal("missing")
			}
		}
	})
}

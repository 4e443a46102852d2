package session

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used.
// Benchmarks report it beside wall time: on a machine shared with other
// work, wall time measures the neighbours as much as the code.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

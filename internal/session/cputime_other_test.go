//go:build !linux

package session

import "time"

// processCPU is unknown off Linux; benchmarks then report 0.
func processCPU() time.Duration { return 0 }

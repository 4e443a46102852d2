//go:build !linux

package tools

import "time"

// processCPU is unknown off Linux; benchmarks then report 0.
func processCPU() time.Duration { return 0 }

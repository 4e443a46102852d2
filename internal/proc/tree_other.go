//go:build !linux

package proc

import (
	"errors"
	"time"
)

// BecomeSubreaper does nothing where there are no subreapers (only Linux
// has them).
func BecomeSubreaper() error { return nil }

// EndDescendants is only available on Linux; elsewhere the process groups
// that Terminate ends are all forge can reach.
func EndDescendants(int, time.Duration) error { return errors.ErrUnsupported }

func reapOrphans(int, bool) int { return 0 }

func startReaper(int) (stop func()) { return func() {} }

func reapAllAtExit() bool { return false }

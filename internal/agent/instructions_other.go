//go:build !unix

package agent

import "os"

// openNoWait opens path for reading; outside Unix there are no FIFOs to
// wait on by name.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }

// hardLinked reports false: the link count is not at hand here.
func hardLinked(os.FileInfo) bool { return false }

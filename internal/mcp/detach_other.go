//go:build !unix

package mcp

import "os/exec"

// detach does nothing where there are no process groups.
func detach(cmd *exec.Cmd) {}

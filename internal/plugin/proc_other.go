//go:build !unix

package plugin

import "os/exec"

// setProcessGroup has no process groups to use here: cancellation kills
// the direct child only (exec.CommandContext's default).
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup does nothing where there are no process groups.
func killGroup(pid int) {}

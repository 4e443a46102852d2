package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// probeArg makes Init answer at once: the command the probe runs in the
// sandbox, so that it needs no program but forge. It prints probeReply,
// which only a forge that handled InitArg (not some other binary started
// in its place) prints.
const (
	probeArg   = "probe"
	probeReply = "forge sandbox: built"
)

// Detect says which mechanism confines commands on this machine, or why
// none can: it builds a sandbox once and runs forge itself in it, so
// that whatever the kernel or a container forbids shows here, with the
// kernel's own words, rather than at the first command.
func (s *Sandbox) Detect() (string, error) {
	probe := s.WithMode(ModeWorkspace)
	probe.policy.AllowedHosts = nil
	probe.proxy = &proxyHolder{}
	probe.guard = nil // the probe changes nothing
	cmd := exec.Command(s.opts.Executable, InitArg, probeArg)
	cmd.Args[0] = s.opts.Name
	cmd.Dir = os.TempDir()
	release, err := probe.Wrap(cmd, nil)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Start()
	release()
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		return "", probeError(err, out.String())
	}
	if !strings.Contains(out.String(), probeReply) {
		return "", fmt.Errorf("%s did not start as the sandbox's first process", s.opts.Executable)
	}
	abi := landlockABI()
	if err := filterAvailable(abi); err != nil {
		return "", err
	}
	mech := "Linux namespaces (user, mount, pid, network), seccomp (no unix sockets)"
	if abi > 0 {
		return fmt.Sprintf("%s and Landlock (ABI %d)", mech, abi), nil
	}
	return mech + "; no Landlock in this kernel", nil
}

// probeError words why the probe failed: what the kernel refused.
func probeError(err error, out string) error {
	out = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out), "forge sandbox: "))
	var pe *os.PathError
	switch {
	case errors.As(err, &pe) && errors.Is(pe.Err, os.ErrPermission), strings.Contains(err.Error(), "operation not permitted"):
		return errors.New("the kernel does not let forge create user namespaces here (a container, or a setting such as " +
			"kernel.apparmor_restrict_unprivileged_userns or user.max_user_namespaces=0)")
	case out != "":
		return errors.New(firstLine(out))
	}
	return fmt.Errorf("the sandbox could not start: %w", err)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

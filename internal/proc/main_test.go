//go:build linux

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Helper processes: the test binary run again with PROC_TEST_HELPER set to
// a role plays one process of a tree, writing its pid to a file named after
// the role in PROC_TEST_DIR.
const (
	helperRole = "PROC_TEST_HELPER"
	helperDir  = "PROC_TEST_DIR"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(helperRole); role != "" {
		os.Exit(helper(role, os.Getenv(helperDir)))
	}
	os.Exit(m.Run())
}

// helper plays a role:
//   - tree starts setsid, trapterm and doublefork, then sleeps;
//   - setsid leaves the group in a session of its own, then sleeps;
//   - trapterm ignores SIGTERM, then sleeps;
//   - doublefork starts orphan and exits at once, so orphan is reparented;
//   - orphan sleeps;
//   - orphanexit starts quickexit and exits at once;
//   - quickexit writes its pid and exits: a zombie orphan to reap.
func helper(role, dir string) int {
	switch role {
	case "tree":
		for _, r := range []string{"setsid", "trapterm", "doublefork"} {
			if err := startHelper(r, dir); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	case "setsid":
		if _, err := syscall.Setsid(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	case "trapterm":
		signal.Ignore(syscall.SIGTERM)
	case "doublefork", "orphanexit":
		child := map[string]string{"doublefork": "orphan", "orphanexit": "quickexit"}[role]
		if err := startHelper(child, dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "orphan", "quickexit":
	default:
		fmt.Fprintln(os.Stderr, "unknown helper role", role)
		return 2
	}
	if err := writePid(dir, role); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if role == "quickexit" {
		return 0
	}
	time.Sleep(time.Hour)
	return 0
}

// helperCommand is the test binary playing role, writing to dir.
func helperCommand(role, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperRole+"="+role, helperDir+"="+dir)
	cmd.Stderr = os.Stderr
	return cmd
}

// startHelper starts role and leaves it: no one in this process waits for it.
func startHelper(role, dir string) error {
	cmd := helperCommand(role, dir)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// writePid writes the pid atomically, so a reader never sees half of it.
func writePid(dir, role string) error {
	tmp := filepath.Join(dir, role+".tmp")
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, role))
}

// waitPid waits for role's pid file.
func waitPid(t *testing.T, dir, role string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, role)); err == nil {
			pid, err := strconv.Atoi(string(b))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("helper %s did not start", role)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

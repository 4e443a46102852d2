package proc

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests make the test binary a subreaper and end its descendants:
// they must not run in parallel with tests that start processes.

// waitUntil polls cond with a generous deadline.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	p, ok := readProc(pid)
	return ok && !p.dead()
}

// exists reports whether pid has a /proc entry at all (a zombie has one).
func exists(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// A tree whose processes escape every way they can (a new session, a
// double fork, SIGTERM ignored) is found and ended by Cleanup; the
// reparented orphans are reaped; the child os/exec started keeps its exit
// status for Cmd.Wait.
func TestGuardEndsEscapedDescendants(t *testing.T) {
	g := StartGuard(200 * time.Millisecond)
	t.Cleanup(func() { g.Cleanup() })
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	dir := t.TempDir()
	cmd := helperCommand("tree", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	tree := waitPid(t, dir, "tree")
	escaped := map[string]int{}
	for _, role := range []string{"setsid", "trapterm", "orphan"} {
		escaped[role] = waitPid(t, dir, role)
	}
	if p, _ := readProc(escaped["setsid"]); p.pgid == tree {
		t.Fatalf("the setsid helper is still in the tree's group %d", p.pgid)
	}
	// The orphan's parent exited: as a subreaper, this process adopts it.
	waitUntil(t, "the orphan is reparented to the test process", func() bool {
		p, ok := readProc(escaped["orphan"])
		return ok && p.ppid == self
	})

	pids, err := livePids(self)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{tree, escaped["setsid"], escaped["trapterm"], escaped["orphan"]} {
		if !slices.Contains(pids, want) {
			t.Errorf("livePids(%d) = %v, lacks %d", self, pids, want)
		}
	}

	if err := g.Cleanup(); err != nil {
		t.Fatal(err)
	}
	for role, pid := range escaped {
		if running(pid) {
			t.Errorf("%s (%d) survived Cleanup", role, pid)
		}
	}
	if exists(escaped["orphan"]) {
		t.Errorf("the orphan %d was not reaped", escaped["orphan"])
	}
	if pids, _ := livePids(self); len(pids) != 0 {
		t.Errorf("descendants left: %v", pids)
	}
	// Cmd.Wait got the tree's status: the reaper did not take it.
	select {
	case err := <-waited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("Cmd.Wait = %v, want the exit status of a killed process", err)
		}
		if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("tree ended with %v, want SIGTERM", ee)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Cmd.Wait did not return")
	}
}

// While forge runs, orphans that exit are reaped, and the children os/exec
// started, many exiting at the same time, keep their exit statuses.
func TestGuardReapsOrphansNotExecChildren(t *testing.T) {
	if !usesPidfds() {
		t.Skip("without pidfds orphans are only reaped at exit")
	}
	g := StartGuard(200 * time.Millisecond)
	t.Cleanup(func() { g.Cleanup() })

	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for range 20 {
		wg.Go(func() {
			// An unknown role exits at once with status 2.
			cmd := helperCommand("none", t.TempDir())
			cmd.Stderr = nil
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				errs <- err
			}
		})
	}
	dirs := make([]string, 5)
	for i := range dirs {
		dirs[i] = t.TempDir()
		wg.Go(func() {
			if err := helperCommand("orphanexit", dirs[i]).Run(); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a child of os/exec lost its status: %v", err)
	}
	for _, dir := range dirs {
		pid := waitPid(t, dir, "quickexit")
		waitUntil(t, "the orphan that exited is reaped", func() bool { return !exists(pid) })
	}
}

// An ended descendant that ignores SIGTERM is killed after the grace, not
// before.
func TestEndDescendantsGrace(t *testing.T) {
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := helperCommand("trapterm", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	waitPid(t, dir, "trapterm")
	start := time.Now()
	if err := EndDescendants(os.Getpid(), 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("ended after %s, before the grace: SIGTERM should have been ignored", d)
	}
	err := <-waited
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("Wait = %v, want killed by SIGKILL", err)
	}
}

func TestParseStat(t *testing.T) {
	line := "1234 (a (weird) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n"
	p, ok := parseStat(1234, []byte(line))
	if !ok || p != (procInfo{pid: 1234, ppid: 1, pgid: 1234, state: 'S', start: 98765}) {
		t.Errorf("parseStat = %+v, %v", p, ok)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "1 (x) S a 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 5"} {
		if _, ok := parseStat(1, []byte(bad)); ok {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

func TestDescendantsOfTable(t *testing.T) {
	all := []procInfo{
		{pid: 10, ppid: 1}, {pid: 11, ppid: 10}, {pid: 12, ppid: 11, state: 'Z'},
		{pid: 13, ppid: 12}, {pid: 20, ppid: 1}, {pid: 21, ppid: 20},
	}
	var got []int
	for _, p := range descendants(all, 10) {
		got = append(got, p.pid)
	}
	if want := []int{11, 12, 13}; !slices.Equal(got, want) {
		t.Errorf("descendants = %v, want %v", got, want)
	}
}

// BenchmarkGuardCleanupIdle is what every forge run pays at exit when its
// tools left nothing running.
func BenchmarkGuardCleanupIdle(b *testing.B) {
	g := StartGuard(time.Second)
	defer g.Cleanup()
	for b.Loop() {
		if err := g.Cleanup(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStartGuard(b *testing.B) {
	for b.Loop() {
		StartGuard(time.Second).Cleanup()
	}
}

// livePids returns the pids of the live (non-zombie) processes that
// descend from root, read from /proc.
func livePids(root int) ([]int, error) {
	live, err := liveDescendants(root)
	if err != nil {
		return nil, err
	}
	pids := make([]int, len(live))
	for i, p := range live {
		pids[i] = p.pid
	}
	return pids, nil
}

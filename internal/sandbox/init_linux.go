package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/forgehq/forge/internal/proc"
)

// Exit statuses of the sandbox's first process when the command did not
// run, as a shell's: the sandbox could not be built, the program could
// not be started.
const (
	exitSetup    = 125
	exitNotFound = 127
)

// Init is the sandbox's first process (forge __sandbox SPEC -- PROGRAM
// ARGS...), in the namespaces Wrap started it in: it confines itself,
// starts the command, waits for it and for what it leaves behind, and
// returns the command's exit status. A sandbox it cannot build is an
// error on standard error and status 125: the command never runs
// unconfined.
func Init(args []string) int {
	if len(args) == 1 && args[0] == probeArg {
		fmt.Println(probeReply) // Detect's command: the sandbox was built
		return 0
	}
	sp, argv, err := parseInit(args)
	if err != nil {
		return setupFailed(err)
	}
	// Landlock, no_new_privs and the seccomp filter are applied to this thread, which starts
	// the command: it must stay this goroutine's (and is never released).
	runtime.LockOSThread()
	var status *os.File
	if sp.Status > 0 {
		unix.CloseOnExec(sp.Status)
		status = os.NewFile(uintptr(sp.Status), "status")
	}
	if sp.Life > 0 {
		// Held, never closed, until this process ends; not the command's.
		unix.CloseOnExec(sp.Life)
	}
	if err := confine(sp); err != nil {
		return setupFailed(err)
	}
	env, err := network(sp.Proxy, sp.ProxyDev, sp.ProxyIno)
	if err != nil {
		return setupFailed(err)
	}
	if err := restrict(sp); err != nil {
		return setupFailed(err)
	}
	pid, err := startCommand(sp, argv, env)
	if err != nil {
		fmt.Fprintf(os.Stderr, "forge sandbox: cannot run %s: %v\n", argv[0], err)
		return exitNotFound
	}
	// The command runs in a user namespace nested in this one, where it
	// has no capability over this process; not dumpable, nothing of it
	// can be read through /proc either.
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	releaseStdio()
	forwardSignals()
	return reap(pid, status)
}

// parseInit reads SPEC -- ARGV.
func parseInit(args []string) (spec, []string, error) {
	var sp spec
	if len(args) < 3 || args[1] != "--" {
		return sp, nil, errors.New("usage: forge " + InitArg + " SPEC -- PROGRAM [ARGS...]")
	}
	if err := json.Unmarshal([]byte(args[0]), &sp); err != nil {
		return sp, nil, fmt.Errorf("bad spec: %w", err)
	}
	if sp.Path == "" {
		sp.Path = args[2]
	}
	return sp, args[2:], nil
}

func setupFailed(err error) int {
	fmt.Fprintf(os.Stderr, "forge sandbox: %v\n", err)
	return exitSetup
}

// startCommand starts the command in a nested user and mount namespace,
// which locks every mount this process made: the command cannot undo
// them even with the capabilities it holds in its own namespace.
func startCommand(sp spec, argv, env []string) (int, error) {
	uid, gid := os.Getuid(), os.Getgid()
	attr := &syscall.ProcAttr{Dir: sp.Dir, Env: env, Files: []uintptr{0, 1, 2},
		Sys: &syscall.SysProcAttr{
			Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		}}
	return syscall.ForkExec(sp.Path, argv, attr)
}

// releaseStdio lets go of the command's streams, so that its output pipe
// ends when the command and its children close it, not when this process
// exits.
func releaseStdio() {
	null, err := unix.Open("/dev/null", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	for fd := 0; fd <= 2; fd++ {
		_ = unix.Dup3(null, fd, 0)
	}
	unix.Close(null)
}

// forwardSignals passes a signal sent to this process (forge ending the
// command's process group) to every process of the namespace, those that
// left the group too.
func forwardSignals() {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, unix.SIGTERM, unix.SIGINT, unix.SIGHUP, unix.SIGQUIT)
	go func() {
		for s := range ch {
			_ = unix.Kill(-1, s.(unix.Signal))
		}
	}()
}

// reap waits for every process of the namespace (orphans come to the
// first process), reports the command's exit on status as soon as it is
// known, and returns it as an exit status once nothing is left.
func reap(pid int, status *os.File) int {
	code := exitSetup
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return code // ECHILD: nothing is left
		}
		if got != pid {
			continue
		}
		ex := proc.Exit{Code: ws.ExitStatus()}
		code = ex.Code
		if ws.Signaled() {
			ex = proc.Exit{Code: -1, Signal: unix.SignalName(ws.Signal())}
			code = 128 + int(ws.Signal())
		}
		if status != nil {
			_ = proc.WriteExit(status, ex, othersRun())
			status.Close()
		}
	}
}

// othersRun reaps the children that already exited and says whether any
// still runs. The command's own children were given to this process when
// it exited, before its exit could be seen.
func othersRun() bool {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		switch {
		case errors.Is(err, unix.EINTR):
		case err != nil:
			return false // ECHILD
		case got == 0:
			return true
		}
	}
}

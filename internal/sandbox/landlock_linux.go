package sandbox

import (
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// devices are the device files any program writes to.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// restrict applies Landlock to this process and so to the command: read
// and run everything, write only in the writable places, the private
// copies, the devices every program writes to and /proc (this process
// writes its child's user namespace maps there). It sets no_new_privs
// too. Best effort: on a kernel without Landlock the mounts still
// confine. Signals and abstract sockets are not scoped: the pid and
// network namespaces already keep them in, and before Landlock ABI 8 each
// thread gets a domain of its own, which would keep this process from
// signalling the command it started.
func restrict(sp spec) error {
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs("/proc"),
		landlock.RWFiles(devices...).WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs("/dev/pts", "/dev/shm").WithIoctlDev().IgnoreIfMissing(),
	}
	var dirs, files []string
	for _, p := range append(append([]string(nil), sp.Writable...), sp.Scratch...) {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			dirs = append(dirs, p)
		} else {
			files = append(files, p)
		}
	}
	if len(dirs) > 0 {
		rules = append(rules, landlock.RWDirs(dirs...).WithRefer())
	}
	if len(files) > 0 {
		rules = append(rules, landlock.RWFiles(files...).IgnoreIfMissing())
	}
	if sp.Proxy != "" {
		rules = append(rules, landlock.ROFiles(sp.Proxy).WithResolveUnix())
	}
	cfg := landlock.Config{HandledAccessFS: landlock.V11.HandledAccessFS}
	return cfg.BestEffort().Restrict(rules...)
}

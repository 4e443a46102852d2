//go:build unix

package proc

import (
	"bytes"
	"os"
	"strconv"
)

// procInfo is one process as /proc/PID/stat describes it.
type procInfo struct {
	pid, ppid, pgid int
	state           byte
	// start is when the process started, in clock ticks after boot: with
	// the pid, it names one process even after the pid is reused.
	start uint64
}

// dead reports whether the process has exited (a zombie not yet reaped).
func (p procInfo) dead() bool { return p.state == 'Z' || p.state == 'X' }

// readProc reads the stat of one process; false when it is gone (or there
// is no /proc).
func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	return parseStat(pid, b)
}

// parseStat parses the contents of /proc/PID/stat. The command name is in
// parentheses and may hold spaces and parentheses: the fields start after
// the last ')'. They are: state ppid pgrp session tty_nr tpgid flags minflt
// cminflt majflt cmajflt utime stime cutime cstime priority nice
// num_threads itrealvalue starttime ...
func parseStat(pid int, b []byte) (procInfo, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procInfo{}, false
	}
	return procInfo{pid: pid, ppid: ppid, pgid: pgid, state: f[0][0], start: start}, true
}

// processes reads every process of /proc. It fails where /proc is not
// available.
func processes() ([]procInfo, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	out := make([]procInfo, 0, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok { // else gone meanwhile
			out = append(out, p)
		}
	}
	return out, nil
}

// descendants returns the processes of all that descend from root, found
// through their parent links, live or dead.
func descendants(all []procInfo, root int) []procInfo {
	children := make(map[int][]procInfo, len(all))
	for _, p := range all {
		children[p.ppid] = append(children[p.ppid], p)
	}
	var out []procInfo
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if seen[c.pid] {
				continue // a cycle in a torn read of /proc
			}
			seen[c.pid] = true
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

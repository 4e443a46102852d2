package builtin

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/builtin/internal/capture"
	"github.com/forgehq/forge/internal/proc"
)

// Defaults of the background process table.
const (
	// defaultKillGrace is how long a process group gets between SIGTERM and
	// SIGKILL.
	defaultKillGrace = time.Second
	// streamSize is how much of a background command's output is kept for
	// BashOutput: the newest bytes, the older ones are dropped and counted.
	streamSize = 1 << 20
	// maxShells bounds the table: beyond it, the oldest commands that have
	// ended are forgotten (with their output) to make room.
	maxShells = 100
)

// errShellsClosed is returned when a command is started after forge began
// shutting down.
var errShellsClosed = errors.New("forge is shutting down: no new background commands")

// shellState is what a background command is doing.
type shellState string

const (
	shellRunning shellState = "running"
	shellExited  shellState = "exited"
	shellKilled  shellState = "killed"
)

// bgShell is one background command: started with run_in_background, or the
// children a foreground command left running (adopted).
type bgShell struct {
	id      string
	command string
	pgid    int
	out     *capture.Stream
	drained chan struct{} // closed when the output pipe reached EOF

	group *proc.Group // nil for adopted groups, whose leader has exited
	exit  proc.Exit   // for adopted groups: how the leader ended

	mu      sync.Mutex
	readOff int64
	killed  bool
}

// status reports the command's state and, once it has ended, how.
func (s *bgShell) status() (shellState, proc.Exit) {
	s.mu.Lock()
	killed := s.killed
	s.mu.Unlock()
	if s.group != nil {
		select {
		case <-s.group.Done():
			ex := s.group.Exit()
			if killed || ex.Signal != "" {
				return shellKilled, ex
			}
			return shellExited, ex
		default:
			return shellRunning, proc.Exit{}
		}
	}
	// An adopted group has no leader to wait for: it runs while any member
	// is alive.
	if proc.Alive(s.pgid) {
		return shellRunning, proc.Exit{}
	}
	if killed {
		return shellKilled, s.exit
	}
	return shellExited, s.exit
}

// describe is a one-line summary for listings: "bash_1 (running: sleep 300)".
func (s *bgShell) describe() string {
	st, ex := s.status()
	state := string(st)
	if st != shellRunning {
		state += ", " + ex.String()
	}
	return fmt.Sprintf("%s (%s: %s)", s.id, state, oneLine(s.command, 60))
}

// shellTable holds the background commands of one registry. Bash,
// BashOutput and KillShell share it; whichever of them is closed first ends
// every group still running (Registry.Close, when forge exits).
type shellTable struct {
	mu     sync.Mutex
	next   int
	shells map[string]*bgShell
	closed bool
	grace  time.Duration
}

func newShellTable() *shellTable {
	return &shellTable{shells: map[string]*bgShell{}, grace: defaultKillGrace}
}

// shellHolder creates the table of one registry on first use; the three
// execution tools' factories capture the same holder, so there is no
// package-level state and each registry has its own table.
type shellHolder struct {
	once sync.Once
	t    *shellTable
}

func (h *shellHolder) table() *shellTable {
	h.once.Do(func() { h.t = newShellTable() })
	return h.t
}

// setGrace sets the SIGTERM-to-SIGKILL delay used by Bash (timeouts,
// cancellations), KillShell and Close.
func (t *shellTable) setGrace(d time.Duration) {
	t.mu.Lock()
	t.grace = d
	t.mu.Unlock()
}

func (t *shellTable) killGrace() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.grace
}

// add gives s the next id and stores it.
func (t *shellTable) add(s *bgShell) error {
	t.prune()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errShellsClosed
	}
	t.next++
	s.id = "bash_" + strconv.Itoa(t.next)
	t.shells[s.id] = s
	return nil
}

// start runs command in the background, in the environment env and the
// sandbox sb (nil: none), and returns its entry.
func (t *shellTable) start(shell, command, dir string, env []string, sb proc.Confiner) (*bgShell, error) {
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	if closed {
		return nil, errShellsClosed
	}
	g, err := proc.StartConfined(shell, command, dir, env, sb)
	if err != nil {
		return nil, err
	}
	s := &bgShell{command: command, pgid: g.Pgid, out: capture.NewStream(streamSize), drained: make(chan struct{}), group: g}
	go func() {
		io.Copy(s.out, g.Out)
		g.Out.Close()
		close(s.drained)
	}()
	if err := t.add(s); err != nil {
		proc.Terminate(g.Pgid, 0)
		return nil, err
	}
	return s, nil
}

// adopt records the group of a foreground command whose leader exited while
// children it started still run, so that KillShell and forge's exit can end
// them. The caller sends the rest of their output to the returned shell's
// out and closes drained when that output ends.
func (t *shellTable) adopt(command string, pgid int, exit proc.Exit, drained chan struct{}) (*bgShell, error) {
	s := &bgShell{command: command, pgid: pgid, out: capture.NewStream(streamSize), drained: drained, exit: exit}
	if err := t.add(s); err != nil {
		return nil, err
	}
	return s, nil
}

// prune forgets the oldest ended commands while the table is full. Running
// commands are never forgotten: they must still be ended on Close.
func (t *shellTable) prune() {
	all := t.list()
	excess := len(all) - (maxShells - 1)
	for _, s := range all {
		if excess <= 0 {
			return
		}
		if st, _ := s.status(); st != shellRunning {
			t.mu.Lock()
			delete(t.shells, s.id)
			t.mu.Unlock()
			excess--
		}
	}
}

// get returns the shell of that id.
func (t *shellTable) get(id string) (*bgShell, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.shells[strings.TrimSpace(id)]
	return s, ok
}

// list returns every shell, in the order they were started.
func (t *shellTable) list() []*bgShell {
	t.mu.Lock()
	out := make([]*bgShell, 0, len(t.shells))
	for _, s := range t.shells {
		out = append(out, s)
	}
	t.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return idNum(out[i].id) < idNum(out[j].id) })
	return out
}

func idNum(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "bash_"))
	return n
}

// unknown is the message for an id that is not in the table; it lists the
// shells there are, which is also how a caller finds them.
func (t *shellTable) unknown(id string) string {
	all := t.list()
	if len(all) == 0 {
		return fmt.Sprintf("No background shell with id %q. There are no background shells: start one with Bash and run_in_background=true.", id)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "No background shell with id %q. Known shells:", id)
	for _, s := range all {
		b.WriteString("\n  " + s.describe())
	}
	return b.String()
}

// kill ends s's process group and marks it killed. It reports false when
// the command had already ended.
func (t *shellTable) kill(s *bgShell) (bool, error) {
	if st, _ := s.status(); st != shellRunning {
		return false, nil
	}
	s.mu.Lock()
	s.killed = true
	s.mu.Unlock()
	if err := proc.Terminate(s.pgid, t.killGrace()); err != nil {
		return true, err
	}
	if s.group != nil {
		select {
		case <-s.group.Done():
		case <-time.After(2 * time.Second):
		}
	}
	return true, nil
}

// Close ends every background command still running and refuses new ones.
// It is safe to call more than once.
func (t *shellTable) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.mu.Unlock()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, s := range t.list() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := t.kill(s); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("end %s: %w", s.id, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// busy says a background command of the registry is running, or was left
// running by a foreground one (adopted). A nil holder has none.
func (h *shellHolder) busy() bool {
	if h == nil {
		return false
	}
	t := h.table()
	t.mu.Lock()
	shells := make([]*bgShell, 0, len(t.shells))
	for _, s := range t.shells {
		shells = append(shells, s)
	}
	t.mu.Unlock()
	for _, s := range shells {
		if st, _ := s.status(); st == shellRunning {
			return true
		}
	}
	return false
}

//go:build unix

package builtin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// hangDeadline is how long a call that must return at once may take before
// it counts as hung: generous, so that a loaded machine cannot trip it,
// while a real hang (which lasts forever) is still caught.
const hangDeadline = 20 * time.Second

// returnsPromptly runs call and fails the test if it has not returned within
// hangDeadline.
func returnsPromptly(t *testing.T, what string, call func() tools.Result) tools.Result {
	t.Helper()
	done := make(chan tools.Result, 1)
	go func() { done <- call() }()
	select {
	case r := <-done:
		return r
	case <-time.After(hangDeadline):
		t.Fatalf("%s did not return within %v: it hangs", what, hangDeadline)
		return tools.Result{}
	}
}

// mkfifo makes a named pipe at path and, when the test ends, opens its write
// end once, so that a reader the code under test left blocked in open(2)
// wakes up instead of leaking.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { releaseFIFO(path) })
}

// releaseFIFO opens the write end of the FIFO at path without blocking and
// closes it, which ends the wait of any reader stuck on it.
func releaseFIFO(path string) {
	for range 3 {
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	}
}

// listTree returns every path under dir, relative to it.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dirSwapper turns the directory sub into a symbolic link to outside and
// back, as fast as it can, until stopped: the race a hostile command plays
// against the writers. It never removes what a writer put inside the
// working directory; a directory a writer recreates in the moment sub is
// missing is moved aside.
type dirSwapper struct {
	sub, aside, outside string
	stop                chan struct{}
	started             chan struct{} // closed after the first swap
	done                chan error
	swaps               atomic.Int64
	strays              int
}

func startSwapper(wd, outside string) *dirSwapper {
	s := &dirSwapper{sub: filepath.Join(wd, "sub"), aside: filepath.Join(wd, "sub.aside"), outside: outside,
		stop: make(chan struct{}), started: make(chan struct{}), done: make(chan error, 1)}
	go func() { s.done <- s.run() }()
	return s
}

func (s *dirSwapper) run() error {
	for {
		if err := os.Rename(s.sub, s.aside); err != nil {
			return err
		}
		if err := s.place(func() error { return os.Symlink(s.outside, s.sub) }); err != nil {
			return err
		}
		if s.swaps.Add(1) == 1 {
			close(s.started)
		}
		if err := os.Remove(s.sub); err != nil {
			return err
		}
		if err := s.place(func() error { return os.Rename(s.aside, s.sub) }); err != nil {
			return err
		}
		select {
		case <-s.stop:
			return nil
		default:
		}
	}
}

// place puts something at sub with put, first moving aside a directory a
// writer created there while sub was missing.
func (s *dirSwapper) place(put func() error) error {
	for {
		err := put()
		if err == nil || (!errors.Is(err, os.ErrExist) && !errors.Is(err, syscall.ENOTEMPTY)) {
			return err
		}
		s.strays++
		if err := os.Rename(s.sub, fmt.Sprintf("%s.stray%d", s.sub, s.strays)); err != nil {
			return err
		}
	}
}

// halt stops the swapper and leaves sub a directory.
func (s *dirSwapper) halt(t *testing.T) {
	t.Helper()
	close(s.stop)
	if err := <-s.done; err != nil {
		t.Fatalf("swapper: %v", err)
	}
}

const raceNotebook = `{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["old"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
`

// TestWritesStayInsideWhileADirectoryIsSwapped runs thousands of Write,
// Edit and NotebookEdit calls into sub/ while another goroutine swaps sub
// for a symbolic link to a directory outside and back. Whatever the timing,
// nothing may land outside: every call either writes inside or is refused.
// One goroutine writes, so that on two cores the swapper runs beside it
// rather than waiting for the scheduler.
func TestWritesStayInsideWhileADirectoryIsSwapped(t *testing.T) {
	wd, outside := realTempDir(t), realTempDir(t)
	writeFiles(t, wd, map[string]string{"sub/nb.ipynb": raceNotebook})
	writeFiles(t, outside, map[string]string{"nb.ipynb": raceNotebook})
	calls := 3000
	if raceEnabled {
		calls = 1500
	}
	write, edit, nb := buildTool(t, newWrite(nil), nil), buildTool(t, newEdit(nil), nil), buildTool(t, newNotebookEdit, nil)
	ec := tools.NewExecutionContext(wd)
	sw := startSwapper(wd, outside)
	select {
	case <-sw.started:
	case err := <-sw.done:
		t.Fatalf("swapper: %v", err)
	}
	ok := 0
	for i := range calls {
		var r tools.Result
		switch i % 5 {
		case 0:
			r = edit.Execute(t.Context(), ec, tools.Args{"file_path": fmt.Sprintf("sub/e%d.txt", i), "old_string": "", "new_string": "x"})
		case 1:
			r = nb.Execute(t.Context(), ec, tools.Args{"notebook_path": "sub/nb.ipynb", "cell_id": "a", "new_source": fmt.Sprint("new ", i)})
		default:
			r = write.Execute(t.Context(), ec, tools.Args{"file_path": fmt.Sprintf("sub/w%d.txt", i), "content": "x"})
		}
		if r.Success {
			ok++
		}
	}
	sw.halt(t)

	if got := listTree(t, outside); len(got) != 1 || got[0] != "nb.ipynb" {
		t.Errorf("after %d swaps and %d successful calls, files landed outside: %v", sw.swaps.Load(), ok, got)
	}
	if got := mustRead(t, filepath.Join(outside, "nb.ipynb")); got != raceNotebook {
		t.Errorf("the notebook outside was edited:\n%s", got)
	}
	for _, p := range listTree(t, wd) {
		if strings.Contains(p, ".forge-") {
			t.Errorf("temporary file left behind: %s", p)
		}
	}
	t.Logf("%d swaps, %d of %d calls succeeded", sw.swaps.Load(), ok, calls)
}

// TestReadAndGrepRefuseWhatIsNotAFile names FIFOs, devices and links to them
// directly: each call must fail at once with a message that says what the
// path is, never block waiting for a writer or read forever.
func TestReadAndGrepRefuseWhatIsNotAFile(t *testing.T) {
	dir := realTempDir(t)
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	if err := os.Symlink(fifo, filepath.Join(dir, "fifo-link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, path, want string
	}{
		{"Read", fifo, "named pipe (FIFO)"},
		{"Read", filepath.Join(dir, "fifo-link"), "named pipe (FIFO)"},
		{"Read", "/dev/zero", "Cannot read /dev/zero: it is a device file"},
		{"Grep", fifo, "named pipe (FIFO)"},
		{"Grep", filepath.Join(dir, "fifo-link"), "named pipe (FIFO)"},
		{"Grep", "/dev/zero", "Cannot search /dev/zero: it is a device file"},
	}
	for _, tc := range tests {
		t.Run(tc.tool+" "+filepath.Base(tc.path), func(t *testing.T) {
			args := tools.Args{"file_path": tc.path}
			if tc.tool == "Grep" {
				args = tools.Args{"pattern": "x", "path": tc.path}
			}
			r := returnsPromptly(t, tc.tool+" "+tc.path, func() tools.Result { return execFile(t, dir, tc.tool, args) })
			wantFail(t, r, tc.want)
		})
	}
}

// TestReadRefusesAStreamThatWaits reads /proc/kmsg, a file by its mode whose
// reads wait for the next kernel message: Read must fail at once. Only root
// may open it, so elsewhere the test is skipped.
func TestReadRefusesAStreamThatWaits(t *testing.T) {
	f, err := os.Open("/proc/kmsg")
	if err != nil {
		t.Skipf("cannot open /proc/kmsg here: %v", err)
	}
	_ = f.Close()
	r := returnsPromptly(t, "Read /proc/kmsg", func() tools.Result {
		return execFile(t, t.TempDir(), "Read", tools.Args{"file_path": "/proc/kmsg"})
	})
	wantFail(t, r, "Cannot read /proc/kmsg")
	t.Log(r.Error)
}

// TestSearchesSkipFIFOsInATree walks a repository whose .gitignore files and
// one source file are FIFOs: Grep and Glob must finish, Grep skipping the
// FIFOs silently.
func TestSearchesSkipFIFOsInATree(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a.txt": "needle\n", "sub/b.txt": "needle\n"})
	for _, p := range []string{".gitignore", "sub/.gitignore", "c.txt"} {
		mkfifo(t, filepath.Join(dir, p))
	}
	r := returnsPromptly(t, "Grep", func() tools.Result {
		return execFile(t, dir, "Grep", tools.Args{"pattern": "needle", "path": dir})
	})
	if got, want := wantOK(t, r), filepath.Join(dir, "a.txt")+"\n"+filepath.Join(dir, "sub/b.txt"); got != want {
		t.Errorf("Grep found\n%s\nwant\n%s", got, want)
	}
	r = returnsPromptly(t, "Glob", func() tools.Result {
		return execFile(t, dir, "Glob", tools.Args{"pattern": "**/*.txt", "path": dir})
	})
	if got := wantOK(t, r); strings.Count(got, "\n") != 2 {
		t.Errorf("Glob listed\n%s\nwant a.txt, c.txt and sub/b.txt", got)
	}
}

// fileSwapper makes path a regular file and a FIFO in turn, each swap one
// atomic rename, until stopped: the race between a look at what path is and
// opening it.
func fileSwapper(t *testing.T, dir, path string) (stop func()) {
	t.Helper()
	file, fifo := filepath.Join(dir, "swap.file"), filepath.Join(dir, "swap.fifo")
	writeFiles(t, dir, map[string]string{"swap.file": "needle\n"})
	mkfifo(t, fifo)
	t.Cleanup(func() { releaseFIFO(path) })
	quit, done := make(chan struct{}), make(chan error, 1)
	go func() {
		tmp := path + ".next"
		for i := 0; ; i++ {
			select {
			case <-quit:
				done <- nil
				return
			default:
			}
			src := file
			if i%2 == 1 {
				src = fifo
			}
			if err := os.Link(src, tmp); err != nil {
				done <- err
				return
			}
			if err := os.Rename(tmp, path); err != nil {
				done <- err
				return
			}
		}
	}()
	return func() {
		close(quit)
		if err := <-done; err != nil {
			t.Errorf("swapper: %v", err)
		}
	}
}

// TestReadsNeverBlockWhileAFileIsSwappedForAFIFO calls Read and Grep over
// and over on a path that turns from a file into a FIFO and back: a call
// that looked at a file and then opened the FIFO would wait forever for a
// writer. Every call must return, having read the file or refused the FIFO.
func TestReadsNeverBlockWhileAFileIsSwappedForAFIFO(t *testing.T) {
	dir := realTempDir(t)
	target := filepath.Join(dir, "tree", "x.txt")
	if err := os.Mkdir(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	stop := fileSwapper(t, dir, target)
	defer stop()
	read, grep := buildTool(t, newRead(nil), nil), buildTool(t, newGrep, nil)
	ec := tools.NewExecutionContext(dir)
	calls := 600
	if raceEnabled {
		calls = 300
	}
	deadline := time.Now().Add(2 * hangDeadline)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range calls {
			switch i % 3 {
			case 0:
				read.Execute(t.Context(), ec, tools.Args{"file_path": target})
			case 1:
				grep.Execute(t.Context(), ec, tools.Args{"pattern": "needle", "path": target})
			default:
				grep.Execute(t.Context(), ec, tools.Args{"pattern": "needle", "path": filepath.Dir(target)})
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Until(deadline)):
		t.Fatal("a read blocked on the FIFO swapped in for the file")
	}
}

// TestConfinedReads checks the read policy: with ConfineReads, Read, Grep
// and Glob stay inside the working directory and the allowed roots, links
// resolved; without it they read anywhere.
func TestConfinedReads(t *testing.T) {
	wd, outside, extra := realTempDir(t), realTempDir(t), realTempDir(t)
	writeFiles(t, wd, map[string]string{"in.txt": "needle\n", "d/in2.txt": "needle\n"})
	writeFiles(t, outside, map[string]string{"secret.txt": "needle\n"})
	writeFiles(t, extra, map[string]string{"x.txt": "needle\n"})
	for link, to := range map[string]string{"link-out": filepath.Join(outside, "secret.txt"), "dir-out": outside, "link-in": "in.txt", "d/up": ".."} {
		if err := os.Symlink(to, filepath.Join(wd, link)); err != nil {
			t.Fatal(err)
		}
	}
	confined := tools.NewExecutionContext(wd)
	confined.ConfineReads = true
	confined.AllowedRoots = []string{extra}
	const refused = "is outside the working directory; reads are confined (read.allow_outside: false)"
	secret := filepath.Join(outside, "secret.txt")
	tests := []struct {
		name string
		tool string
		args tools.Args
		want string // "" for success
	}{
		{"read inside", "Read", tools.Args{"file_path": "in.txt"}, ""},
		{"read a link inside to inside", "Read", tools.Args{"file_path": "link-in"}, ""},
		{"read an allowed root", "Read", tools.Args{"file_path": filepath.Join(extra, "x.txt")}, ""},
		{"read outside", "Read", tools.Args{"file_path": secret}, secret + " " + refused},
		{"read dot-dot", "Read", tools.Args{"file_path": "../x"}, refused},
		{"read a link to a file outside", "Read", tools.Args{"file_path": "link-out"}, refused},
		{"read through a link to a directory outside", "Read", tools.Args{"file_path": "dir-out/secret.txt"}, refused},
		{"grep inside", "Grep", tools.Args{"pattern": "needle"}, ""},
		{"grep an allowed root", "Grep", tools.Args{"pattern": "needle", "path": extra}, ""},
		{"grep outside", "Grep", tools.Args{"pattern": "needle", "path": outside}, refused},
		{"grep a link to a file outside", "Grep", tools.Args{"pattern": "needle", "path": "link-out"}, refused},
		{"grep a link to a directory outside", "Grep", tools.Args{"pattern": "needle", "path": "dir-out"}, refused},
		{"grep through a link inside that climbs out", "Grep", tools.Args{"pattern": "needle", "path": "d/up/dir-out"}, refused},
		{"glob inside", "Glob", tools.Args{"pattern": "**/*.txt"}, ""},
		{"glob outside", "Glob", tools.Args{"pattern": "*.txt", "path": outside}, refused},
		{"glob an absolute pattern outside", "Glob", tools.Args{"pattern": outside + "/*.txt"}, refused},
		{"glob a link to a directory outside", "Glob", tools.Args{"pattern": "*", "path": "dir-out"}, refused},
	}
	ex := fileExecutor(t, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ex.Execute(t.Context(), tc.tool, confined, tc.args)
			if tc.want != "" {
				wantFail(t, r, tc.want)
				return
			}
			if out := wantOK(t, r); strings.Contains(out, "secret") {
				t.Errorf("a confined %s showed what is outside:\n%s", tc.tool, out)
			}
		})
	}
	dry := confined
	dry.DryRun = true
	for tool, args := range map[string]tools.Args{"Read": {"file_path": secret}, "Grep": {"pattern": "x", "path": outside}, "Glob": {"pattern": "*", "path": outside}} {
		if r := ex.Execute(t.Context(), tool, dry, args); !strings.Contains(r.Display(), "Would refuse: ") || !strings.Contains(r.Display(), refused) {
			t.Errorf("dry run of a confined %s outside: %q", tool, r.Display())
		}
	}
	// Unconfined, the default: reads go anywhere.
	open := tools.NewExecutionContext(wd)
	wantOK(t, ex.Execute(t.Context(), "Read", open, tools.Args{"file_path": secret}))
	wantOK(t, ex.Execute(t.Context(), "Grep", open, tools.Args{"pattern": "needle", "path": "dir-out"}))
	wantOK(t, ex.Execute(t.Context(), "Glob", open, tools.Args{"pattern": "*", "path": "dir-out"}))
}

// fileFlipper turns the file n.txt into a symbolic link to target and
// back to a regular file, as fast as it can, until stopped: the race a
// hostile background command plays against forge's reads and writes.
type fileFlipper struct {
	name, target string
	stop         chan struct{}
	done         chan error
	flips        atomic.Int64
}

func startFlipper(wd, target string) *fileFlipper {
	f := &fileFlipper{name: filepath.Join(wd, "n.txt"), target: target, stop: make(chan struct{}), done: make(chan error, 1)}
	go func() { f.done <- f.run() }()
	return f
}

func (f *fileFlipper) run() error {
	for {
		_ = os.Remove(f.name)
		if err := os.Symlink(f.target, f.name); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		f.flips.Add(1)
		_ = os.Remove(f.name)
		if err := os.WriteFile(f.name, []byte("hello world\n"), 0o644); err != nil {
			return err
		}
		select {
		case <-f.stop:
			return nil
		default:
		}
	}
}

func (f *fileFlipper) halt(t *testing.T) {
	t.Helper()
	close(f.stop)
	if err := <-f.done; err != nil {
		t.Fatalf("flipper: %v", err)
	}
}

// TestFileCallsNeverFollowAFlippedLinkOutside runs Read (confined to the
// working directory), Write and Edit on n.txt while another goroutine
// flips it between a regular file and a link to a file outside (a key to
// read, a shell profile to write). forge opens the file itself, beneath
// its root, once: whatever the timing, the key is never read and the
// profile never changes; a call reads or writes n.txt or is refused.
func TestFileCallsNeverFollowAFlippedLinkOutside(t *testing.T) {
	const secret = "PRIVATE KEY planted"
	const profile = "# the person's profile\n"
	for _, tc := range []struct {
		name, target string
		call         func(i int) (string, tools.Args)
	}{
		{"Read", "id_rsa", func(int) (string, tools.Args) { return "Read", tools.Args{"file_path": "n.txt"} }},
		{"Write", "bashrc", func(i int) (string, tools.Args) {
			return "Write", tools.Args{"file_path": "n.txt", "content": fmt.Sprint("pwned ", i, "\n")}
		}},
		{"Edit", "bashrc", func(i int) (string, tools.Args) {
			return "Edit", tools.Args{"file_path": "n.txt", "old_string": "", "new_string": fmt.Sprint("pwned ", i, "\n")}
		}},
		{"Edit of the text", "bashrc", func(i int) (string, tools.Args) {
			return "Edit", tools.Args{"file_path": "n.txt", "old_string": "the person's", "new_string": "pwned"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wd, outside := realTempDir(t), realTempDir(t)
			writeFiles(t, outside, map[string]string{"id_rsa": secret, "bashrc": profile})
			writeFiles(t, wd, map[string]string{"n.txt": "hello world\n"})
			ex := fileExecutor(t, nil)
			ec := tools.NewExecutionContext(wd)
			ec.ConfineReads = true
			calls := 2000
			if raceEnabled {
				calls = 800
			}
			fl := startFlipper(wd, filepath.Join(outside, tc.target))
			ok := 0
			for i := range calls {
				name, args := tc.call(i)
				r := ex.Execute(t.Context(), name, ec, args)
				if strings.Contains(r.Display(), "PRIVATE KEY") {
					fl.halt(t)
					t.Fatalf("call %d read the key outside: %s", i, r.Display())
				}
				if r.Success {
					ok++
				}
			}
			fl.halt(t)
			if got := mustRead(t, filepath.Join(outside, "bashrc")); got != profile {
				t.Errorf("the profile outside was written: %q", got)
			}
			t.Logf("%d flips, %d of %d calls succeeded", fl.flips.Load(), ok, calls)
		})
	}
}

//go:build unix

package proc

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

// fakeConfiner runs the command under a leader (sh) that reports the
// command's exit on the status pipe as report says, then lingers.
type fakeConfiner struct {
	report string // what the leader writes on fd 3; "" writes nothing
	linger string // seconds the leader stays after reporting
	err    error
}

func (f fakeConfiner) Wrap(cmd *exec.Cmd, status *os.File) (func(), error) {
	if f.err != nil {
		return nil, f.err
	}
	inner := cmd.Args
	script := `"$@"; code=$?; ` + f.report + `; exec 3>&-; sleep ` + f.linger
	cmd.Path = "/bin/sh"
	cmd.Args = append([]string{"sh", "-c", script, "leader"}, inner...)
	cmd.ExtraFiles = append(cmd.ExtraFiles, status)
	return func() {}, nil
}

func TestStartConfined(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c      fakeConfiner
		want   Exit
		before time.Duration // Done must come sooner than this
		after  time.Duration // and not sooner than this
	}{
		{"more: done at once, the leader stays", fakeConfiner{report: `echo "$code more " >&3`, linger: "2"}, Exit{Code: 3}, time.Second, 0},
		{"a signal's name", fakeConfiner{report: `echo "-1 more SIGKILL" >&3`, linger: "2"}, Exit{Code: -1, Signal: "SIGKILL"}, time.Second, 0},
		{"alone: done once the leader is gone", fakeConfiner{report: `echo "$code alone " >&3`, linger: "0.5"}, Exit{Code: 3},
			5 * time.Second, 400 * time.Millisecond},
		{"nothing reported: the leader's own exit", fakeConfiner{report: `true`, linger: "0; exit 7"}, Exit{Code: 7}, 5 * time.Second, 0},
		{"garbage reported", fakeConfiner{report: `echo "x y" >&3`, linger: "0; exit 5"}, Exit{Code: 5}, 5 * time.Second, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			g, err := StartConfined("/bin/sh", "exit 3", t.TempDir(), nil, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			defer Terminate(g.Pgid, 0)
			defer g.Out.Close()
			select {
			case <-g.Done():
			case <-time.After(tc.before):
				t.Fatalf("Done did not come within %s", tc.before)
			}
			if d := time.Since(start); d < tc.after {
				t.Errorf("Done after %s, before the leader exited", d)
			}
			if got := g.Exit(); got != tc.want {
				t.Errorf("Exit = %+v, want %+v", got, tc.want)
			}
		})
	}
	boom := errors.New("no namespaces here")
	if _, err := StartConfined("/bin/sh", "true", t.TempDir(), nil, fakeConfiner{err: boom}); !errors.Is(err, boom) {
		t.Errorf("a confiner's error: %v", err)
	}
}

func TestWriteExit(t *testing.T) {
	for _, tc := range []struct {
		e    Exit
		more bool
	}{{Exit{Code: 0}, false}, {Exit{Code: 2}, true}, {Exit{Code: -1, Signal: "SIGTERM"}, true}} {
		var b bytes.Buffer
		if err := WriteExit(&b, tc.e, tc.more); err != nil {
			t.Fatal(err)
		}
		e, more, ok := readExit(&b)
		if !ok || e != tc.e || more != tc.more {
			t.Errorf("%+v %v: read back %+v %v %v", tc.e, tc.more, e, more, ok)
		}
	}
}

// FuzzReadExit: what a sandbox's first process writes is read, or
// refused, without a crash; what WriteExit wrote reads back the same.
func FuzzReadExit(f *testing.F) {
	for _, s := range []string{"0 alone \n", "-1 more SIGKILL\n", "3 more\n", "x y z\n", "", "9999999999999999999999 alone \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, more, ok := readExit(bytes.NewBufferString(s))
		if !ok {
			return
		}
		var b bytes.Buffer
		WriteExit(&b, e, more)
		if e2, more2, ok2 := readExit(&b); !ok2 || e2 != e || more2 != more {
			t.Errorf("%q: %+v %v does not read back: %+v %v %v", s, e, more, e2, more2, ok2)
		}
	})
}

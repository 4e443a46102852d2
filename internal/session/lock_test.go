package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A session is written by one Log at a time: a second store (another
// forge, or the same one) that resumes or removes it while it is open is
// refused at once, naming the holder; once closed, it is free again.
func TestSessionInUse(t *testing.T) {
	for _, opened := range []string{"create", "resume"} {
		t.Run(opened, func(t *testing.T) {
			s, dir := newStore(t)
			l := create(t, s, "sess_1", "/src")
			if opened == "resume" {
				must(t, l.Close())
				var err error
				l, _, err = s.Resume("sess_1")
				must(t, err)
			}
			other := NewStore(dir, newClock().now)
			_, _, err := other.Resume("sess_1")
			var inUse *InUseError
			if !errors.As(err, &inUse) || !errors.Is(err, ErrInUse) {
				t.Fatalf("second resume: %v, want an InUseError", err)
			}
			want := fmt.Sprintf("session sess_1 is in use by %s (pid %d); wait for it to end or start a new session",
				filepath.Base(os.Args[0]), os.Getpid())
			if err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			if err := other.Remove("sess_1"); !errors.Is(err, ErrInUse) {
				t.Errorf("remove while in use: %v", err)
			}
			if _, err := other.Load("sess_1"); err != nil {
				t.Errorf("loading (reading only) is refused: %v", err)
			}
			must(t, l.Append(say("still mine")))
			must(t, l.Close())

			l2, st, err := other.Resume("sess_1")
			must(t, err)
			if n := len(st.Messages); n != 1 || st.Messages[0].Text != "still mine" {
				t.Errorf("resumed %d messages: %+v", n, st.Messages)
			}
			must(t, l2.Close())
			must(t, other.Remove("sess_1"))
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("remove left %v", entries)
			}
		})
	}
}

// A lock file left by a forge that died (or damaged) holds nothing: the
// kernel released its lock with the process, so the session resumes, and
// the file then names the new holder.
func TestStaleLockFile(t *testing.T) {
	for _, content := range []string{"999999 forge\n", "", "garbage", "12 \x1b[31mred\n"} {
		t.Run(fmt.Sprintf("%q", content), func(t *testing.T) {
			s, dir := newStore(t)
			must(t, create(t, s, "sess_1", "/src").Close())
			must(t, os.WriteFile(lockPath(dir, "sess_1"), []byte(content), 0o600))
			l, _, err := s.Resume("sess_1")
			must(t, err)
			defer l.Close()
			b, err := os.ReadFile(lockPath(dir, "sess_1"))
			must(t, err)
			if want := fmt.Sprintf("%d %s\n", os.Getpid(), filepath.Base(os.Args[0])); string(b) != want {
				t.Errorf("lock file %q, want %q", b, want)
			}
		})
	}
}

// What a lock file says of its holder reaches a message only as a pid
// and one printable word.
func TestLockHolderMessage(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"1234 forge\n", "in use by forge (pid 1234)"},
		{"1234 forge ask -r x\n", "in use by forge (pid 1234)"},
		{"1234 \x1b]0;evil\x07\n", "in use by forge (pid 1234)"},
		{"", "in use by another forge"},
		{"-3 forge", "in use by another forge"},
		{"x forge", "in use by another forge"},
	} {
		t.Run(fmt.Sprintf("%q", tc.content), func(t *testing.T) {
			s, dir := newStore(t)
			l := create(t, s, "sess_1", "/src")
			defer l.Close()
			// The holder's line as another forge might have left it.
			must(t, os.WriteFile(lockPath(dir, "sess_1"), []byte(tc.content), 0o600))
			_, _, err := NewStore(dir, newClock().now).Resume("sess_1")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
}

// An id taken already is still fs.ErrExist while its session is in use,
// so that a new conversation picks another id.
func TestCreateTakenWhileInUse(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src")
	defer l.Close()
	if _, err := s.Create(Meta{ID: "sess_1"}); !errors.Is(err, os.ErrExist) {
		t.Errorf("create of a session in use: %v", err)
	}
}

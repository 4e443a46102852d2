//go:build unix

package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRegularRefusesWhatIsNotAFile opens FIFOs (which block an open
// until a writer comes), links to them, devices and directories, both by
// path and through a root: each must be refused at once, saying what it is.
func TestOpenRegularRefusesWhatIsNotAFile(t *testing.T) {
	dir := realDir(t)
	fifo := filepath.Join(dir, "fifo")
	must(t, syscall.Mkfifo(fifo, 0o644))
	t.Cleanup(func() { // wake a reader left blocked, should the test fail
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	})
	must(t, os.Symlink("fifo", filepath.Join(dir, "fifo-link")))
	confined, err := ReadTarget(dir, nil, ".", true)
	if err != nil {
		t.Fatal(err)
	}
	defer confined.Close()
	tests := []struct {
		target *Target
		rel    string
		kind   string
	}{
		{HostTarget(fifo), "", "named pipe (FIFO)"},
		{HostTarget(filepath.Join(dir, "fifo-link")), "", "named pipe (FIFO)"},
		{HostTarget("/dev/zero"), "", "device file"},
		{HostTarget(dir), "", "directory"},
		{confined, "fifo", "named pipe (FIFO)"},
		{confined, "fifo-link", "named pipe (FIFO)"},
		{confined, "", "directory"},
	}
	for _, tc := range tests {
		done := make(chan error, 1)
		go func() {
			f, err := tc.target.OpenRegular(tc.rel)
			if err == nil {
				_ = f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.Kind() != tc.kind {
				t.Errorf("%s %q: %v, want a %s refused", tc.target.Path, tc.rel, err, tc.kind)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s %q: the open hangs", tc.target.Path, tc.rel)
		}
	}
}

// TestReadsNeverWait reads a pipe with nothing in it, as a stream dressed
// as a regular file (/proc/kmsg) would be read: the read must fail with
// ErrWouldBlock at once, not wait for data.
func TestReadsNeverWait(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	read := noWaitReader(r).Read
	done := make(chan error, 1)
	go func() {
		_, err := read(make([]byte, 16))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrWouldBlock) {
			t.Errorf("read of an empty pipe: %v, want ErrWouldBlock", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the read waits for data")
	}
	if _, err := w.Write([]byte("data")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := read(buf); err != nil || string(buf[:n]) != "data" {
		t.Errorf("read %q, %v", buf[:n], err)
	}
	must(t, w.Close())
	if _, err := read(buf); !errors.Is(err, io.EOF) {
		t.Errorf("read at the end: %v, want EOF", err)
	}
}

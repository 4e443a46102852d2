package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrWouldBlock is the error of a read that would wait for data: the file
// is a stream dressed as a regular file (/proc/kmsg waits for the next
// kernel message), which a tool must not hang on.
var ErrWouldBlock = errors.New("reading it waits for data that may never come")

// NotRegularError says that a path a tool was to read is not a regular
// file: a directory, or something whose reads could block or never end.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

// Kind names what the path is: "directory", "named pipe (FIFO)", ...
func (e *NotRegularError) Kind() string { return KindOf(e.Mode) }

// KindOf names the kind of file of mode m: "regular file", "directory",
// "named pipe (FIFO)", "device file", ...
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	if k := SpecialFile(m); k != "" {
		return k
	}
	return "irregular file"
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is a %s, not a regular file", e.Path, e.Kind())
}

// IsDir reports whether the path is a directory.
func (e *NotRegularError) IsDir() bool { return e.Mode.IsDir() }

// File is a regular file open for reading. Its reads never wait: one that
// would fails with ErrWouldBlock.
type File struct {
	f    *os.File
	info fs.FileInfo
	r    io.Reader
}

// OpenRegular opens rel below the target (slash-separated, "" for the
// target itself) for reading, and refuses at once, with a
// *NotRegularError, anything that is not a regular file: a FIFO without a
// writer would block the open, a device could never end. It looks before
// opening, opens without waiting, and looks again at what it opened, in
// case a FIFO was put in the file's place in between.
func (t *Target) OpenRegular(rel string) (*File, error) {
	fi, err := t.Stat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: t.HostPath(rel), Mode: fi.Mode()}
	}
	f, err := t.openFile(rel, readFlags, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil {
		_ = f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		_ = f.Close()
		return nil, &NotRegularError{Path: t.HostPath(rel), Mode: fi.Mode()}
	}
	file := &File{f: f, info: fi, r: noWaitReader(f)}
	if rel == "" && t.judged != nil && !file.isAt(t.judged) {
		_ = f.Close()
		return nil, ErrChanged
	}
	return file, nil
}

// Info describes the file as it was opened.
func (f *File) Info() fs.FileInfo { return f.info }

// Read reads from the file; see File.
func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// ReadAll reads the rest of the file, at most limit bytes: ok is false when
// there is more (the file grew past what it was checked to hold).
func (f *File) ReadAll(limit int64) (data []byte, ok bool, err error) {
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return nil, false, nil
	}
	return data, true, nil
}

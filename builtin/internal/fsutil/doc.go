// Package fsutil holds what the built-in file tools share: resolving and
// checking paths (resolve.go), writing files atomically (atomic.go), telling
// text from binary (binary.go), and walking a tree the way ripgrep does,
// honouring .gitignore files and skipping .git and hidden entries (walk.go,
// gitignore.go).
//
// Policy: readers (Read, Glob, Grep) may read anywhere the process can, but
// never device files, FIFOs or sockets, which could block or never end.
// Writers (Write, Edit, NotebookEdit) may only write inside the working directory or one of
// the allowed roots, judged after every symbolic link has been resolved, so a
// link cannot smuggle a write outside them.
package fsutil

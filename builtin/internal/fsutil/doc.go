// Package fsutil holds what the built-in file tools share: resolving and
// checking paths (resolve.go), reaching them safely (target.go), opening
// files for reading without ever waiting (open.go), writing files
// atomically (atomic.go), telling text from binary (binary.go), and walking
// a tree the way ripgrep does, honouring .gitignore files and skipping .git
// and hidden entries (walk.go, gitignore.go).
//
// Policy: writers (Write, Edit, NotebookEdit) may only write inside the
// working directory or one of the allowed roots, judged after every
// symbolic link has been resolved, and they reach the file through an
// os.Root opened on that root, so that neither a link nor a directory
// swapped for one while they work can take a write outside. Readers (Read,
// Glob, Grep) may read anywhere the process can unless reads are confined,
// in which case they are held to the same roots in the same way. Either
// way they read only regular files, never devices, FIFOs, sockets or
// streams such as /proc/kmsg, which could block or never end.
package fsutil

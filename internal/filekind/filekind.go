// Package filekind tells what a file is beyond its mode: whether it has
// other names. Files forge reads as instructions or commands from a
// project must be the project's own, and a hard link made inside it to a
// file outside (~/.ssh/id_rsa) is a regular file inside it by every other
// test.
package filekind

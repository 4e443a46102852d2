package fsutil

import (
	"bytes"
	"unicode/utf8"
)

// SniffLen is how much of a file's start is inspected to tell text from
// binary: what git and ripgrep look at, give or take.
const SniffLen = 8 << 10

// HasNUL reports whether b holds a NUL byte: ripgrep's (and git's) test for
// a binary file, which Grep follows so that its file set matches ripgrep's.
func HasNUL(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }

// LooksBinary reports whether head, the first bytes of a file, look binary:
// a NUL byte or invalid UTF-8. truncated says head was cut short of the file's
// end, so an incomplete rune at its very end is not held against it. Read and
// Edit use this stricter test: showing invalid UTF-8 to a model only garbles
// it.
func LooksBinary(head []byte, truncated bool) bool {
	if HasNUL(head) {
		return true
	}
	if utf8.Valid(head) {
		return false
	}
	if !truncated {
		return true
	}
	// Drop at most utf8.UTFMax-1 trailing bytes that may start a rune cut off
	// by the sniff window.
	for i := 1; i < utf8.UTFMax && i <= len(head); i++ {
		if utf8.RuneStart(head[len(head)-i]) {
			if !utf8.FullRune(head[len(head)-i:]) {
				return !utf8.Valid(head[:len(head)-i])
			}
			break
		}
	}
	return true
}

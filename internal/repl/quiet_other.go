//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package repl

// quietInput leaves the terminal as it is where forge does not know its
// modes: what is typed while a line runs is echoed, and still kept.
func quietInput(int) (restore func(), err error) { return func() {}, nil }

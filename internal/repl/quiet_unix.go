//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package repl

import "golang.org/x/sys/unix"

// quietInput sets the terminal fd so that what is typed while a line
// runs is neither echoed (it would land in the middle of the model's
// answer, escape sequences as ^[[Z) nor held back until Enter, while
// Ctrl-C still cancels the line (ISIG stays on). Enter arrives as a
// carriage return, as the line editor takes it. restore puts back the
// terminal as it was.
func quietInput(fd int) (restore func(), err error) {
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return func() {}, err
	}
	t := *old
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.IEXTEN
	t.Iflag &^= unix.ICRNL | unix.INLCR | unix.IGNCR
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &t); err != nil {
		return func() {}, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, old) }, nil
}

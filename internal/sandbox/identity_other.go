//go:build !unix

package sandbox

import "errors"

// fileIdentity is not known where there is no sandbox.
func fileIdentity(string) (dev, ino uint64, err error) {
	return 0, 0, errors.ErrUnsupported
}

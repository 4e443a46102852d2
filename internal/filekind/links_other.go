//go:build !unix

package filekind

import "io/fs"

// HardLinked reports false: the link count is not at hand here.
func HardLinked(fs.FileInfo) bool { return false }

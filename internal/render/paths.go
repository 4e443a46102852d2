package render

import (
	"path/filepath"
	"strings"
)

// RelPaths are paths as a person or a script in wd reads them: relative
// to wd when inside it (wd's links resolved, as the paths' are), else as
// they are.
func RelPaths(wd string, paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if wd == "" {
			continue
		}
		if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			out[i] = rel
		}
	}
	return out
}

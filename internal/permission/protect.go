package permission

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// forgeDirName is the project's settings directory. An edit anywhere under
// a directory of this name changes what forge itself may do (settings,
// hooks, commands, agents), so it is always put to the person.
const forgeDirName = ".forge"

// protectedEdit says c edits a path that must never be edited unasked
// (under a .forge directory, or under one of the protected directories such
// as the person's own forge configuration). An
// agent allowed to edit files must not use that to give itself more: yolo
// in the project file, a hook that runs whatever it likes.
func (p *Policy) protectedEdit(c Call, s *subjects) bool {
	if !c.EditsFiles {
		return false
	}
	for _, ps := range s.paths {
		for _, f := range slices.Concat(ps.lexical, ps.physical) {
			if hasComponent(f, forgeDirName) {
				return true
			}
			for _, d := range p.protected {
				if within(f, d.lexical) || within(f, d.physical) {
					return true
				}
			}
		}
	}
	return false
}

// hasComponent reports whether one of the elements of path is name, in
// any case: on a case-insensitive disk .FORGE is the same directory.
func hasComponent(path, name string) bool {
	return slices.ContainsFunc(strings.Split(filepath.ToSlash(path), "/"), func(e string) bool {
		return strings.EqualFold(e, name)
	})
}

// forgeInLine finds a .forge path, or forge trust, in a shell line.
var forgeInLine = regexp.MustCompile(`(?i)(^|[\s/'"=<>:;&|({,` + "`" + `])\.forge([/\s'"<>;&|)},` + "`" + `]|$)|(^|[\s;&|(/'"])forge['"]?\s+(-\S+\s+(\S+\s+)?)*trust\b`)

// protectedCommand says the shell line c runs names forge's own settings
// (a .forge path, a protected directory) or trusts a project: a shell
// cannot be followed into every write, so the line itself is judged, and
// such a line is always put to the person, yolo or not.
func (p *Policy) protectedCommand(c Call) bool {
	line, ok := c.Args["command"].(string)
	if !ok || c.ReadOnly {
		return false
	}
	if forgeInLine.MatchString(line) {
		return true
	}
	for _, d := range p.protected {
		for _, form := range p.spellings(d) {
			if mentions(line, form) {
				return true
			}
		}
	}
	return false
}

// spellings are the ways a shell line may name the protected place d: as
// it is, from the home directory (~/, $HOME/, ${HOME}/), and relative to
// the working directory.
func (p *Policy) spellings(d place) []string {
	forms := []string{d.lexical, d.physical}
	for _, abs := range []string{d.lexical, d.physical} {
		if p.home != "" && within(abs, p.home) && abs != p.home {
			rel := strings.TrimPrefix(abs, p.home+string(filepath.Separator))
			forms = append(forms, "~/"+rel, "$HOME/"+rel, "${HOME}/"+rel)
		}
		for _, base := range []string{p.wd.lexical, p.wd.physical} {
			if within(abs, base) && abs != base {
				forms = append(forms, strings.TrimPrefix(abs, base+string(filepath.Separator)))
			}
		}
	}
	return forms
}

// mentions reports whether line names path as a whole path: not as the
// start of a longer name (/bin/sh in /bin/sha256sum).
func mentions(line, path string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], path)
		if j < 0 {
			return false
		}
		end := i + j + len(path)
		if end == len(line) || strings.ContainsRune(" \t\n'\";&|)<>/", rune(line[end])) {
			return true
		}
		i = i + j + 1
	}
}

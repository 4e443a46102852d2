package permission

import (
	"path"
	"path/filepath"
	"strings"
)

// A shell line that names a directory holding a credential place (~, /,
// $HOME, .. from a project in the home directory) lets a program that
// reads directories whole read the credentials: grep -r, rg, find -exec,
// cp -r, tar, zip, rsync. Which programs recurse, and with which options,
// cannot be told reliably from the line (find -exec, xargs, a script), so
// such a line asks unless every program in it only lists names or moves
// about (ls without -R, cd, du, stat...). The project directory is not
// normally above ~/.ssh, so daily lines over it are not touched.

// heldCredential returns the credential place that the path form f is a
// directory above, if that place exists (a home without ~/.ssh holds no
// key). The Read, Grep and Glob tools ask on the same test.
func (p *Policy) heldCredential(f string) (string, bool) {
	for _, pl := range p.creds.places {
		for _, loc := range []string{pl.lexical, pl.physical} {
			if loc != "" && within(loc, f) && exists(loc) {
				return loc, true
			}
		}
	}
	return "", false
}

// holdsCredential reports, for the path word r, the credential place it is
// a directory above; sure is false when r is a glob that only could be
// such a directory.
func (p *Policy) holdsCredential(r pathRef) (held string, found, sure bool) {
	if len(p.creds.places) == 0 || r.option {
		return "", false, false
	}
	if !strings.ContainsAny(r.pattern, "*?[\\\x00") {
		if held, ok := p.heldCredential(r.pattern); ok {
			return held, true, true
		}
		if phys, ok := p.physicalOf(r); ok {
			held, ok := p.heldCredential(phys)
			return held, ok, ok
		}
		return "", false, false
	}
	items := parseGlob(r.pattern)
	for _, pl := range p.creds.places {
		for _, loc := range []string{pl.lexical, pl.physical} {
			if loc == "" || !exists(loc) {
				continue
			}
			for dir := filepath.Dir(loc); ; dir = filepath.Dir(dir) {
				if couldBe(items, dir) { // dots and case aside: it errs toward asking
					return loc, true, false
				}
				if dir == filepath.Dir(dir) {
					break
				}
			}
		}
	}
	return "", false, false
}

// namesOnly lists the programs that, given a directory, read no file's
// content below it: they list names, print sizes or metadata, or change
// directory.
var namesOnly = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "pwd": true, "du": true, "df": true, "stat": true,
	"test": true, "[": true, "mkdir": true, "echo": true, "printf": true, "realpath": true,
	"readlink": true, "dirname": true, "basename": true, "true": true, "false": true, "ls": true,
}

// listsNamesOnly reports whether every command of the line is one that
// reads no file's content below a directory it is given; ls only without
// -R, which is still only names but a whole tree of them.
func listsNamesOnly(l *shellLine) bool {
	for i := range l.commands {
		c := &l.commands[i]
		if len(c.words) == 0 {
			continue
		}
		w := c.words[0]
		if !w.literal() || !namesOnly[path.Base(w.allow)] {
			return false
		}
		if path.Base(w.allow) == "ls" && listsRecursively(c.words[1:]) {
			return false
		}
	}
	return true
}

// listsRecursively reports whether ls's words ask for a recursive listing.
func listsRecursively(args []word) bool {
	for _, a := range args {
		switch {
		case a.dynamic && a.splits:
			return true // $X may be -R
		case a.allow == "--":
			return false
		case a.allow == "--recursive":
			return true
		case strings.HasPrefix(a.allow, "-") && !strings.HasPrefix(a.allow, "--") && strings.Contains(a.allow, "R"):
			return true
		}
	}
	return false
}

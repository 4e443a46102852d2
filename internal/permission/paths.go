package permission

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
)

// maxLinks bounds the symbolic links followed in one path, as the kernel does.
const maxLinks = 40

// place is a directory in both its forms: as written (cleaned) and with
// every symbolic link resolved.
type place struct{ lexical, physical string }

// newPlace resolves dir, which is absolute.
func newPlace(dir string) place {
	lex := filepath.Clean(dir)
	phys, err := resolvePhysical(lex)
	if err != nil {
		phys = lex
	}
	return place{lexical: lex, physical: phys}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || strings.HasSuffix(dir, string(filepath.Separator)) || p[len(dir)] == filepath.Separator
}

// resolvePhysical returns the absolute path p with every symbolic link
// resolved, as the kernel would follow it: a .. after a link leaves the
// link's target. Components that do not exist are kept as written, so a
// file about to be created resolves too, and so does a dangling link
// (writing through it creates its target). filepath.EvalSymlinks would
// fail on both.
func resolvePhysical(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%q is not absolute", p)
	}
	vol := filepath.VolumeName(p)
	return resolveFrom(vol+string(filepath.Separator), p[len(vol):])
}

// resolveFrom resolves the relative path rest from cur, a directory whose
// links are resolved already, as resolvePhysical does.
func resolveFrom(cur, rest string) (string, error) {
	parts := splitPath(rest)
	missing := false // below a name that does not exist nothing does
	for links := 0; len(parts) > 0; {
		part := parts[0]
		parts = parts[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		if missing {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			cur, missing = next, true
			continue
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%s: too many levels of symbolic links", filepath.Join(cur, rest))
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			tvol := filepath.VolumeName(target)
			cur = tvol + string(filepath.Separator)
			target = target[len(tvol):]
		}
		parts = append(splitPath(target), parts...)
	}
	return cur, nil
}

// splitPath splits p at its separators.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == filepath.Separator || r == '/' })
}

// pathSubject is a path argument of a call, in every form it may take.
type pathSubject struct {
	arg string
	// lexical are the absolute, cleaned forms of the path as written: for
	// ~/x both the tool's own reading (a directory named ~) and the home
	// directory's, since some tools expand it.
	lexical []string
	// physical are where those land once symbolic links are followed:
	// cleaning first (as forge's tools do) and not (as a tool handing the
	// path to the system may). A deny rule denies the path when it matches
	// any lexical or physical form; an allow rule allows it, and auto-edit
	// counts it inside, only when every physical form qualifies.
	physical []string
	// resolved is false when some form could not be resolved (a link loop,
	// no permission to look): then the path is never inside the working
	// directory and no allow rule with a pattern covers it.
	resolved bool
}

// pathSubject works out the forms of the path argument arg.
func (p *Policy) pathSubject(arg string) pathSubject {
	readings := []string{arg}
	if p.home != "" && (arg == "~" || strings.HasPrefix(arg, "~/")) {
		readings = append(readings, p.home+arg[1:])
	}
	ps := pathSubject{arg: arg, resolved: true}
	for _, r := range readings {
		raw := r
		if !filepath.IsAbs(raw) {
			raw = p.wd.lexical + string(filepath.Separator) + r
		}
		clean := filepath.Clean(raw)
		ps.lexical = appendNew(ps.lexical, clean)
		for i, form := range []string{clean, raw} {
			if i == 1 && raw == clean {
				break // a path written clean resolves once: each form walks every directory above it
			}
			phys, err := resolvePhysical(form)
			if err != nil {
				ps.resolved = false
				continue
			}
			ps.physical = appendNew(ps.physical, phys)
		}
	}
	return ps
}

// appendNew appends s to list unless it is there already.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// inside reports whether every physical form of ps is in the working
// directory or an allowed root.
func (p *Policy) inside(ps pathSubject) bool {
	if !ps.resolved {
		return false
	}
	for _, f := range ps.physical {
		in := false
		for _, r := range p.roots {
			if within(f, r.physical) {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	return true
}

// anchorPath turns a path pattern with a slash into absolute doublestar
// patterns: ~/ is the home directory, /x is absolute, anything else is
// relative to the working directory, and a trailing / means everything
// below. A second pattern is added when the literal directory it starts
// with is reached through a symbolic link, so that physical forms of
// paths match too.
func (p *Policy) anchorPath(pattern string) ([]string, error) {
	var full string
	switch {
	case pattern == "~" || strings.HasPrefix(pattern, "~/"):
		if p.home == "" {
			return nil, errors.New("the pattern starts with ~ but forge does not know the home directory; write the path in full")
		}
		full = escapeMeta(filepath.ToSlash(p.home)) + pattern[1:]
	case strings.HasPrefix(pattern, "/"):
		full = pattern
	default:
		full = escapeMeta(filepath.ToSlash(p.wd.lexical)) + "/" + pattern
	}
	if strings.HasSuffix(full, "/") {
		full += "**"
	}
	full = path.Clean(full)
	out := []string{full}
	prefix := literalPrefix(full)
	if prefix == "" {
		return out, nil
	}
	phys, err := resolvePhysical(filepath.FromSlash(prefix))
	if err == nil && filepath.ToSlash(phys) != prefix {
		out = append(out, escapeMeta(filepath.ToSlash(phys))+full[len(prefix):])
	}
	return out, nil
}

// literalPrefix returns the part of an absolute pattern before its first
// glob character, cut at a slash: the directory every match is in.
func literalPrefix(pattern string) string {
	i := strings.IndexAny(pattern, "*?[{\\")
	if i < 0 {
		return pattern
	}
	return strings.TrimSuffix(pattern[:strings.LastIndexByte(pattern[:i], '/')+1], "/")
}

// escapeMeta quotes doublestar's special characters in a literal path.
func escapeMeta(s string) string {
	if !strings.ContainsAny(s, "*?[]{}\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("*?[]{}\\", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// matchPath reports whether the path form f matches the rule's path
// pattern: anchored patterns against the whole path, a pattern without a
// slash against the base name.
func (r *compiledRule) matchPath(f string) bool {
	f = filepath.ToSlash(f)
	if r.anchored == nil {
		ok, err := doublestar.Match(r.pattern, path.Base(f))
		return err == nil && ok
	}
	for _, a := range r.anchored {
		if ok, err := doublestar.Match(a, f); err == nil && ok {
			return true
		}
	}
	return false
}

// judged are the places s's paths were judged to be: the physical form
// of each, every link resolved (Verdict.Judged); nil when s names no path.
func (s *subjects) judged() []string {
	if s.isCommand || len(s.paths) == 0 {
		return nil
	}
	out := []string{}
	for _, ps := range s.paths {
		for _, f := range ps.physical {
			out = appendNew(out, f)
		}
	}
	return out
}

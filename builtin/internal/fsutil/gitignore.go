package fsutil

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// Ignore is the compiled content of one .gitignore (or .git/info/exclude)
// file, whose patterns are relative to the directory Base.
//
// forge has its own matcher because the light libraries are unmaintained and
// wrong in places (sabhiram/go-gitignore: last release 2021, mishandles
// negation and "**"), and go-git's is a heavy module to pull in for one file
// format. The rules implemented are gitignore(5)'s.
type Ignore struct {
	Base     string // directory the patterns are relative to, absolute, clean
	patterns []ignorePattern
}

type ignorePattern struct {
	negate  bool
	dirOnly bool
	// anchored patterns (with a slash before the end) match the path relative
	// to Base; the others match the last path element at any depth.
	anchored bool
	kind     matchKind
	text     string         // the literal, or the suffix after "*"
	re       *regexp.Regexp // for kindRegexp
}

// matchKind picks the cheapest way to match a pattern: most lines of real
// .gitignore files are plain names or "*.ext".
type matchKind uint8

const (
	kindLiteral matchKind = iota
	kindSuffix
	kindRegexp
)

// maxIgnoreFile bounds the ignore files read: real ones are a few
// kilobytes, and a bigger one is more likely a trap than a list.
const maxIgnoreFile = 4 << 20

// LoadIgnore reads and compiles the ignore file at path, whose patterns are
// relative to base. A missing or unreadable file yields nil, and so does
// anything but a regular file: a FIFO named .gitignore must not hang a
// search.
func LoadIgnore(path, base string) *Ignore { return loadIgnore(HostTarget(path), "", base) }

// loadIgnore is LoadIgnore for rel below t.
func loadIgnore(t *Target, rel, base string) *Ignore {
	f, err := t.OpenRegular(rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, ok, err := f.ReadAll(maxIgnoreFile)
	if err != nil || !ok {
		return nil
	}
	return ParseIgnore(base, data)
}

// ParseIgnore compiles the content of an ignore file whose patterns are
// relative to base. Lines it cannot compile are skipped, as git does.
func ParseIgnore(base string, data []byte) *Ignore {
	ig := &Ignore{Base: base}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if p, ok := compileIgnoreLine(sc.Text()); ok {
			ig.patterns = append(ig.patterns, p)
		}
	}
	if len(ig.patterns) == 0 {
		return nil
	}
	return ig
}

func compileIgnoreLine(line string) (ignorePattern, bool) {
	var p ignorePattern
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return p, false
	}
	if line[0] == '!' {
		p.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false
	}
	if strings.Contains(line, "/") {
		p.anchored = true
		line = strings.TrimPrefix(line, "/")
		if line == "" {
			return p, false
		}
	}
	if !strings.ContainsAny(line, `*?[\`) {
		p.kind, p.text = kindLiteral, line
		return p, true
	}
	if !p.anchored && line[0] == '*' && !strings.ContainsAny(line[1:], `*?[\`) {
		p.kind, p.text = kindSuffix, line[1:]
		return p, true
	}
	re, err := regexp.Compile("^" + wildToRegexp(line) + "$")
	if err != nil {
		return p, false
	}
	p.kind, p.re = kindRegexp, re
	return p, true
}

// trimTrailingSpaces drops unescaped trailing spaces, as gitignore(5) says.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s[:len(s)-2] + " "
		}
		s = s[:len(s)-1]
	}
	return s
}

// wildToRegexp translates a gitignore glob to a regular expression over a
// slash-separated path: "*" and "?" never match a slash, "**" as a whole
// path element matches any number of elements, "[...]" is a class.
func wildToRegexp(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '*':
			if i+1 < len(pat) && pat[i+1] == '*' {
				start := i == 0 || pat[i-1] == '/'
				j := i
				for j < len(pat) && pat[j] == '*' {
					j++
				}
				end := j == len(pat) || pat[j] == '/'
				if start && end {
					switch {
					case j == len(pat) && i == 0:
						b.WriteString(`.*`)
					case j == len(pat):
						b.WriteString(`.*`) // "abc/**": everything inside
					default:
						b.WriteString(`(?:.*/)?`) // "**/" and "/**/": zero or more elements
						j++                       // the slash is consumed
					}
					i = j - 1
					continue
				}
				// Other runs of stars are ordinary stars.
				b.WriteString(`[^/]*`)
				i = j - 1
				continue
			}
			b.WriteString(`[^/]*`)
		case '?':
			b.WriteString(`[^/]`)
		case '[':
			if cls, n := translateClass(pat[i:]); n > 0 {
				b.WriteString(cls)
				i += n - 1
				continue
			}
			b.WriteString(`\[`)
		case '\\':
			if i+1 < len(pat) {
				i++
				b.WriteString(regexp.QuoteMeta(string(pat[i])))
			} else {
				b.WriteString(`\\`)
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// translateClass turns the bracket expression at the start of s into a
// regexp class and says how many bytes of s it used (0 when unterminated,
// in which case "[" is literal).
func translateClass(s string) (string, int) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		b.WriteByte('^')
		i++
	}
	first := true
	for i < len(s) {
		c := s[i]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			return b.String(), i + 1
		case c == '[' && strings.HasPrefix(s[i:], "[:"):
			end := strings.Index(s[i+2:], ":]")
			if end < 0 {
				return "", 0
			}
			b.WriteString(s[i : i+2+end+2])
			i += 2 + end + 2
			first = false
			continue
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteString(regexp.QuoteMeta(string(s[i])))
		case c == '/':
			return "", 0 // a class never matches a slash
		case c == '-':
			b.WriteByte('-')
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
		first = false
		i++
	}
	return "", 0
}

// Match reports whether rel (slash-separated, relative to Base, naming a
// directory when isDir) is ignored (+1), re-included by a negated pattern
// (-1), or not mentioned (0). The last matching pattern decides.
func (ig *Ignore) Match(rel string, isDir bool) int {
	if ig == nil {
		return 0
	}
	name := rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		name = rel[i+1:]
	}
	for i := len(ig.patterns) - 1; i >= 0; i-- {
		p := &ig.patterns[i]
		if p.dirOnly && !isDir {
			continue
		}
		subject := name
		if p.anchored {
			subject = rel
		}
		var ok bool
		switch p.kind {
		case kindRegexp:
			ok = p.re.MatchString(subject)
		case kindSuffix:
			ok = strings.HasSuffix(subject, p.text)
		default:
			ok = subject == p.text
		}
		if ok {
			if p.negate {
				return -1
			}
			return 1
		}
	}
	return 0
}

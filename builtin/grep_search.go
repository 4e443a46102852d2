package builtin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/forgehq/forge/builtin/internal/fsutil"
)

// grepBlockSize is how much of a file is searched at once: files up to this
// size are read whole, bigger ones block by block (cut at line ends), so the
// memory of a search is bounded whatever the file sizes.
const grepBlockSize = 16 << 20

// The output modes of Grep.
const (
	modeFiles   = "files_with_matches"
	modeContent = "content"
	modeCount   = "count"
)

// grepMatcher finds the lines that match a pattern.
type grepMatcher struct {
	re  *regexp.Regexp
	lit []byte     // the whole pattern when it is a plain literal: bytes.Index is faster than the regexp engine
	pre *prefilter // otherwise, literals that every match holds (nil when there are none worth scanning for)
}

// compileGrep compiles an RE2 pattern, line-anchored (^ and $ match at line
// boundaries, as in ripgrep), case-insensitive on request.
func compileGrep(pattern string, fold bool) (*grepMatcher, error) {
	flags := "(?m)"
	if fold {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil {
		// Drop the flags the user did not write from the message.
		msg := strings.Replace(err.Error(), "`"+flags, "`", 1)
		return nil, fmt.Errorf("Invalid regular expression: %s", strings.TrimPrefix(msg, "error parsing regexp: "))
	}
	m := &grepMatcher{re: re}
	prefix, complete := re.LiteralPrefix()
	switch {
	case complete && prefix != "" && !strings.Contains(prefix, "\n"):
		m.lit = []byte(prefix)
	default:
		sflags := syntax.Perl
		if fold {
			sflags |= syntax.FoldCase
		}
		if parsed, err := syntax.Parse(pattern, sflags); err == nil {
			m.pre = newPrefilter(parsed.Simplify())
		}
	}
	return m, nil
}

// next finds the first line of buf[from:] that matches and returns its
// bounds [start, end) (end excludes the newline), or start -1.
func (m *grepMatcher) next(buf []byte, from int) (start, end int) {
	return m.scanner(buf).next(from)
}

// lineScanner finds matching lines in one buffer, call after call.
type lineScanner struct {
	m   *grepMatcher
	buf []byte
	pre *preScan
}

func (m *grepMatcher) scanner(buf []byte) *lineScanner {
	s := &lineScanner{m: m, buf: buf}
	if m.pre != nil {
		s.pre = m.pre.scan(buf)
	}
	return s
}

// next finds the first matching line at or after from: see grepMatcher.next.
func (s *lineScanner) next(from int) (start, end int) {
	m, buf := s.m, s.buf
	if s.pre != nil {
		for from < len(buf) {
			i := s.pre.index(from)
			if i < 0 {
				return -1, -1
			}
			ls := bytes.LastIndexByte(buf[:i], '\n') + 1
			le := len(buf)
			if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
				le = i + j
			}
			if m.re.Match(buf[ls:le]) {
				return ls, le
			}
			from = le + 1
		}
		return -1, -1
	}
	for from <= len(buf) {
		var ms, me int
		if m.lit != nil {
			i := bytes.Index(buf[from:], m.lit)
			if i < 0 {
				return -1, -1
			}
			ms, me = from+i, from+i+len(m.lit)
		} else {
			loc := m.re.FindIndex(buf[from:])
			if loc == nil {
				return -1, -1
			}
			ms, me = from+loc[0], from+loc[1]
		}
		if ms == len(buf) && (len(buf) == 0 || buf[len(buf)-1] == '\n') {
			return -1, -1 // an empty match after the last line ending is no line
		}
		ls := bytes.LastIndexByte(buf[:ms], '\n') + 1
		le := len(buf)
		if i := bytes.IndexByte(buf[ms:], '\n'); i >= 0 {
			le = ms + i
		}
		// A regexp match can run across a line end ("a\sb"); a match must lie
		// within one line, so such a line is checked on its own.
		if me <= le || (m.lit == nil && m.re.Match(buf[ls:le])) {
			return ls, le
		}
		from = le + 1
	}
	return -1, -1
}

// matchLine reports whether one line (no line ending) matches.
func (m *grepMatcher) matchLine(line []byte) bool {
	if m.lit != nil {
		return bytes.Contains(line, m.lit)
	}
	if m.pre != nil && m.pre.scan(line).index(0) < 0 {
		return false
	}
	return m.re.Match(line)
}

// grepLine is one line of content output.
type grepLine struct {
	no    int
	text  string
	match bool
	gap   bool // a "--" separator comes before it
}

// fileResult is what searching one file found.
type fileResult struct {
	count     int        // matching lines
	lines     []grepLine // content mode: the lines to show, up to the text budget
	truncated bool       // content mode: lines were not kept for lack of budget
	binary    bool
	err       error
}

// grepJob says how to search.
type grepJob struct {
	m             *grepMatcher
	mode          string
	before, after int
	maxLine       int
	blockSize     int // grepBlockSize when 0; tests make it small to cross block ends
}

// searchFile searches the file rel below src ("" for src itself), which it
// refuses at once unless it is a regular file. keep is how many content
// lines may be stored (the rest are only counted); buf is a reusable buffer.
func (j *grepJob) searchFile(src *fsutil.Target, rel string, keep func(n int) bool, buf *[]byte) fileResult {
	f, err := src.OpenRegular(rel)
	if err != nil {
		return fileResult{err: err}
	}
	defer f.Close()
	block := j.blockSize
	if block <= 0 {
		block = grepBlockSize
	}
	size := block
	if fs := f.Info().Size(); fs < int64(block) {
		size = max(int(fs)+1, min(block, 64<<10)) // +1: the read that finds the end
	}
	if cap(*buf) < size {
		*buf = make([]byte, size)
	}
	b := (*buf)[:min(cap(*buf), block)]
	var res fileResult
	s := blockState{job: j, res: &res, keep: keep, line: 1}
	carry := 0 // bytes of a partial last line carried to the next block
	for first := true; ; first = false {
		n, rerr := io.ReadFull(f, b[carry:])
		eof := errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF)
		if rerr != nil && !eof {
			return fileResult{err: rerr}
		}
		data := b[:carry+n]
		if first && fsutil.HasNUL(data[:min(len(data), fsutil.SniffLen)]) {
			return fileResult{binary: true}
		}
		// Like ripgrep, stop at a NUL byte further in: what follows is binary.
		stop := eof
		if i := bytes.IndexByte(data, 0); i >= 0 {
			data = data[:bytes.LastIndexByte(data[:i], '\n')+1]
			stop = true
		}
		cut := len(data)
		if !stop {
			if cut = bytes.LastIndexByte(data, '\n') + 1; cut == 0 {
				cut = len(data) // a line longer than a block: searched in pieces
			}
		}
		if done := s.search(data[:cut]); done || stop {
			return res
		}
		// Carry the partial last line, and in content mode the lines that
		// may be context before a match in the next block.
		from, k := cut, 0
		if j.mode == modeContent && j.before > 0 && cut > 0 && data[cut-1] == '\n' {
			if start, n := tailLines(data[:cut], j.before); len(data)-start <= len(b)/2 {
				from, k = start, n
			}
		}
		carry = copy(b, data[from:])
		s.line -= k
		s.skip = k
	}
}

// blockState carries a file's search from one block to the next.
type blockState struct {
	job       *grepJob
	res       *fileResult
	keep      func(n int) bool
	line      int // number of the first line of the next block
	afterLeft int // context lines still owed after the last match
	lastShown int // number of the last line shown (0: none)
	skip      int // lines at the block's start already searched, carried only as context
}

// tailLines returns where the last n lines of b (which ends with a newline)
// start, and how many there are (fewer than n when b is shorter).
func tailLines(b []byte, n int) (start, k int) {
	end := len(b) - 1
	for k < n {
		p := bytes.LastIndexByte(b[:end], '\n')
		k++
		if p < 0 {
			return 0, k
		}
		end = p
	}
	return end + 1, k
}

// search searches one block of whole lines and reports whether the file is
// done (files_with_matches found its match).
func (s *blockState) search(block []byte) bool {
	j := s.job
	switch j.mode {
	case modeFiles:
		if st, _ := j.m.next(block, 0); st >= 0 {
			s.res.count = 1
			return true
		}
	case modeCount:
		sc := j.m.scanner(block)
		for from := 0; from < len(block); {
			st, end := sc.next(from)
			if st < 0 {
				break
			}
			s.res.count++
			from = end + 1
		}
	default:
		if s.afterLeft > 0 || hasMatch(j.m, block) {
			s.content(block)
		}
	}
	// A block cut inside a line longer than a block ends without a newline:
	// the next block continues that line, under the same number.
	s.line += bytes.Count(block, []byte{'\n'})
	return false
}

func hasMatch(m *grepMatcher, block []byte) bool {
	st, _ := m.next(block, 0)
	return st >= 0
}

// content walks the block line by line, keeping matches and their context.
func (s *blockState) content(block []byte) {
	j := s.job
	type span struct{ no, s, e int }
	var prev []span // up to j.before lines not yet shown
	no := s.line
	for pos := 0; pos < len(block); no++ {
		end := len(block)
		if i := bytes.IndexByte(block[pos:], '\n'); i >= 0 {
			end = pos + i
		}
		line := block[pos:end]
		switch {
		case no < s.line+s.skip:
			// Searched with the previous block: context for what follows.
			if no > s.lastShown && j.before > 0 {
				if len(prev) == j.before {
					prev = append(prev[:0], prev[1:]...)
				}
				prev = append(prev, span{no, pos, end})
			}
		case j.m.matchLine(line):
			s.res.count++
			for _, p := range prev {
				s.emit(p.no, block[p.s:p.e], false)
			}
			prev = prev[:0]
			s.emit(no, line, true)
			s.afterLeft = j.after
		case s.afterLeft > 0:
			s.emit(no, line, false)
			s.afterLeft--
		case j.before > 0:
			if len(prev) == j.before {
				prev = append(prev[:0], prev[1:]...)
			}
			prev = append(prev, span{no, pos, end})
		}
		pos = end + 1
	}
}

// emit stores one output line if the text budget allows.
func (s *blockState) emit(no int, line []byte, match bool) {
	gap := s.lastShown > 0 && no > s.lastShown+1
	s.lastShown = no
	if !s.keep(1) {
		s.res.truncated = true
		return
	}
	s.res.lines = append(s.res.lines, grepLine{no: no, text: shorten(line, s.job.maxLine), match: match, gap: gap})
}

// shorten cuts a line to max characters with a marker saying how long it
// was, as Read does (whose readLine cuts while it reads).
func shorten(line []byte, max int) string {
	n := countRuneStarts(line)
	if n <= max {
		return strings.TrimSuffix(string(line), "\r")
	}
	return string(cutRunes(line, max)) + truncatedLineMark(n)
}

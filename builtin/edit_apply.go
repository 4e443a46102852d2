package builtin

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// editPlan is the outcome of applying one edit to a file's content.
type editPlan struct {
	content      []byte // the new content
	replacements int
}

// Edit failures that the tool turns into messages with the file's name.
var (
	errEditIdentical = errors.New("old_string and new_string are identical")
	errEditNotFound  = errors.New("old_string not found")
)

// errAmbiguous says how often old_string occurs when it should be unique.
type errAmbiguous struct{ count int }

func (e errAmbiguous) Error() string { return fmt.Sprintf("old_string appears %d times", e.count) }

// applyEdit replaces old with new in content: the single occurrence, or all
// of them with all. When the file uses CRLF line endings and old does not,
// old and new are matched and written with CRLF, so that a caller who read
// the file (whose line endings Read does not show) can still edit it, and the
// file keeps its line endings. The presence of a final newline is kept.
func applyEdit(content []byte, old, new string, all bool) (editPlan, error) {
	if old == new {
		return editPlan{}, errEditIdentical
	}
	o, n := []byte(old), []byte(new)
	crlf := usesCRLF(content)
	count := bytes.Count(content, o)
	if count == 0 && crlf && strings.Contains(old, "\n") {
		o = toCRLF(o)
		count = bytes.Count(content, o)
	}
	if crlf {
		n = toCRLF(n) // new lines take the file's line endings
	}
	switch {
	case count == 0:
		return editPlan{}, errEditNotFound
	case count > 1 && !all:
		return editPlan{}, errAmbiguous{count}
	}
	replaced := 1
	if all {
		replaced = count
	}
	out := bytes.Replace(content, o, n, replaced)
	out = keepFinalNewline(content, out)
	return editPlan{content: out, replacements: replaced}, nil
}

// usesCRLF reports whether most line endings of b are CRLF.
func usesCRLF(b []byte) bool {
	crlf := bytes.Count(b, []byte("\r\n"))
	return crlf > 0 && crlf*2 >= bytes.Count(b, []byte("\n"))
}

// toCRLF turns bare LF line endings into CRLF.
func toCRLF(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b) + bytes.Count(b, []byte("\n")))
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out.WriteByte('\r')
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// keepFinalNewline gives after the final newline (or its absence) that
// before had, in before's line-ending style. An empty result stays empty.
func keepFinalNewline(before, after []byte) []byte {
	if len(after) == 0 || len(before) == 0 {
		return after
	}
	had := before[len(before)-1] == '\n'
	has := after[len(after)-1] == '\n'
	switch {
	case had && !has:
		if bytes.HasSuffix(before, []byte("\r\n")) {
			return append(after, '\r', '\n')
		}
		return append(after, '\n')
	case !had && has:
		after = after[:len(after)-1]
		return bytes.TrimSuffix(after, []byte("\r"))
	}
	return after
}

package repl

import "bytes"

// keyFilter stands between the terminal and the line editor, which takes
// every byte for a keystroke and redraws the line after each one (a 100 KB
// paste would take minutes). It cuts bracketed pastes (ESC[200~ text
// ESC[201~) out of the keystrokes and hands each to onPaste in one piece,
// putting in its place what onPaste returns; it turns Ctrl-J and Alt-Enter
// into a line that continues (a trailing backslash and Enter); and, while a
// question waits for a single key, it answers with the first allowed key
// and drops everything else a person could send by mistake, pastes above
// all. Sequences split across reads are held until the rest comes.
//
// keyFilter is not safe for concurrent use; inputFilter guards it.
type keyFilter struct {
	// onPaste returns what the editor gets in place of a paste.
	onPaste func(text string, cut bool) string
	// keys, when not "", are the answers of a single-key question.
	keys string
	// max bounds a paste kept in memory (maxPaste when 0); the rest is
	// dropped.
	max int

	// dropEnter drops an Enter that comes right after a single-key
	// answer in the same read ("y\r" typed in a blink, or sent at once):
	// fingers used to "y, Enter" must not answer the next question. An
	// Enter pressed later is the person's and always counts.
	dropEnter bool

	// modeKeys counts the Shift+Tabs passed on as modeKey and not yet
	// taken by the editor.
	modeKeys int

	esc     []byte // an escape sequence begun and not yet complete
	inPaste bool
	paste   []byte
	cut     bool // the paste passed maxPaste and was cut there
	endSeen int  // how many bytes of pasteEnd the paste ends with so far
}

const (
	// shiftTab is what a terminal sends for Shift+Tab (back-tab), and
	// modeKey what the editor gets instead: Ctrl-G, which readline takes
	// as a key that changes nothing (it drops ESC [ Z) and shows its
	// listener; keyFilter.modeKeys tells it from a Ctrl-G typed.
	shiftTab   = "\x1b[Z"
	modeKey    = "\x07"
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
	// continueLine is what Ctrl-J and Alt-Enter send to the editor: a
	// trailing backslash ends the line and asks for the next.
	continueLine = "\\\r"
	// maxPaste bounds a paste kept in memory; the rest is dropped.
	maxPaste = 64 << 20
	// maxEscape bounds an escape sequence; a longer one is not one.
	maxEscape = 32
)

// feed filters the bytes of one read and appends what the editor gets to
// out.
func (f *keyFilter) feed(in, out []byte) []byte {
	out = f.feedBytes(in, out)
	f.dropEnter = false // only an Enter that came with the answer is dropped
	return out
}

// feedBytes is feed within a read.
func (f *keyFilter) feedBytes(in, out []byte) []byte {
	for i := 0; i < len(in); {
		b := in[i]
		if f.dropEnter && !f.inPaste && f.esc == nil {
			f.dropEnter = false
			if b == '\r' || b == '\n' {
				i++
				continue
			}
		}
		switch {
		case f.inPaste:
			i, out = f.pasteBytes(in, i, out)
			continue
		case f.esc != nil:
			out = f.escapeByte(b, out)
		case b == 0x1b:
			f.esc = append(make([]byte, 0, 8), b)
		default:
			out = f.key(b, out)
		}
		i++
	}
	return out
}

// pasteBytes takes the text of a paste from in[i:] up to its end marker,
// and returns where it stopped in in. A part of the marker at the end of
// in is held (endSeen) until the next read says whether it is the marker.
func (f *keyFilter) pasteBytes(in []byte, i int, out []byte) (int, []byte) {
	for i < len(in) {
		if f.endSeen == 0 {
			j := bytes.IndexByte(in[i:], 0x1b)
			if j < 0 {
				f.addPaste(in[i:])
				return len(in), out
			}
			f.addPaste(in[i : i+j])
			i += j
		}
		b := in[i]
		if b == pasteEnd[f.endSeen] {
			f.endSeen++
			i++
			if f.endSeen == len(pasteEnd) {
				return i, append(out, f.endPaste()...)
			}
			continue
		}
		// The beginning of the marker was text after all; an Escape that
		// broke it may begin the marker itself, and is looked at again.
		f.addPaste([]byte(pasteEnd[:f.endSeen]))
		f.endSeen = 0
		if b != 0x1b {
			f.addPaste(in[i : i+1])
			i++
		}
	}
	return i, out
}

// addPaste adds text to the paste, up to maxPaste.
func (f *keyFilter) addPaste(text []byte) {
	limit := f.max
	if limit == 0 {
		limit = maxPaste
	}
	if room := limit - len(f.paste); len(text) > room {
		text, f.cut = text[:max(room, 0)], true
	}
	f.paste = append(f.paste, text...)
}

// endPaste hands the finished paste over; its replacement goes to the
// editor in line mode, nowhere while a key is awaited.
func (f *keyFilter) endPaste() []byte {
	text, cut := string(f.paste), f.cut
	f.inPaste, f.paste, f.cut, f.endSeen = false, nil, false, 0
	if f.keys != "" || f.onPaste == nil {
		return nil
	}
	return []byte(f.onPaste(text, cut))
}

// escapeByte adds b to the escape sequence begun and acts on it once it is
// complete: a paste begins, Alt-Enter continues the line, other keys go
// to the editor as they came (dropped while a key is awaited).
func (f *keyFilter) escapeByte(b byte, out []byte) []byte {
	f.esc = append(f.esc, b)
	seq := f.esc
	switch {
	case len(seq) == 2 && (b == '[' || b == 'O'):
		return out // CSI or SS3: more to come
	case len(seq) == 2 && b == '\r':
		f.esc = nil
		if f.keys != "" {
			return out
		}
		return append(out, continueLine...)
	case len(seq) == 2 && b == 0x1b:
		// Escape, then another sequence: the first goes alone.
		f.esc = seq[1:]
		return f.emit(seq[:1], out)
	case len(seq) == 2:
		f.esc = nil
		return f.emit(seq, out) // Alt and a key
	case seq[1] == 'O':
		f.esc = nil
		return f.emit(seq, out)
	case b >= 0x40 && b <= 0x7e: // the final byte of a CSI sequence
		f.esc = nil
		switch string(seq) {
		case pasteStart:
			f.inPaste = true
			return out
		case pasteEnd:
			return out // an end without a beginning: nothing to end
		case shiftTab:
			// readline knows no Shift+Tab: the editor gets modeKey for
			// it, and acts on it.
			if f.keys != "" {
				return out
			}
			f.modeKeys++
			return append(out, modeKey...)
		}
		return f.emit(seq, out)
	case b >= 0x20 && b <= 0x3f && len(seq) < maxEscape:
		return out // a parameter or an intermediate byte
	}
	// Not a sequence after all: what came so far goes as it is, and b,
	// which broke it, starts afresh.
	f.esc = nil
	out = f.emit(seq[:len(seq)-1], out)
	return f.feedBytes([]byte{b}, out)
}

// emit passes a complete escape sequence on, except to a single-key
// question.
func (f *keyFilter) emit(seq, out []byte) []byte {
	if f.keys != "" {
		return out
	}
	return append(out, seq...)
}

// key passes one byte that is no part of a sequence on.
func (f *keyFilter) key(b byte, out []byte) []byte {
	if f.keys == "" {
		if b == '\n' {
			return append(out, continueLine...)
		}
		return append(out, b)
	}
	switch {
	case b == '\r' || b == 0x03 || b == 0x04: // Enter, Ctrl-C, Ctrl-D
		return append(out, b)
	case b < 0x80 && containsByte(f.keys, b):
		f.keys = "" // one answer; the keys after it are typed as usual
		f.dropEnter = true
		return append(out, b, '\r')
	}
	return out
}

// flush ends a paste whose end marker never came (the terminal went quiet
// in the middle of one) and returns what the editor gets for it.
func (f *keyFilter) flush(out []byte) []byte {
	if !f.inPaste {
		return out
	}
	f.addPaste([]byte(pasteEnd[:f.endSeen]))
	return append(out, f.endPaste()...)
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

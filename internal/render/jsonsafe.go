package render

// escapeControls rewrites the characters that encoding/json leaves raw in
// its output but a terminal obeys: the C1 controls U+0080 to U+009F (U+009B
// starts a control sequence just as ESC [ does) and DEL. Each becomes its
// \u escape, which decodes to the same character, so that a tool
// description or an output read with cat or less cannot move the cursor,
// retitle the window or hide text.
//
// b must be encoding/json's output, valid UTF-8 in which every byte of 0x80
// or more belongs to a string: then a 0xC2 byte always leads a two-byte
// character and 0x7F is always inside a string, and the rewrite keeps the
// JSON valid.
func escapeControls(b []byte) []byte {
	i := indexControl(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i >= 0 {
		out = append(out, b[:i]...)
		var c byte
		if b[i] == 0x7f {
			c, b = 0x7f, b[i+1:]
		} else {
			c, b = b[i+1], b[i+2:]
		}
		out = append(out, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xf])
		i = indexControl(b)
	}
	return append(out, b...)
}

const hexDigit = "0123456789abcdef"

// indexControl is the index of the first DEL or UTF-8 encoded C1 control in
// b, or -1.
func indexControl(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			return i
		}
	}
	return -1
}

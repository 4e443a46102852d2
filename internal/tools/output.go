package tools

import (
	"strconv"
	"unicode/utf8"
)

// capOutput cuts a string output longer than limit bytes on a UTF-8
// boundary, so no character is split, and adds a note line saying how much
// was left out. Metadata records "truncated": true and "original_size".
// Other outputs are the tool's business: only text has a size to cap.
func capOutput(r *Result, limit int) {
	s, ok := r.Output.(string)
	if !ok || limit <= 0 || len(s) <= limit {
		return
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	omitted := len(s) - cut
	r.Output = s[:cut] + "\n[Output truncated: " + strconv.Itoa(omitted) + " of " + strconv.Itoa(len(s)) + " bytes not shown]"
	*r = r.WithMeta("truncated", true)
	r.Metadata["original_size"] = len(s)
}

package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// The name an MCP tool gets in forge: mcp__<server>__<tool>. The double
// underscore keeps the server apart from the tool (both may contain single
// underscores), and the whole stays within the providers' rule
// ^[a-zA-Z0-9_-]{1,64}$.
const (
	namePrefix  = "mcp__"
	nameSep     = "__"
	maxNameLen  = 64
	hashLen     = 8 // hex digits of the suffix that keeps truncated names apart
	placeholder = "_"
)

// sanitize replaces every character outside [a-zA-Z0-9_-] with '_'.
func sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return placeholder
	}
	return b.String()
}

// suffix is a short hash of the exact server and tool names: stable across
// runs, so a tool keeps its forge name.
func suffix(server, tool string) string {
	h := sha256.Sum256([]byte(server + "\x00" + tool))
	return hex.EncodeToString(h[:])[:hashLen]
}

// ToolName returns the forge name of tool on server: mcp__server__tool,
// sanitised, and truncated with a hash of the exact names when longer than
// 64 characters. It is always a valid forge tool name.
func ToolName(server, tool string) string {
	// Sanitising may map two names to one ("a.b", "a_b"); uniqueName adds
	// the hash only when that happens, so the common case stays readable.
	name := namePrefix + sanitize(server) + nameSep + sanitize(tool)
	if len(name) <= maxNameLen {
		return name
	}
	return name[:maxNameLen-hashLen-1] + "_" + suffix(server, tool)
}

// uniqueName returns ToolName, or a hashed variant when taken says the name
// belongs to another tool.
func uniqueName(server, tool string, taken func(string) bool) string {
	name := ToolName(server, tool)
	if !taken(name) {
		return name
	}
	// A different salt from ToolName's: a name already truncated and hashed
	// must change too.
	h := suffix(server, tool+"\x00taken")
	if len(name)+1+hashLen > maxNameLen {
		name = name[:maxNameLen-hashLen-1]
	}
	return name + "_" + h
}

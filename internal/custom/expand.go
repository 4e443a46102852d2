package custom

import (
	"regexp"
	"strings"
	"sync"
)

// Expand fills in a command's body: $ARGUMENTS is args (the whole
// argument text), $1..$9 are its words (words[0]...), "" when there are
// fewer. Values are put in as they are, never expanded again. A body
// without any placeholder gets the arguments appended on a line of their
// own, as Claude Code does, so that they are never silently lost.
func Expand(body, args string, words []string) string {
	args = strings.TrimSpace(args)
	var b strings.Builder
	used := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		rest := body[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(args)
			i += len("ARGUMENTS")
			used = true
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9':
			if n := int(rest[0] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			i++
			used = true
		default:
			b.WriteByte(c)
		}
	}
	if !used && args != "" {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("ARGUMENTS: " + args)
	}
	return b.String()
}

// shellCommand is a !`command` of a command's body, whose output Claude
// Code's commands put in their prompt.
var shellCommand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("!`([^`\n]+)`") })

// HasShell says body holds a !`command`.
func HasShell(body string) bool { return shellCommand().MatchString(body) }

// ExpandShell replaces each !`command` of body with what run gives for
// it, in order, each command run once per place it appears.
func ExpandShell(body string, run func(command string) string) string {
	return shellCommand().ReplaceAllStringFunc(body, func(m string) string {
		return strings.TrimRight(run(shellCommand().FindStringSubmatch(m)[1]), "\n")
	})
}

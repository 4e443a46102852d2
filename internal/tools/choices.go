package tools

import "strings"

// Choice is one of the things a tool's description lists for the model
// to pick from (a skill, a subagent): its name and a line on it.
type Choice struct {
	Name, Summary string
}

// AppendChoices writes a line "- name: summary" to b for each choice
// while b stays within limit bytes, then the rest by name only on one
// line, so that a long list keeps every name in a bounded description.
func AppendChoices(b *strings.Builder, choices []Choice, limit int) {
	var rest []string
	for _, c := range choices {
		line := "\n- " + c.Name
		if c.Summary != "" {
			line += ": " + c.Summary
		}
		if b.Len()+len(line) > limit {
			rest = append(rest, c.Name)
			continue
		}
		b.WriteString(line)
	}
	if len(rest) > 0 {
		b.WriteString("\n- and, by name only: " + strings.Join(rest, ", "))
	}
}

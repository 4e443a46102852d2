package tools

import (
	"strings"
	"testing"
)

func TestAppendChoices(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
		want  string
	}{
		{"all fit", 100, "Pick:\n- a: first\n- b"},
		{"the rest by name", 16, "Pick:\n- a: first\n- and, by name only: b"},
		{"a later short line still fits", 15, "Pick:\n- b\n- and, by name only: a"},
		{"none fit", 5, "Pick:\n- and, by name only: a, b"},
	} {
		var b strings.Builder
		b.WriteString("Pick:")
		AppendChoices(&b, []Choice{{"a", "first"}, {"b", ""}}, tc.limit)
		if b.String() != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, b.String(), tc.want)
		}
	}
}

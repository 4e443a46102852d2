package tools

import (
	"regexp"
	"strings"
	"testing"
)

// The rules the name checks stand for, as the providers write them.
var (
	toolNameRule     = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	propertyNameRule = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name       string
		tool, prop bool
	}{
		{"Read", true, true},
		{"mcp__github__get_issue", true, true},
		{"a-b_c9", true, true},
		{"file.path", false, true},
		{"", false, false},
		{strings.Repeat("x", 64), true, true},
		{strings.Repeat("x", 65), false, false},
		{"has space", false, false},
		{"é", false, false},
		{"a/b", false, false},
		{"a\x00", false, false},
		{"a\n", false, false},
	} {
		if got := IsToolName(tc.name); got != tc.tool {
			t.Errorf("IsToolName(%q) = %v, want %v", tc.name, got, tc.tool)
		}
		if got := IsPropertyName(tc.name); got != tc.prop {
			t.Errorf("IsPropertyName(%q) = %v, want %v", tc.name, got, tc.prop)
		}
	}
}

func FuzzNames(f *testing.F) {
	for _, s := range []string{"Read", "a.b", "", strings.Repeat("y", 65), "ä", "a\n", "-_."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsToolName(s), toolNameRule.MatchString(s); got != want {
			t.Errorf("IsToolName(%q) = %v, the rule says %v", s, got, want)
		}
		if got, want := IsPropertyName(s), propertyNameRule.MatchString(s); got != want {
			t.Errorf("IsPropertyName(%q) = %v, the rule says %v", s, got, want)
		}
	})
}

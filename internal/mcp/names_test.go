package mcp

import (
	"regexp"
	"strings"
	"testing"
)

var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 80)
	for _, tc := range []struct{ server, tool, want string }{
		{"fs", "read_file", "mcp__fs__read_file"},
		{"my.server", "get/thing", "mcp__my_server__get_thing"},
		{"", "", "mcp______"},
		{"s", "émoji🙂", "mcp__s___moji_"},
		{"s", long, "mcp__s__" + strings.Repeat("x", 64-len("mcp__s__")-9) + "_" + suffix("s", long)},
	} {
		got := ToolName(tc.server, tc.tool)
		if got != tc.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
		}
		if !validName.MatchString(got) {
			t.Errorf("invalid name %q", got)
		}
	}
	// Two long names that share their first 64 characters stay apart.
	a, b := ToolName("s", long+"a"), ToolName("s", long+"b")
	if a == b || len(a) != 64 {
		t.Errorf("%q vs %q", a, b)
	}
}

func TestUniqueName(t *testing.T) {
	first := uniqueName("s", "a.b", func(string) bool { return false })
	second := uniqueName("s", "a_b", func(n string) bool { return n == first })
	if first != "mcp__s__a_b" || second == first || !strings.HasPrefix(second, "mcp__s__a_b_") || !validName.MatchString(second) {
		t.Errorf("first %q, second %q", first, second)
	}
	long := strings.Repeat("y", 70)
	n := uniqueName("s", long, func(string) bool { return true })
	if !validName.MatchString(n) {
		t.Errorf("invalid %q", n)
	}
}

func FuzzSanitizeName(f *testing.F) {
	for _, s := range [][2]string{{"fs", "read"}, {"", ""}, {"a.b", "c/d"}, {strings.Repeat("z", 100), "t"}, {"\xff\xfe", "日本"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, server, tool string) {
		n := ToolName(server, tool)
		if !validName.MatchString(n) {
			t.Fatalf("ToolName(%q, %q) = %q: invalid", server, tool, n)
		}
		u := uniqueName(server, tool, func(string) bool { return true })
		if !validName.MatchString(u) || u == n {
			t.Fatalf("uniqueName(%q, %q) = %q (plain %q)", server, tool, u, n)
		}
	})
}

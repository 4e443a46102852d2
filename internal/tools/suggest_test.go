package tools

import (
	"slices"
	"testing"
)

func TestSuggest(t *testing.T) {
	tools := []string{"Read", "Write", "Edit", "MultiEdit", "Bash", "BashOutput", "Glob", "Grep", "WebFetch", "WebSearch", "TodoWrite"}
	cmds := []string{"/tools", "/run", "/schema", "/history", "/help", "/clear", "/quit"}
	cases := []struct {
		name       string
		candidates []string
		max        int
		want       []string
	}{
		{"read", tools, 3, []string{"Read"}},                 // case only
		{"Raed", tools, 3, []string{"Read"}},                 // swapped letters
		{"Wirte", tools, 3, []string{"Write"}},               // swapped letters
		{"bsh", tools, 3, []string{"Bash"}},                  // one letter missing
		{"grp", tools, 3, []string{"Grep"}},                  // one letter missing
		{"Web", tools, 3, []string{"WebFetch", "WebSearch"}}, // prefix
		{"bash", tools, 3, []string{"Bash", "BashOutput"}},   // exact first, then prefix
		{"Gxxb", tools, 3, nil},                              // distance 2 is too far for 4 letters
		{"xyz", tools, 3, nil},
		{"", tools, 3, nil},
		{"/histroy", cmds, 3, []string{"/history"}},
		{"/hlep", cmds, 3, []string{"/help"}},
		{"/q", cmds, 3, []string{"/quit"}},
		{"Rea", tools, 1, []string{"Read"}},
		{"Bash", tools, 0, []string{"Bash", "BashOutput"}},
		{"Edit", []string{"Edit", "Edit"}, 0, []string{"Edit"}},
		{"Grap", tools, 3, []string{"Grep"}},
	}
	for _, c := range cases {
		got := Suggest(c.name, c.candidates, c.max)
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("Suggest(%q, max %d) = %v, want %v", c.name, c.max, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"raed", "read", 1}, {"日本", "本日", 1}, {"abc", "abc", 0},
	}
	for _, c := range cases {
		if got := distance(c.a, c.b); got != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

package commands

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/config"
)

// The configuration's rows fit the terminal: a row too wide goes on
// under its value, broken between words or list items, never inside one,
// its source on a line of its own; without a width each row is one line.
func TestConfigRows(t *testing.T) {
	entries := []config.Entry{
		{Key: "timeout", Value: "2m0s", Source: "default"},
		{Key: "sandbox.caches", Value: "/home/me/.cache:/home/me/go/pkg/mod:/home/me/.cargo/registry", Source: "default"},
		{Key: "permissions.allow", Value: "Bash(go test:*)", Source: "config file /home/me/.config/forge/config.yaml"},
		{Key: "system_prompt", Value: "You are a careful engineer who writes small, well-tested changes.", Source: "FORGE_SYSTEM_PROMPT"},
		{Key: "log_file", Value: "", Source: "default"},
	}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{0, `
  timeout            2m0s                                      default
  sandbox.caches     /home/me/.cache:/home/me/go/pkg/mod:/home/me/.cargo/registry  default
  permissions.allow  Bash(go test:*)                           config file /home/me/.config/forge/config.yaml
  system_prompt      You are a careful engineer who writes small, well-tested changes.  FORGE_SYSTEM_PROMPT
  log_file           ""                                        default`},
		{60, `
  timeout            2m0s                            default
  sandbox.caches     /home/me/.cache:/home/me/go/pkg/mod:
                     /home/me/.cargo/registry
                     (default)
  permissions.allow  Bash(go test:*)
                     config file
                     /home/me/.config/forge/config.yaml
  system_prompt      You are a careful engineer who writes
                     small, well-tested changes.
                     (FORGE_SYSTEM_PROMPT)
  log_file           ""                              default`},
		{80, `
  timeout            2m0s                                      default
  sandbox.caches     /home/me/.cache:/home/me/go/pkg/mod:
                     /home/me/.cargo/registry
                     (default)
  permissions.allow  Bash(go test:*)                           config file
                     /home/me/.config/forge/config.yaml
  system_prompt      You are a careful engineer who writes small, well-tested
                     changes.
                     (FORGE_SYSTEM_PROMPT)
  log_file           ""                                        default`},
		{120, `
  timeout            2m0s                                      default
  sandbox.caches     /home/me/.cache:/home/me/go/pkg/mod:/home/me/.cargo/registry  default
  permissions.allow  Bash(go test:*)                           config file /home/me/.config/forge/config.yaml
  system_prompt      You are a careful engineer who writes small, well-tested changes.  FORGE_SYSTEM_PROMPT
  log_file           ""                                        default`},
	} {
		got := configRows(entries, tc.width)
		if got != tc.want {
			t.Errorf("width %d:\n%s\nwant:\n%s", tc.width, got, tc.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if tc.width > 0 && len(l) > tc.width {
				t.Errorf("width %d: %q is %d wide", tc.width, l, len(l))
			}
		}
	}
}

func TestBreakValue(t *testing.T) {
	for _, tc := range []struct {
		v    string
		room int
		want string
	}{
		{"", 10, ""},
		{"short", 10, "short"},
		{"one two three four", 9, "one two|three|four"},
		{"a:b:c:d", 4, "a:b:|c:d"},
		{"x, y, z", 4, "x,|y, z"},
		{"averyveryverylongword next", 5, "averyveryverylongword|next"}, // kept whole
		{"https://example.com/a", 10, "https:|//example.com/a"},
	} {
		if got := strings.Join(breakValue(tc.v, tc.room, tc.room), "|"); got != tc.want {
			t.Errorf("breakValue(%q, %d) = %q, want %q", tc.v, tc.room, got, tc.want)
		}
	}
}

// A source too long for its line keeps its kind after the value when it
// fits, its file below.
func TestSourceLines(t *testing.T) {
	for _, tc := range []struct {
		src  string
		room int
		want string
	}{
		{"default", 10, "default"},
		{"config file /a/very/long/path.yaml", 12, "config file|/a/very/long/path.yaml"},
		{"config file /a/very/long/path.yaml", 20, "config file|/a/very/long/path.yaml"},
		{"config file /a/very/long/path.yaml", 6, "|config file /a/very/long/path.yaml"},
		{"config file /a/very/long/path/of/a/file.yaml", 6, "|config file|/a/very/long/path/of/a/file.yaml"},
		{"FORGE_SYSTEM_PROMPT_FILE", 6, "|FORGE_SYSTEM_PROMPT_FILE"},
	} {
		if got := strings.Join(sourceLines(tc.src, tc.room, 36), "|"); got != tc.want {
			t.Errorf("sourceLines(%q, %d) = %q, want %q", tc.src, tc.room, got, tc.want)
		}
	}
}

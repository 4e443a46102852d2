package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// An example's comment too long for the width goes on under itself, each
// line a comment, or under the command when its column leaves it too
// little room; commands stay whole.
func TestWrapExamples(t *testing.T) {
	for _, tc := range []struct {
		name, ex string
		width    int
		want     string
	}{
		{"fits", "  forge -r  # pick one", 40, "  forge -r  # pick one"},
		{"a long command", "  forge ask --approval yolo \"fix the failing test\"", 30,
			"  forge ask --approval yolo\n    \"fix the failing test\""},
		{"a word longer than the width", "  forge ask 'select(.type==\"done\")'", 12,
			"  forge ask\n    'select(.type==\"done\")'"},
		{"under itself", "  forge  # chat with the agent in this directory", 40,
			"  forge  # chat with the agent in this\n         # directory"},
		{"under the command", "  forge --approval auto-edit  # and let it edit files without asking", 40,
			"  forge --approval auto-edit\n  # and let it edit files without asking"},
	} {
		got := wrapExamples(tc.ex, tc.width)
		if got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if len(l) > tc.width && !strings.Contains(l, "select") {
				t.Errorf("%s: %q is wider than %d", tc.name, l, tc.width)
			}
		}
	}
}

// Showing any command's help leaves cobra's templates as they are: a
// template links text/template, whose reflection keeps every method of
// every type in the binary (5 MB, and 2 MiB more at every start). The
// flags are wrapped by writeUsage instead, and a flag's description
// still fits the width.
func TestHelpSetsNoTemplate(t *testing.T) {
	var plain cobra.Command
	a := newApp(nil, nil, nil, Options{})
	root := a.rootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var out bytes.Buffer
		c.SetOut(&out)
		c.HelpFunc()(c, nil)
		if c.UsageTemplate() != plain.UsageTemplate() || c.HelpTemplate() != plain.HelpTemplate() ||
			c.VersionTemplate() != plain.VersionTemplate() {
			t.Errorf("%s: help set a template", c.CommandPath())
		}
		if c.HasAvailableFlags() && !strings.Contains(out.String(), "Flags:") {
			t.Errorf("%s: help without its flags:\n%s", c.CommandPath(), out.String())
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if len([]rune(l)) > helpWidth {
				t.Errorf("%s: %q is wider than %d", c.CommandPath(), l, helpWidth)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

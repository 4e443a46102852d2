package mcp

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// By default only read-only tools are served; --tools names any tool, and
// all serves every one. The choice is announced on the log in one line.
func TestServeSelection(t *testing.T) {
	ex, _ := serveRegistry(t)
	cases := []struct {
		name     string
		opts     ServeOptions
		want     string
		announce string
	}{
		{"default read-only", ServeOptions{}, "Greet,Info", "serving 2 read-only tools: Greet, Info (choose others with --tools NAME,... or --tools all)"},
		{"named, read-only or not", ServeOptions{Tools: []string{"Slow", "Greet", "Slow"}}, "Greet,Slow", "serving 2 tools: Greet, Slow"},
		{"all", ServeOptions{Tools: []string{"all"}}, "Greet,Info,Slow", "serving 3 tools: Greet, Info, Slow"},
		{"all with a category", ServeOptions{Tools: []string{"all"}, Category: tools.CategoryExecution}, "Slow", "serving 1 tool: Slow"},
		{"default with a category", ServeOptions{Category: tools.CategoryExecution}, "", "serving no read-only tools (choose others"},
		{"dry run", ServeOptions{DryRun: true}, "Greet,Info", "serving 2 read-only tools in dry-run mode: Greet, Info"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var log bytes.Buffer
			c.opts.Log = &log
			srv, descs, err := newServer(ex, c.opts, context.Background())
			if err != nil || srv == nil {
				t.Fatal(err)
			}
			names := make([]string, len(descs))
			for i, d := range descs {
				names[i] = d.Name
			}
			if got := strings.Join(names, ","); got != c.want {
				t.Errorf("served %q, want %q", got, c.want)
			}
			announce(c.opts, descs, "")
			line := log.String()
			if !strings.Contains(line, c.announce) || strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "forge mcp serve: ") {
				t.Errorf("announcement %q lacks %q", line, c.announce)
			}
		})
	}
}

func TestServeUnknownTools(t *testing.T) {
	ex, _ := serveRegistry(t)
	cases := map[string][]string{
		"Unknown tool: Ghost":                                                  {"Ghost"},
		"Unknown tool: greet (did you mean Greet?)":                            {"greet"},
		"Unknown tools: Slwo (did you mean Slow?), Infoo (did you mean Info?)": {"Greet", "Slwo", "Infoo"},
	}
	for want, names := range cases {
		if _, err := serverOf(ex, ServeOptions{Tools: names}); err == nil || err.Error() != want {
			t.Errorf("%v: got %v, want %q", names, err, want)
		}
	}
}

// Read-only tools say so to the client (annotations.readOnlyHint), and a
// forge client reading them marks them read-only in turn.
func TestServeReadOnlyHint(t *testing.T) {
	ex, _ := serveRegistry(t)
	cs := connect(t, ex, ServeOptions{Tools: []string{AllTools}})
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		ro := tl.Annotations != nil && tl.Annotations.ReadOnlyHint
		if want := tl.Name != "Slow"; ro != want {
			t.Errorf("%s: readOnlyHint %v, want %v", tl.Name, ro, want)
		}
		if ro && (tl.Annotations.OpenWorldHint == nil || *tl.Annotations.OpenWorldHint) {
			t.Errorf("%s: openWorldHint %v, want false: it sends nothing away", tl.Name, tl.Annotations.OpenWorldHint)
		}
	}
}

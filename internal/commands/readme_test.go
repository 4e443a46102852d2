package commands

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's table of shell commands shows each command as /help does.
func TestREADMECommandTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n### Commands\n")
	if !ok {
		t.Fatal("README has no Commands section")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	row := regexp.MustCompile("(?m)^\\| `(/[^`]+)`")
	checked := 0
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		usage := strings.ReplaceAll(m[1], `\|`, "|")
		name := strings.TrimPrefix(strings.Fields(usage)[0], "/")
		c, ok := lookup(Table(), name)
		if !ok {
			continue
		}
		checked++
		if usage != c.Usage {
			t.Errorf("README shows %q, /help shows %q", usage, c.Usage)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d commands found in the README's table", checked)
	}
}

package builtin

import (
	"context"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// Every declared setting is one the factory reads with the same check: a
// value the check refuses, the factory refuses too, and a section holding
// only valid values builds the tool.
func TestSettingsAgreeWithFactories(t *testing.T) {
	valid := map[string]any{
		"shell": "/bin/sh", "kill_grace": "2s", "output_dir": t.TempDir(), "limit": 5, "head_limit": 10,
		"max_line_length": 300, "allowed_roots": []any{t.TempDir()}, "timeout": "5s", "max_bytes": 1000,
		"allow_private": true, "endpoint": "https://search.example/api", "max_results": 3,
	}
	for _, group := range [][]spec{fileSpecs(&shellHolder{}), execSpecs(&shellHolder{}), webSpecs(), otherSpecs()} {
		for _, s := range group {
			name := s.desc.Name
			section := map[string]any{}
			for _, st := range s.settings {
				v, ok := valid[st.Key]
				if !ok {
					t.Fatalf("%s.%s: the test has no valid value for it", name, st.Key)
				}
				if err := st.Check(v); err != nil {
					t.Errorf("%s.%s: Check(%v) = %v", name, st.Key, v, err)
				}
				section[st.Key] = v
				bad := map[string]any{"nested": 1} // no reader takes a mapping
				if st.Check(bad) == nil {
					t.Errorf("%s.%s: Check took a mapping", name, st.Key)
				}
				if tl, err := s.factory(context.Background(), tools.Deps{Config: map[string]any{st.Key: bad}}); err == nil {
					closeTool(tl)
					t.Errorf("%s.%s: the factory took a value its Check refuses (is the key read?)", name, st.Key)
				}
			}
			tl, err := s.factory(context.Background(), tools.Deps{Config: section})
			if err != nil {
				t.Errorf("%s with %v: %v", name, section, err)
				continue
			}
			closeTool(tl)
		}
	}
}

func closeTool(tl tools.Tool) {
	if c, ok := tl.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

func TestSettingsLookup(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		ok   bool
	}{
		{"Bash", []string{"shell", "kill_grace", "output_dir"}, true},
		{"bash", []string{"shell", "kill_grace", "output_dir"}, true},
		{"Glob", []string{"limit"}, true},
		{"calculator", nil, true},
		{"mcp__git__status", nil, false},
	}
	for _, tt := range tests {
		got, ok := Settings(tt.name)
		var keys []string
		for _, s := range got {
			keys = append(keys, s.Key)
		}
		if ok != tt.ok || len(keys) != len(tt.keys) {
			t.Errorf("Settings(%s) = %v, %v; want %v, %v", tt.name, keys, ok, tt.keys, tt.ok)
			continue
		}
		for i := range keys {
			if keys[i] != tt.keys[i] {
				t.Errorf("Settings(%s) = %v, want %v", tt.name, keys, tt.keys)
			}
		}
	}
}

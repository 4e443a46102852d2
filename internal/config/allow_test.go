package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAddAllowRules(t *testing.T) {
	tests := []struct {
		name    string
		before  string // "" is no file
		rules   []string
		added   []string
		allow   []string // permissions.allow as Load reads it afterwards
		keep    string   // text the file still has
		problem string
	}{
		{"a new file", "", []string{"Bash(go test:*)"}, []string{"Bash(go test:*)"}, []string{"Bash(go test:*)"}, "", ""},
		{"beside other settings and comments", "# my settings\ntimeout: 90s # long\npermissions:\n  deny: [\"Bash(rm:*)\"]\n",
			[]string{"Read(.env)"}, []string{"Read(.env)"}, []string{"Read(.env)"}, "# my settings\ntimeout: 90s # long\n", ""},
		{"after the rules there", "permissions:\n  allow:\n    - Bash(ls)\n", []string{"Bash(ls)", "Bash(pwd)"},
			[]string{"Bash(pwd)"}, []string{"Bash(ls)", "Bash(pwd)"}, "", ""},
		{"nothing new, nothing written", "permissions:\n  allow: [\"Bash(ls)\"]\n", []string{"Bash(ls)"}, nil, []string{"Bash(ls)"},
			"allow: [\"Bash(ls)\"]", ""},
		{"a key in another case", "Permissions:\n  Allow: Bash(ls)\n", []string{"Bash(pwd)"}, []string{"Bash(pwd)"},
			[]string{"Bash(ls)", "Bash(pwd)"}, "", ""},
		{"an empty section", "permissions:\n", []string{"Bash(pwd)"}, []string{"Bash(pwd)"}, []string{"Bash(pwd)"}, "", ""},
		{"broken YAML is left alone", "permissions: [\n", []string{"Bash(pwd)"}, nil, nil, "permissions: [\n", "is not valid YAML"},
		{"a list is not settings", "- a\n", []string{"Bash(pwd)"}, nil, nil, "- a\n", "does not hold settings"},
		{"permissions of the wrong shape", "permissions: [a]\n", []string{"Bash(pwd)"}, nil, nil, "permissions: [a]\n", "neither a list nor a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			path := filepath.Join(f.home, ".config", "forge", "config.yaml")
			if tt.before != "" {
				f.write(path, tt.before)
			}
			added, err := AddAllowRules(path, tt.rules, true)
			if tt.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tt.problem) {
					t.Fatalf("err = %v, want %q", err, tt.problem)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(added, tt.added) {
				t.Errorf("added %q, want %q", added, tt.added)
			}
			b, _ := os.ReadFile(path)
			if !strings.Contains(string(b), tt.keep) {
				t.Errorf("the file lost %q:\n%s", tt.keep, b)
			}
			if tt.problem != "" {
				return
			}
			if c := f.load(path); !slices.Equal(c.Permissions.Allow, tt.allow) {
				t.Errorf("allow = %q, want %q; file:\n%s", c.Permissions.Allow, tt.allow, b)
			}
		})
	}
}

// The person's own file is created private; a file's mode is kept.
func TestAddAllowRulesModes(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "user", "config.yaml")
	if _, err := AddAllowRules(private, []string{"Bash(ls)"}, true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(private); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new private file: %v, %v", fi.Mode(), err)
	}
	shared := filepath.Join(dir, "project", ".forge", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(shared), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shared, []byte("timeout: 5s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o664); err != nil {
		t.Fatal(err)
	}
	if _, err := AddAllowRules(shared, []string{"Bash(ls)"}, false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(shared); err != nil || fi.Mode().Perm() != 0o664 {
		t.Errorf("kept mode: %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(shared)); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
}

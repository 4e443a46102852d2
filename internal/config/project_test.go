package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindProject(t *testing.T) {
	mk := func(t *testing.T, root string, dirs ...string) {
		t.Helper()
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name  string
		dirs  []string
		start string
		want  string // relative to the temporary root; "-" for none
	}{
		{"in the working directory", []string{"repo/.git", "repo/.forge"}, "repo", "repo"},
		{"found upward within the repository", []string{"repo/.git", "repo/.forge", "repo/a/b"}, "repo/a/b", "repo"},
		{"the nearest wins", []string{"repo/.git", "repo/.forge", "repo/a/.forge", "repo/a/b"}, "repo/a/b", "repo/a"},
		{"not above the repository root", []string{".forge", "repo/.git", "repo/a"}, "repo/a", "-"},
		{"outside a repository only the directory itself", []string{".forge", "plain/a"}, "plain/a", "-"},
		{"outside a repository, in the directory", []string{"plain/.forge"}, "plain", "plain"},
		{"none", []string{"repo/.git", "repo/a"}, "repo/a", "-"},
		{"settings win over a nearer .forge without", []string{"repo/.git", "repo/.forge/config.yaml", "repo/vendor/lib/.forge/commands"}, "repo/vendor/lib", "repo"},
		{"a nearer .forge without settings, if none has them", []string{"repo/.git", "repo/.forge/commands", "repo/vendor/lib/.forge/commands"}, "repo/vendor/lib", "repo/vendor/lib"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			for _, d := range tt.dirs {
				if filepath.Base(d) == "config.yaml" {
					mk(t, root, filepath.Dir(d))
					if err := os.WriteFile(filepath.Join(root, d), nil, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				mk(t, root, d)
			}
			got := FindProject(filepath.Join(root, tt.start))
			want := ""
			if tt.want != "-" {
				want = filepath.Join(root, tt.want)
			}
			if got != want {
				t.Errorf("FindProject = %q, want %q", got, want)
			}
		})
	}
}

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNestedGitReadOnly: a repository nested anywhere in the project
// keeps its configuration and hooks, as the project's own does.
func TestNestedGitReadOnly(t *testing.T) {
	f := newFixture(t, nil)
	for _, d := range []string{"vendor/lib/.git/hooks", "a/b/c/.git", "fixtures/r.git/objects", "fixtures/r.git/refs"} {
		mkdir(t, filepath.Join(f.project, d))
	}
	write(t, f.project+"/vendor/lib/.git/config", "[core]\n")
	write(t, f.project+"/fixtures/r.git/HEAD", "ref: refs/heads/main\n")
	write(t, f.project+"/wt.git", "gitdir: elsewhere\n")
	for _, script := range []string{
		"echo '[core] fsmonitor = evil' >> vendor/lib/.git/config",
		"touch vendor/lib/.git/hooks/post-checkout",
		"touch a/b/c/.git/config",
		"echo '[core] pager = evil' > fixtures/r.git/config",
		"mv vendor/lib vendor/l2",
		"rm -rf a/b/c/.git",
	} {
		if out, code := f.run(t, "/bin/sh", script); code == 0 {
			t.Errorf("%q succeeded: %q", script, out)
		}
	}
	if b, _ := os.ReadFile(f.project + "/vendor/lib/.git/config"); string(b) != "[core]\n" {
		t.Errorf("the nested config changed: %q", b)
	}
	out, code := f.run(t, "/bin/sh", "echo ok > vendor/lib/README && echo ok > a/b/c/x && echo done")
	if code != 0 || !strings.Contains(out, "done") {
		t.Errorf("the nested repositories' work trees: exit %d, %q", code, out)
	}
}

// TestNewGitSetAside: a repository a command creates in the project is
// set aside once the command ends, and its result says so; git run
// outside there later runs none of its configuration.
func TestNewGitSetAside(t *testing.T) {
	f := newFixture(t, nil)
	mkdir(t, f.project+"/existing")
	marker := filepath.Join(f.outside, "FSMONITOR_RAN")
	gitInit := "git init -q . && git config core.fsmonitor 'touch " + marker + "; false'"
	// plant makes the current directory a repository by hand, its config
	// naming it as its work tree; git status there, or in the project
	// below it, then runs the fsmonitor.
	plant := "echo 'ref: refs/heads/main' > HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = %s\\n\\tfsmonitor = touch " +
		marker + "; false\\n' \"$PWD\" > config"
	hasGit := exec.Command("git", "--version").Run() == nil
	for _, tc := range []struct {
		name, script, entry string
		git, bare           bool
	}{
		{"git init in a new directory", "mkdir -p src && cd src && " + gitInit, "src/.git", true, false},
		{"git init in an existing directory", "cd existing && " + gitInit, "existing/.git", true, false},
		{"git init deep", "mkdir -p d/e/f && cd d/e/f && " + gitInit, "d/e/f/.git", true, false},
		{"a bare repository", "git init -q --bare b.git", "b.git", true, true},
		{"a gitdir file", "mkdir -p w && echo 'gitdir: " + f.tmp + "/evil' > w/.git", "w/.git", false, false},
		{"a link", "mkdir -p l && ln -s " + f.tmp + "/evil l/.git", "l/.git", false, false},
		{"made by a process left behind", "mkdir -p late; (sleep 0.2; mkdir -p late/.git/hooks) >/dev/null 2>&1 &", "late/.git", false, false},
		{"linked objects and refs", "mkdir -p k/.o k/.r/heads && cd k && ln -s .o objects && ln -s .r refs && " + plant, "k", false, true},
		{"the project made a repository", "mkdir objects refs refs/heads && " + plant, "", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.git && !hasGit {
				t.Skip("git is not installed")
			}
			start := time.Now()
			out, code := f.run(t, "/bin/sh", tc.script)
			if code != 0 {
				t.Fatalf("exit %d: %q", code, out)
			}
			said := f.sb.Explain(out, f.project, start)
			if !strings.Contains(said, "created a") || !strings.Contains(said, filepath.Join(f.project, tc.entry)+",") {
				t.Errorf("the result says %q", said)
			}
			gone := filepath.Join(f.project, tc.entry)
			if tc.bare {
				gone = filepath.Join(gone, "HEAD")
			}
			if _, err := os.Lstat(gone); err == nil {
				t.Errorf("%s is still there", gone)
			}
		})
	}
	if hasGit {
		for _, d := range []string{"src", "existing", "d/e/f", "b.git", "k", "."} {
			exec.Command("git", "-C", filepath.Join(f.project, d), "status").Run()
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("git outside the sandbox ran the planted fsmonitor")
		}
	}
	if said := f.sb.Explain("", f.project, time.Now()); said != "" {
		t.Errorf("told again: %q", said)
	}
}

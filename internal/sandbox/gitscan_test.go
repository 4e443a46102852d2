package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tree makes files and directories (names ending in /) under a new
// directory, and returns it with its links resolved.
func gitTree(t *testing.T, paths ...string) string {
	t.Helper()
	b, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			mkdir(t, filepath.Join(b, p))
			continue
		}
		mkdir(t, filepath.Dir(filepath.Join(b, p)))
		write(t, filepath.Join(b, p), "x\n")
	}
	return b
}

func bare(t *testing.T, dir string) {
	t.Helper()
	mkdir(t, filepath.Join(dir, "objects"))
	mkdir(t, filepath.Join(dir, "refs"))
	write(t, filepath.Join(dir, "HEAD"), "ref: refs/heads/main\n")
}

// TestGitScan: the control entries that exist are found, wherever they
// are; trees of dependencies are not entered.
func TestGitScan(t *testing.T) {
	b := gitTree(t, ".git/config", "src/lib/.git/config", "wt/.git", "deep/a/b/c/d/.git/HEAD", "node_modules/x/.git/config", "plain/file")
	bare(t, filepath.Join(b, "fixtures/repo.git"))
	s := scanGit(b)
	var got []string
	for c := range s.controls {
		r, _ := filepath.Rel(b, c)
		got = append(got, r)
	}
	slices.Sort(got)
	want := []string{".git", "deep/a/b/c/d/.git", "fixtures/repo.git", "src/lib/.git", "wt/.git"}
	if !slices.Equal(got, want) || !s.complete {
		t.Errorf("controls %q (complete %v), want %q", got, s.complete, want)
	}
}

// TestGitChanges: every way a command can leave a new control entry is
// seen after it; nothing that was there before is.
func TestGitChanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, b string)
		want []string // relative to the root; nil for none
	}{
		{"git init in a new directory", func(t *testing.T, b string) { mkdir(t, b+"/src/.git/hooks") }, []string{"src/.git"}},
		{"git init in an existing directory", func(t *testing.T, b string) { mkdir(t, b+"/old/.git") }, []string{"old/.git"}},
		{"git init at the root", func(t *testing.T, b string) { mkdir(t, b+"/.git") }, []string{".git"}},
		{"a deep new directory", func(t *testing.T, b string) { mkdir(t, b+"/x/y/z/w/.git") }, []string{"x/y/z/w/.git"}},
		{"a deep existing directory", func(t *testing.T, b string) { mkdir(t, b+"/old/a/b/.git") }, []string{"old/a/b/.git"}},
		{"a gitdir file", func(t *testing.T, b string) { write(t, b+"/old/.git", "gitdir: /tmp/evil\n") }, []string{"old/.git"}},
		{"a link", func(t *testing.T, b string) { os.Symlink("/tmp/evil", b+"/old/.git") }, []string{"old/.git"}},
		{"a bare repository in a new directory", func(t *testing.T, b string) { bare(t, b+"/r.git") }, []string{"r.git"}},
		{"an existing directory made a bare repository", func(t *testing.T, b string) { bare(t, b+"/old/a") }, []string{"old/a"}},
		{"a directory renamed into place", func(t *testing.T, b string) {
			mkdir(t, b+"/old/tmp/.git")
			os.Rename(b+"/old/tmp", b+"/moved")
		}, []string{"moved/.git"}},
		{"mtime set back", func(t *testing.T, b string) {
			mkdir(t, b+"/old/a/.git")
			past := time.Now().Add(-48 * time.Hour)
			os.Chtimes(b+"/old/a", past, past)
			os.Chtimes(b+"/old", past, past)
		}, []string{"old/a/.git"}},
		{"a file named like one", func(t *testing.T, b string) { write(t, b+"/old/git", "x") }, nil},
		{"in node_modules", func(t *testing.T, b string) { mkdir(t, b+"/node_modules/x/.git") }, nil},
		{"nothing", func(t *testing.T, b string) {}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := gitTree(t, "old/a/b/", "old/keep/.git/config", "node_modules/")
			bare(t, filepath.Join(b, "old/fixture.git"))
			past := time.Now().Add(-time.Hour)
			for _, d := range []string{"old/a/b", "old/a", "old/keep", "old", "node_modules", ""} {
				os.Chtimes(filepath.Join(b, d), past, past)
			}
			s := scanGit(b)
			start := time.Now()
			tc.make(t, b)
			var got []string
			for _, p := range s.changes(start) {
				r, _ := filepath.Rel(b, p)
				got = append(got, r)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("found %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSetAside: what is set aside is out of git's sight and said so; a
// second one gets a name of its own.
func TestSetAside(t *testing.T) {
	b := gitTree(t, "src/.git/config", "src/.git.forge-quarantine/", "w/.git")
	bare(t, filepath.Join(b, "r.git"))
	g := newGitGuard()
	g.scans[b] = &gitScan{root: b, dirs: map[string]bool{b: true, b + "/src": true, b + "/w": true}, controls: map[string]bool{}}
	w := &gitWatch{start: time.Now(), roots: []string{b}, done: make(chan struct{})}
	g.running[w] = true
	g.settle(w)
	told := g.tell(time.Time{})
	for _, p := range []string{"src/.git.forge-quarantine-2/config", "w/.git.forge-quarantine", "r.git/HEAD.forge-quarantine"} {
		if _, err := os.Lstat(filepath.Join(b, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{"src/.git", "w/.git", "r.git/HEAD"} {
		if _, err := os.Lstat(filepath.Join(b, p)); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if len(told) != 3 || !strings.Contains(strings.Join(told, "\n"), "renamed "+b+"/src/.git to "+b+"/src/.git.forge-quarantine-2") {
		t.Errorf("told %q", told)
	}
	for _, line := range told {
		if !strings.HasPrefix(line, "[sandbox] ") || !strings.Contains(line, "!git init") {
			t.Errorf("line %q", line)
		}
	}
	if again := g.tell(time.Time{}); len(again) != 0 {
		t.Errorf("told twice: %q", again)
	}
}

// TestPrepareAdopts: a repository that appears while no sandboxed command
// runs is the person's (!git init): kept, and read-only from then on; one
// that appears while one runs is set aside.
func TestPrepareAdopts(t *testing.T) {
	b := gitTree(t, "src/", "lib/")
	past := time.Now().Add(-time.Hour)
	for _, d := range []string{"src", "lib", ""} {
		os.Chtimes(filepath.Join(b, d), past, past)
	}
	g := newGitGuard()
	_, w := g.prepare([]string{b})
	g.settle(w)
	mkdir(t, b+"/src/.git")
	controls, w := g.prepare([]string{b})
	if !slices.Contains(controls, b+"/src/.git") || len(g.tell(time.Time{})) != 0 {
		t.Errorf("the person's repository: controls %q", controls)
	}
	mkdir(t, b+"/lib/.git")
	controls, w2 := g.prepare([]string{b})
	if slices.Contains(controls, b+"/lib/.git") {
		t.Errorf("a repository made while a command ran was kept: %q", controls)
	}
	g.settle(w)
	g.settle(w2)
	if told := g.tell(time.Time{}); len(told) != 1 || !strings.Contains(told[0], b+"/lib/.git") {
		t.Errorf("told %q", told)
	}
	if _, err := os.Lstat(b + "/src/.git"); err != nil {
		t.Errorf("the person's repository was moved: %v", err)
	}
}

// TestFinish: at exit, a command still running is checked as things are,
// what it made is set aside and told once, and its own end later changes
// nothing.
func TestFinish(t *testing.T) {
	b := gitTree(t, "src/")
	past := time.Now().Add(-time.Hour)
	for _, d := range []string{"src", ""} {
		os.Chtimes(filepath.Join(b, d), past, past)
	}
	g := newGitGuard()
	_, w := g.prepare([]string{b})
	mkdir(t, b+"/src/.git")
	told := g.finish(10 * time.Millisecond)
	if len(told) != 1 || !strings.Contains(told[0], b+"/src/.git") {
		t.Errorf("told %q", told)
	}
	if _, err := os.Lstat(b + "/src/.git"); err == nil {
		t.Error("src/.git is still there")
	}
	g.settle(w) // the command's end, after: nothing more, no panic
	g.cancel(w)
	if again := g.tell(time.Time{}); len(again) != 0 {
		t.Errorf("told again: %q", again)
	}
}

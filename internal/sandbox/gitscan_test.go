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

// linkedBare makes dir a bare repository whose objects and refs are
// links, to .o and .r, which git follows.
func linkedBare(t *testing.T, dir string) {
	t.Helper()
	mkdir(t, filepath.Join(dir, ".o"))
	mkdir(t, filepath.Join(dir, ".r"))
	for link, to := range map[string]string{"objects": ".o", "refs": ".r"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dir, "HEAD"), "ref: refs/heads/main\n")
}

// TestGitScan: the control entries that exist are found, wherever they
// are; trees of dependencies are not entered.
func TestGitScan(t *testing.T) {
	b := gitTree(t, ".git/config", "src/lib/.git/config", "wt/.git", "deep/a/b/c/d/.git/HEAD", "node_modules/x/.git/config", "plain/file")
	bare(t, filepath.Join(b, "fixtures/repo.git"))
	linkedBare(t, filepath.Join(b, "fixtures/linked"))
	s := scanGit(b)
	var got []string
	for c := range s.controls {
		r, _ := filepath.Rel(b, c)
		got = append(got, r)
	}
	slices.Sort(got)
	want := []string{".git", "deep/a/b/c/d/.git", "fixtures/linked", "fixtures/repo.git", "src/lib/.git", "wt/.git"}
	if !slices.Equal(got, want) || !s.complete || s.rootGit {
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
		{"a worktree's git directory: HEAD and a commondir", func(t *testing.T, b string) {
			mkdir(t, b+"/wt")
			write(t, b+"/wt/HEAD", "ref: refs/heads/main\n")
			write(t, b+"/wt/commondir", "../old/.git.forge-quarantine\n")
		}, []string{"wt"}},
		{"an existing directory made a bare repository", func(t *testing.T, b string) { bare(t, b+"/old/a") }, []string{"old/a"}},
		{"linked objects and refs", func(t *testing.T, b string) { linkedBare(t, b+"/old/a") }, []string{"old/a"}},
		{"links not yet pointing anywhere", func(t *testing.T, b string) {
			os.Symlink("/nowhere/o", b+"/old/a/objects")
			os.Symlink("/nowhere/r", b+"/old/a/refs")
			write(t, b+"/old/a/HEAD", "ref: refs/heads/main\n")
		}, []string{"old/a"}},
		{"an executable file for objects", func(t *testing.T, b string) {
			bare(t, b+"/old/a")
			os.Remove(b + "/old/a/objects")
			write(t, b+"/old/a/objects", "")
			os.Chmod(b+"/old/a/objects", 0o755)
		}, []string{"old/a"}},
		{"the root made a bare repository", func(t *testing.T, b string) { bare(t, b) }, []string{"."}},
		{"the root made one with links", func(t *testing.T, b string) { linkedBare(t, b) }, []string{"."}},
		{"the root made one, and a repository in it", func(t *testing.T, b string) {
			bare(t, b)
			mkdir(t, b+"/old/b/.git")
		}, []string{".", "old/b/.git"}},
		{"plain files named objects and refs", func(t *testing.T, b string) {
			for _, n := range []string{"HEAD", "objects", "refs"} {
				write(t, b+"/old/a/"+n, "x")
			}
		}, nil},
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

// TestGitRootAlreadyBare: a root that is a bare repository when first
// scanned stays as it is, writable: it is neither a control entry nor
// set aside when it changes.
func TestGitRootAlreadyBare(t *testing.T) {
	b := gitTree(t, "src/")
	bare(t, b)
	past := time.Now().Add(-time.Hour)
	for _, d := range []string{"src", "objects", "refs", ""} {
		os.Chtimes(filepath.Join(b, d), past, past)
	}
	s := scanGit(b)
	if !s.rootGit || len(s.controls) != 0 {
		t.Fatalf("rootGit %v, controls %v", s.rootGit, s.controls)
	}
	start := time.Now()
	write(t, b+"/config", "[core]\n")
	mkdir(t, b+"/src/.git")
	if got := s.changes(start); !slices.Equal(got, []string{b + "/src/.git"}) {
		t.Errorf("found %q, want only src/.git", got)
	}
}

// TestPrepareAdoptsRoot: a root the person makes a bare repository while
// no sandboxed command runs is kept, and not made read-only.
func TestPrepareAdoptsRoot(t *testing.T) {
	b := gitTree(t, "src/")
	past := time.Now().Add(-time.Hour)
	for _, d := range []string{"src", ""} {
		os.Chtimes(filepath.Join(b, d), past, past)
	}
	g := newGitGuard()
	_, w := g.prepare([]string{b})
	g.settle(w)
	bare(t, b)
	controls, w := g.prepare([]string{b})
	g.settle(w)
	if slices.Contains(controls, b) || !g.scans[b].rootGit || len(g.tell(time.Time{})) != 0 {
		t.Errorf("controls %q, rootGit %v", controls, g.scans[b].rootGit)
	}
	if _, err := os.Lstat(b + "/HEAD"); err != nil {
		t.Errorf("the person's HEAD was moved: %v", err)
	}
}

// TestSetAside: what is set aside is out of git's sight and said so; a
// second one gets a name of its own.
func TestSetAside(t *testing.T) {
	b := gitTree(t, "src/.git/config", "src/.git.forge-quarantine/", "w/.git")
	bare(t, filepath.Join(b, "r.git"))
	bare(t, b)
	g := newGitGuard()
	g.scans[b] = &gitScan{root: b, dirs: map[string]bool{b: true, b + "/src": true, b + "/w": true}, controls: map[string]bool{}}
	w := &gitWatch{start: time.Now(), roots: []string{b}, done: make(chan struct{})}
	g.running[w] = true
	g.settle(w)
	told := g.tell(time.Time{})
	for _, p := range []string{"src/.git.forge-quarantine-2/config", "w/.git.forge-quarantine", "r.git/HEAD.forge-quarantine", "HEAD.forge-quarantine"} {
		if _, err := os.Lstat(filepath.Join(b, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{"src/.git", "w/.git", "r.git/HEAD", "HEAD"} {
		if _, err := os.Lstat(filepath.Join(b, p)); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if len(told) != 4 || !strings.Contains(strings.Join(told, "\n"), "renamed "+b+"/src/.git to "+b+"/src/.git.forge-quarantine-2") {
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

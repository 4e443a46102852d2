package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tree makes the directories and files of paths (a trailing / is a
// directory) under a fresh directory and returns it, links resolved.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		full := filepath.Join(base, p)
		if p[len(p)-1] == '/' {
			mkdir(t, full)
			continue
		}
		mkdir(t, filepath.Dir(full))
		write(t, full, "x")
	}
	return base
}

func TestPlaces(t *testing.T) {
	b := tree(t, "proj/.git/config", "proj/.git/hooks/", "proj/.git/modules/sub/config", "proj/.git/modules/sub/hooks/",
		"proj/.forge/config.yaml", "proj/sub/.forge/", "proj/src/", "proj/secrets/", "tmp/", "cache/inner/",
		"home/.ssh/id_rsa", "home/.npmrc", "forgecfg/hooks/check.sh", "proj/tools/hook.sh")
	if err := os.Symlink(filepath.Join(b, "proj"), filepath.Join(b, "link")); err != nil {
		t.Fatal(err)
	}
	p := Policy{Mode: ModeWorkspace,
		Writable: []string{filepath.Join(b, "link"), filepath.Join(b, "missing")},
		Caches:   []string{filepath.Join(b, "tmp"), filepath.Join(b, "cache"), filepath.Join(b, "cache/inner")},
		ReadOnly: []string{filepath.Join(b, "forgecfg"), filepath.Join(b, "proj/tools/hook.sh"), filepath.Join(b, "proj/gone.sh")},
		Hidden:   []string{filepath.Join(b, "home/.ssh"), filepath.Join(b, "home/.ssh/id_rsa"), filepath.Join(b, "home/.npmrc"), filepath.Join(b, "proj/secrets"), filepath.Join(b, "proj")},
	}
	got := p.places(filepath.Join(b, "proj/sub"), nil, nil)
	rel := func(l []string) []string {
		out := make([]string, len(l))
		for i, x := range l {
			out[i], _ = filepath.Rel(b, x)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		got, want []string
	}{
		// The link is resolved, a missing place left out, a cache inside
		// another one folded into it.
		{"writable", rel(got.Writable), []string{"proj", "tmp", "cache"}},
		{"read-only", rel(got.ReadOnly), []string{"proj/.forge", "proj/.git", "proj/sub/.forge", "proj/tools/hook.sh"}},
		// The project itself cannot be hidden; a key inside a hidden
		// directory needs no mount of its own.
		{"hidden directories", rel(got.HideDirs), []string{"home/.ssh", "proj/secrets"}},
		{"hidden files", rel(got.HideFiles), []string{"home/.npmrc"}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}

	p.Mode = ModeReadOnly
	ro := p.places(filepath.Join(b, "proj"), nil, nil)
	if len(ro.Writable) != 0 || len(ro.ReadOnly) != 0 || !slices.Equal(rel(ro.Scratch), []string{"tmp", "cache"}) {
		t.Errorf("read-only mode: writable %q, read-only %q, scratch %q", ro.Writable, ro.ReadOnly, rel(ro.Scratch))
	}
	pub := p.Places(filepath.Join(b, "proj"))
	if len(pub.Hidden) != 3 {
		t.Errorf("Places hides %q", pub.Hidden)
	}
}

func TestMakeCaches(t *testing.T) {
	b := tree(t, "home/go/pkg/", "home/.cargo/")
	home := filepath.Join(b, "home")
	p := Policy{Mode: ModeWorkspace, Caches: []string{home + "/go/pkg/mod", home + "/.npm", home + "/.cargo/registry", home + "/.m2/repository"}}
	p.makeCaches(home)
	for dir, want := range map[string]bool{"go/pkg/mod": true, ".cargo/registry": true, ".npm": false, ".m2": false} {
		if _, err := os.Stat(filepath.Join(home, dir)); (err == nil) != want {
			t.Errorf("%s made: %v, want %v", dir, err == nil, want)
		}
	}
	p.Mode = ModeReadOnly
	p.Caches = []string{home + "/.cargo/git"}
	p.makeCaches(home)
	if _, err := os.Stat(home + "/.cargo/git"); err == nil {
		t.Error("read-only mode made a cache")
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes() {
		if got, err := ParseMode(m); err != nil || string(got) != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseMode("loose"); err == nil {
		t.Error("an unknown mode was accepted")
	}
	if _, err := New(Policy{Mode: "loose"}, Options{Executable: "/x"}); err == nil {
		t.Error("New took an unknown mode")
	}
	if _, err := New(Policy{AllowedHosts: []string{"https://x"}}, Options{Executable: "/x"}); err == nil {
		t.Error("New took a URL for a host")
	}
}

func TestWithProxy(t *testing.T) {
	env := []string{"PATH=/bin", "HTTP_PROXY=http://corp:3128", "https_proxy=x", "no_proxy=corp", "HOME=/h"}
	got := withProxy(env, "")
	if !slices.Equal(got, []string{"PATH=/bin", "HOME=/h"}) {
		t.Errorf("without a proxy: %q", got)
	}
	got = withProxy(env, "http://127.0.0.1:9")
	for _, want := range []string{"HTTP_PROXY=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"NO_PROXY=localhost,127.0.0.1,::1"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q lacks %s", got, want)
		}
	}
	if slices.Contains(got, "HTTP_PROXY=http://corp:3128") {
		t.Errorf("the person's proxy stayed: %q", got)
	}
}

// TestViews: the read-only view and the moved project share the proxy
// and leave the sandbox they come from as it was.
func TestViews(t *testing.T) {
	s, err := New(Policy{Writable: []string{"/a", "/b"}, AllowedHosts: []string{"go.dev"}}, Options{Executable: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	ro := s.WithMode(ModeReadOnly)
	moved := s.WithWritable("/a", "/c")
	if !ro.ReadOnly() || s.ReadOnly() || ro.proxy != s.proxy || moved.proxy != s.proxy {
		t.Error("a view does not share the proxy, or changed the mode")
	}
	if !slices.Equal(moved.Policy().Writable, []string{"/c", "/b"}) || !slices.Equal(s.Policy().Writable, []string{"/a", "/b"}) {
		t.Errorf("moved %q, original %q", moved.Policy().Writable, s.Policy().Writable)
	}
	if w := s.WithWritable("/z", "/c").Policy().Writable; !slices.Equal(w, []string{"/a", "/b", "/c"}) {
		t.Errorf("moving a place that is not there: %q", w)
	}
}

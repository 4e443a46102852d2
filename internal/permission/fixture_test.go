package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// fixture is a directory tree for path tests:
//
//	work/             the working directory
//	  src/a.go
//	  src/esc -> ../../outside
//	  secrets/k
//	  public -> secrets
//	  out -> <outside>
//	  in -> src
//	  dangling -> <outside>/new.txt (missing)
//	  loop1 -> loop2 -> loop1
//	outside/x
//	home/.ssh/id
//	extra/            an allowed root
type fixture struct {
	wd, outside, home, extra string
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{
		wd:      filepath.Join(base, "work"),
		outside: filepath.Join(base, "outside"),
		home:    filepath.Join(base, "home"),
		extra:   filepath.Join(base, "extra"),
	}
	for _, d := range []string{"work/src", "work/secrets", "outside", "home/.ssh", "extra"} {
		must(t, os.MkdirAll(filepath.Join(base, d), 0o755))
	}
	for _, f := range []string{"work/src/a.go", "work/secrets/k", "outside/x", "home/.ssh/id"} {
		must(t, os.WriteFile(filepath.Join(base, f), []byte("x"), 0o644))
	}
	for link, target := range map[string]string{
		"work/src/esc":  "../../outside",
		"work/public":   "secrets",
		"work/out":      fx.outside,
		"work/in":       "src",
		"work/dangling": filepath.Join(fx.outside, "new.txt"),
		"work/loop1":    "loop2",
		"work/loop2":    "loop1",
	} {
		must(t, os.Symlink(target, filepath.Join(base, link)))
	}
	return fx
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// expand replaces $WD, $OUT, $HOME and $EXTRA with the fixture's directories.
func (fx fixture) expand(s string) string {
	return strings.NewReplacer("$WD", fx.wd, "$OUT", fx.outside, "$HOME", fx.home, "$EXTRA", fx.extra).Replace(s)
}

// getenv is the environment of the fixture's shell lines: HOME and
// XDG_CONFIG_HOME are set, nothing else is.
func (fx fixture) getenv(name string) (string, bool) {
	switch name {
	case "HOME":
		return fx.home, true
	case "XDG_CONFIG_HOME":
		return filepath.Join(fx.home, ".config"), true
	}
	return "", false
}

// policy builds a Policy over the fixture.
func (fx fixture) policy(t testing.TB, mode Mode, allow, deny []string) *Policy {
	t.Helper()
	ex := func(rules []string) []string {
		out := make([]string, len(rules))
		for i, r := range rules {
			out[i] = fx.expand(r)
		}
		return out
	}
	p, err := New(Config{Mode: mode, Allow: ex(allow), Deny: ex(deny), WorkingDir: fx.wd, AllowedRoots: []string{fx.extra},
		Home: fx.home, Getenv: fx.getenv})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func bash(cmd string) Call { return Call{Tool: "Bash", Args: tools.Args{"command": cmd}} }
func read(p string) Call   { return Call{Tool: "Read", Args: tools.Args{"file_path": p}, ReadOnly: true} }
func edit(p string) Call {
	return Call{Tool: "Edit", Args: tools.Args{"file_path": p}, EditsFiles: true}
}
func write(p string) Call {
	return Call{Tool: "Write", Args: tools.Args{"file_path": p, "content": "x"}, EditsFiles: true}
}
func fetch(u string) Call { return Call{Tool: "WebFetch", Args: tools.Args{"url": u}, ReadOnly: true} }
func mcp(tool string, args tools.Args) Call {
	return Call{Tool: tool, Args: args}
}

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHiddenNames: files named like credentials (.env*, *.pem) outside
// the project are hidden, however a command reads them; the project's own
// stay visible; one the person makes later is hidden from the next
// command on.
func TestHiddenNames(t *testing.T) {
	f := newFixture(t, nil)
	secret := map[string]string{
		"outside/other/.env":         "SECRET_ENV",
		"outside/other/.env.local":   "SECRET_LOCAL",
		"outside/a/b/key.pem":        "SECRET_PEM",
		"home/proj2/.env.production": "SECRET_PROD",
		"tmp/cloned/.env":            "SECRET_TMP",
	}
	visible := map[string]string{
		"project/.env":                "OWN_ENV",
		"project/sub/.env.test":       "OWN_TEST",
		"outside/other/env.go":        "NOT_A_SECRET",
		"outside/node_modules/x/.env": "SKIPPED_TREE",
		"outside/1/2/3/4/5/.env":      "TOO_DEEP",
	}
	for _, m := range []map[string]string{secret, visible} {
		for p, v := range m {
			mkdir(t, filepath.Dir(filepath.Join(f.base, p)))
			write(t, filepath.Join(f.base, p), v+"\n")
		}
	}
	p := f.sb.Policy()
	p.HiddenNames, p.NameRoots = []string{".env*", "*.pem"}, []string{f.base, f.home}
	sb, err := New(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.sb = sb
	for rel, v := range secret {
		abs := filepath.Join(f.base, rel)
		for _, script := range []string{
			"cat " + abs,
			"python3 -c 'print(open(\"" + abs + "\").read())'",
			"cp " + abs + " copy && cat copy",
			"ln -s " + abs + " link && cat link; rm -f link",
			"cd " + filepath.Dir(abs) + " && cat ./" + filepath.Base(abs),
			"mv " + abs + " " + f.tmp + "/moved; cat " + f.tmp + "/moved",
			"grep -r . " + filepath.Dir(abs),
		} {
			if out, _ := f.run(t, "/bin/sh", script); strings.Contains(out, v) {
				t.Errorf("%q read %s: %q", script, rel, out)
			}
		}
	}
	out, _ := f.run(t, "/bin/sh", "cat .env sub/.env.test "+f.outside+"/other/env.go")
	for _, v := range []string{"OWN_ENV", "OWN_TEST", "NOT_A_SECRET"} {
		if !strings.Contains(out, v) {
			t.Errorf("%s is hidden: %q", v, out)
		}
	}
	later := filepath.Join(f.outside, "other", "new.pem")
	write(t, later, "SECRET_LATER\n")
	if out, _ := f.run(t, "/bin/sh", "cat "+later); strings.Contains(out, "SECRET_LATER") {
		t.Errorf("a file made after the first command is visible: %q", out)
	}
	for rel, v := range secret {
		if b, _ := os.ReadFile(filepath.Join(f.base, rel)); string(b) != v+"\n" {
			t.Errorf("%s changed: %q", rel, b)
		}
	}
}

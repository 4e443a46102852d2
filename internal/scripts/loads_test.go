package scripts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoads follows scripts into what they load beside them: a shell
// library sourced from where the hook runs or beside the script, Python
// modules and relative imports, JavaScript requires and imports, through
// several levels; a program (a NUL in its bytes) and a name through a
// variable are not followed.
func TestLoads(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"scripts/fmt.sh":        "#!/bin/bash\nsource scripts/lib.sh\n. ./common.sh\nfmt_all\n",
		"scripts/lib.sh":        "fmt_all() { python3 tools/deep.py; }\n",
		"scripts/common.sh":     "x=1\n",
		"tools/deep.py":         "import os, helper\nfrom pkg.sub import thing\nfrom . import sibling\nfrom .rel import y\n",
		"tools/helper.py":       "import second_level\n",
		"tools/srv.mjs":         "import x from './util.js'\nconst y = require(\"../shared/z\")\nimport('./lazy')\nimport 'left-pad'\n",
		"tools/noext":           "#!/usr/bin/env -S python3 -u\nimport plain\n",
		"bin/prog":              "\x7fELF\x00\x00source evil.sh\n",
		"scripts/dynamic.sh":    "source \"$(dirname \"$0\")/hidden.sh\"\n",
		"tools/second_level.py": "",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(names ...string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = filepath.Join(root, n)
		}
		return out
	}
	p := Place{Dir: root}
	tests := []struct {
		name    string
		scripts []string
		want    []string // among the loads
		notWant []string
	}{
		{"shell sources, then what the library runs, then its imports",
			at("scripts/fmt.sh"),
			at("scripts/lib.sh", "scripts/common.sh", "tools/deep.py", "tools/helper.py", "tools/helper", "tools/pkg.py", "tools/pkg", "tools/second_level.py", "tools/sibling.py", "tools/rel.py"),
			at("scripts/fmt.sh")},
		{"javascript relative imports with the files a resolver tries",
			at("tools/srv.mjs"),
			at("tools/util.js", "shared/z.js", "shared/z.ts", "tools/lazy.js", "tools/lazy/index.js"),
			at("tools/left-pad.js")},
		{"a #! line through env -S", at("tools/noext"), at("tools/plain.py"), nil},
		{"a program is not read", at("bin/prog"), nil, at("evil.sh", "bin/evil.sh")},
		{"a library named through a variable is not guessed", at("scripts/dynamic.sh"), nil, at("scripts/hidden.sh")},
		{"a missing script loads nothing", at("nothere.sh"), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Loads(tt.scripts, p)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %s in %v", strings.TrimPrefix(w, root), trim(got, root))
				}
			}
			for _, w := range tt.notWant {
				if slices.Contains(got, w) {
					t.Errorf("unexpected %s in %v", strings.TrimPrefix(w, root), trim(got, root))
				}
			}
			checkPaths(t, "", got)
		})
	}
}

func trim(paths []string, root string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.TrimPrefix(p, root)
	}
	return out
}

// A script that sources itself, or two that source each other, end.
func TestLoadsEndsOnCycles(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a.sh"), filepath.Join(root, "b.sh")
	os.WriteFile(a, []byte("source b.sh\nsource a.sh\n"), 0o644)
	os.WriteFile(b, []byte("source a.sh\n"), 0o644)
	got := Loads([]string{a}, Place{Dir: root})
	if !slices.Equal(got, []string{b}) {
		t.Errorf("got %v, want only b.sh", got)
	}
}

// FuzzLoadsOf reads any text as each language's script: it never panics
// and names only absolute, clean paths.
func FuzzLoadsOf(f *testing.F) {
	for _, seed := range []string{
		"import os, sys\n", "from ... import a, (b)\n", "from .x.y import *\n", "import a as b, c\n",
		"require('./x')", "import y from \"../z\"", "import('./lazy')", "#!/usr/bin/env -S node --x\n",
		"#!/bin/sh\nsource ./x\n", "from . import\n", "import\n", "#!", "\x00",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, name := range []string{"/p/x.sh", "/p/x.py", "/p/x.js", "/p/noext"} {
			checkPaths(t, text, loadsOf(name, text, place))
		}
	})
}

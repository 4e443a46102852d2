package scripts

import (
	"path/filepath"
	"strings"
)

// Runners: programs that run what a file in the directory says (make's
// Makefile, npm's package.json) or a script by another verb (uv run x.py).

// makefile is make: the makefiles it reads run their recipes.
func makefile(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	st = st.fork()
	var files []arg
	o := opts{valued: "fCIoW", long: []string{"--file", "--makefile", "--directory", "--include-dir", "--old-file",
		"--assume-old", "--what-if", "--new-file", "--assume-new"}}
	o.skip(args, func(op option) {
		switch op.name {
		case "-f", "--file", "--makefile":
			files = append(files, op.val)
		case "-C", "--directory":
			st.move(op.val)
		}
	})
	f.addAll(st, files, "GNUmakefile", "makefile", "Makefile")
	return nil, st
}

// justfile is just: its justfile's recipes run.
func justfile(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	st = st.fork()
	var files []arg
	o := opts{valued: "fd", long: []string{"--justfile", "--working-directory"}}
	o.skip(args, func(op option) {
		switch op.name {
		case "-f", "--justfile":
			files = append(files, op.val)
		case "-d", "--working-directory":
			st.move(op.val)
		}
	})
	f.addAll(st, files, "justfile", "Justfile", ".justfile")
	return nil, st
}

// addAll adds the files given, or else the defaults a program looks for.
func (f *finder) addAll(st *state, given []arg, defaults ...string) {
	if len(given) == 0 {
		for _, d := range defaults {
			f.add(st, d)
		}
		return
	}
	for _, g := range given {
		if g.ok {
			f.add(st, g.s)
		}
	}
}

// goRun is go run: the files or the package directory it builds and runs.
func goRun(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	st = st.fork()
	chdir := func(op option) {
		if op.name == "-C" || op.name == "--C" {
			st.move(op.val)
		}
	}
	o := opts{single: true, long: []string{"-C", "--C", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile", "-o",
		"-p", "-exec", "-overlay", "-pkgdir", "-toolexec", "-buildmode", "-compiler", "-gccgoflags", "-installsuffix",
		"-pgo", "-coverpkg", "-covermode"}}
	ops := o.skip(args, chdir)
	if len(ops) == 0 || !ops[0].ok || ops[0].s != "run" {
		return nil, st
	}
	ops = o.skip(ops[1:], chdir)
	for i, a := range ops {
		if !a.ok {
			break
		}
		if strings.HasSuffix(a.s, ".go") {
			f.add(st, a.s)
			continue
		}
		if i == 0 && (a.s == "." || pathLike(a.s)) {
			f.add(st, strings.TrimSuffix(a.s, "/..."))
		}
		break
	}
	return nil, st
}

// uvRun is uv run: a command in the project's environment, a .py file run
// by Python, or a module with -m.
func uvRun(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	ops := opts{}.skip(args, nil)
	if len(ops) == 0 || !ops[0].ok || ops[0].s != "run" {
		return nil, st
	}
	st = st.fork()
	module := false
	o := opts{valued: "pw", long: []string{"--with", "--with-editable", "--with-requirements", "--python", "--project",
		"--directory", "--env-file", "--group", "--only-group", "--no-group", "--extra", "--package", "--index",
		"--default-index", "--index-url", "--extra-index-url", "--find-links", "--config-file", "--cache-dir",
		"--exclude-newer", "--prerelease", "--resolution", "--link-mode", "--python-platform", "--color"}}
	rest := o.skip(ops[1:], func(op option) {
		switch op.name {
		case "--directory":
			st.move(op.val)
		case "-m", "--module":
			module = true
		}
	})
	switch {
	case len(rest) == 0 || !rest[0].ok:
		return nil, st
	case module:
		f.pyModule(st, rest[0].s)
		return nil, st
	case strings.HasSuffix(rest[0].s, ".py") || strings.HasSuffix(rest[0].s, ".pyw"):
		return append([]arg{{s: "python", ok: true}}, rest...), st
	}
	return rest, st
}

// bunRun is bun [run] TARGET: a script file, or a package.json script.
func bunRun(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	st = st.fork()
	o := opts{long: []string{"--cwd", "--config", "--preload", "--env-file"}}
	on := func(op option) {
		switch {
		case op.name == "--cwd":
			st.move(op.val)
		case op.name == "--preload" && op.val.ok && pathLike(op.val.s):
			f.add(st, op.val.s)
		}
	}
	ops := o.skip(args, on)
	if len(ops) > 0 && ops[0].ok && ops[0].s == "run" {
		ops = o.skip(ops[1:], on)
	}
	if len(ops) > 0 && ops[0].ok && scriptFile(ops[0].s) {
		f.add(st, ops[0].s)
		return nil, st
	}
	f.add(st, "package.json")
	return nil, st
}

// denoRun is deno run FILE, deno FILE, or deno task (its config's tasks).
func denoRun(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	o := opts{valued: "c", long: []string{"--config", "--import-map", "--location", "--cert", "--lock", "--env-file"}}
	ops := o.skip(args, nil)
	if len(ops) == 0 || !ops[0].ok {
		return nil, st
	}
	switch ops[0].s {
	case "eval", "repl":
		return nil, st
	case "task":
		f.addAll(st, nil, "deno.json", "deno.jsonc", "package.json")
		return nil, st
	case "run", "serve", "test", "bench":
		ops = o.skip(ops[1:], nil)
	}
	if len(ops) > 0 && ops[0].ok && scriptFile(ops[0].s) && !strings.Contains(ops[0].s, "://") {
		f.add(st, ops[0].s)
	}
	return nil, st
}

// packageJSON is npm, pnpm or yarn: every verb but exec runs what the
// package.json's scripts say (run, test, start, and install's lifecycle
// scripts); exec runs the command after it.
func packageJSON(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	st = st.fork()
	o := opts{valued: "C", long: []string{"--prefix", "--dir", "--cwd", "--workspace", "--filter"}}
	on := func(op option) {
		switch op.name {
		case "-C", "--prefix", "--dir", "--cwd":
			st.move(op.val)
		}
	}
	ops := o.skip(args, on)
	// Their scripts and exec run the programs of the node_modules there.
	f.add(st, "node_modules")
	if len(ops) > 0 && ops[0].ok && (ops[0].s == "exec" || ops[0].s == "x") {
		return o.skip(ops[1:], on), st
	}
	f.add(st, "package.json")
	return nil, st
}

// npx runs a package's program, the node_modules' of where it runs first.
func npx(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	f.add(st, "node_modules")
	return nil, st
}

// scriptFile says a runner's operand names a file: it has a path or a
// script's extension, where a bare word is a script's or a package's name.
func scriptFile(s string) bool {
	if strings.ContainsRune(s, '/') {
		return true
	}
	switch filepath.Ext(s) {
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		return true
	}
	return false
}

// splitSpace splits s at runs of spaces and tabs.
func splitSpace(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
}

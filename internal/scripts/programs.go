package scripts

import (
	"path/filepath"
	"strings"
)

// handler works out what a known program does with its arguments (args
// after the program's name). It returns the command it runs in turn, with
// the state that command starts in (a wrapper such as env or timeout), or
// nil when there is nothing more to follow.
type handler func(f *finder, args []arg, stdin arg, st *state, depth int) ([]arg, *state)

// run works out what the command args runs; stdin is the file its
// standard input comes from, when known.
func (f *finder) run(args []arg, stdin arg, st *state, depth int) {
	for len(args) > 0 && depth <= maxDepth {
		depth++
		prog := args[0]
		if !prog.ok || prog.s == "" {
			return
		}
		h := lookup(prog.s)
		// A program named by its path runs that file, unless it is a known
		// interpreter of the system's (/usr/bin/python3): then its script does.
		if strings.ContainsRune(prog.s, '/') && (h == nil || !filepath.IsAbs(prog.s)) {
			f.add(st, prog.s)
		}
		if h == nil {
			return
		}
		args, st = h(f, args[1:], stdin, st, depth)
	}
}

// lookup finds the handler of a program by its base name, also without a
// version (python3.12, lua5.4) or .exe; nil for a program whose arguments
// say nothing of what it runs.
func lookup(prog string) handler {
	name := strings.TrimSuffix(filepath.Base(prog), ".exe")
	if h := program(name); h != nil {
		return h
	}
	if bare := strings.TrimRight(name, "0123456789."); bare != name && bare != "" {
		return program(bare)
	}
	return nil
}

// program is the handler of a program's exact name.
func program(name string) handler {
	switch name {
	case "cd", "pushd":
		return cd
	case "popd":
		return popd
	case "source", ".":
		return source
	case "eval":
		return eval
	case "make", "gmake":
		return makefile
	case "just":
		return justfile
	case "go":
		return goRun
	case "uv":
		return uvRun
	case "bun":
		return bunRun
	case "deno":
		return denoRun
	case "npm", "pnpm", "yarn":
		return packageJSON
	case "npx", "bunx", "pnpx":
		return npx
	case "poetry", "pipenv", "pdm", "hatch", "rye", "pixi":
		return subcommand("run", opts{})
	case "bundle":
		return subcommand("exec", opts{})
	case "conda", "mamba", "micromamba":
		return subcommand("run", opts{valued: "np", long: []string{"--name", "--prefix", "--cwd"}})
	}
	if w, ok := wrappers[name]; ok {
		return w.handler
	}
	if in, ok := interpreters[name]; ok {
		return in.handler
	}
	return nil
}

// cd moves the line's directory; where to is unknown for cd - or a word
// not known before the line runs.
func cd(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	ops := opts{}.skip(args, nil)
	switch {
	case len(ops) == 0:
		st.dir = f.home
	case !ops[0].ok || ops[0].s == "-":
		st.dir = ""
	default:
		st.dir = st.join(ops[0].s)
	}
	return nil, st
}

// popd returns to a directory this walk does not follow.
func popd(_ *finder, _ []arg, _ arg, st *state, _ int) ([]arg, *state) {
	st.dir = ""
	return nil, st
}

// move changes the directory to the one to names; unknown when to is.
func (st *state) move(to arg) {
	dir := ""
	if to.ok {
		dir = st.join(to.s)
	}
	st.dir = dir
}

// join is p taken from the state's directory; "" when that is unknown.
func (st *state) join(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if st.dir == "" {
		return ""
	}
	return filepath.Join(st.dir, p)
}

// source runs a file in the shell itself.
func source(f *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
	if ops := (opts{}).skip(args, nil); len(ops) > 0 && ops[0].ok {
		f.add(st, ops[0].s)
	}
	return nil, st
}

// eval runs its words joined as a line.
func eval(f *finder, args []arg, _ arg, st *state, depth int) ([]arg, *state) {
	words := make([]string, 0, len(args))
	for _, a := range args {
		if !a.ok {
			return nil, st
		}
		words = append(words, a.s)
	}
	f.line(strings.Join(words, " "), st, depth)
	return nil, st
}

// subcommand is a runner (poetry run, bundle exec) whose verb runs the
// command after its options.
func subcommand(verb string, o opts) handler {
	return func(_ *finder, args []arg, _ arg, st *state, _ int) ([]arg, *state) {
		ops := opts{}.skip(args, nil)
		if len(ops) == 0 || !ops[0].ok || ops[0].s != verb {
			return nil, st
		}
		st = st.fork()
		rest := o.skip(ops[1:], func(op option) {
			if op.name == "--cwd" && op.val.ok {
				st.dir = st.join(op.val.s)
			}
		})
		return rest, st
	}
}

// pathLike says a module argument names a file (./x.js) rather than a
// package found by name.
func pathLike(s string) bool {
	return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || filepath.IsAbs(s)
}

// pyModule notes the files python -m NAME imports first from the
// directory it runs in: NAME.py or the package directory NAME, whether or
// not they exist yet (a file created there would shadow an installed one).
func (f *finder) pyModule(st *state, name string) {
	top, _, _ := strings.Cut(name, ".")
	if !validName(top) {
		return
	}
	f.add(st, top+".py")
	f.add(st, top)
}

package scripts

import "slices"

// interpreter is a program that runs a script file, or text given in an
// option, or a script read from standard input.
type interpreter struct {
	opts
	// code are the options whose value is the program's text: then no
	// operand is a script.
	code []string
	// module are the options whose value is a Python module (python -m).
	module []string
	// files are the options whose value is the file it runs instead of an
	// operand (awk -f, php -f).
	files []string
	// loads are files it runs too, before the script (bash --rcfile).
	loads []string
	// requires are modules it loads first; a path among them is a file
	// (node -r ./x.js), a bare name a package.
	requires []string
	// chdir are the options whose value is the directory it runs in (ruby -C).
	chdir []string
	// shell: -c makes the first operand a shell line, -s reads the script
	// from standard input.
	shell bool
	// textFirst: without a code or file option, the first operand is the
	// program's text (awk '{print}', sed s/a/b/).
	textFirst bool
}

var (
	shellInterpreter = interpreter{opts: opts{valued: "oO", long: []string{"--rcfile", "--init-file"}, plus: true},
		loads: []string{"--rcfile", "--init-file"}, shell: true}
	pythonInterpreter = interpreter{opts: opts{valued: "cmWX"}, code: []string{"-c"}, module: []string{"-m"}}
	nodeInterpreter   = interpreter{
		opts: opts{valued: "eprC", long: []string{"--eval", "--print", "--require", "--import", "--loader",
			"--experimental-loader", "--conditions", "--title", "--input-type", "--env-file", "--inspect-port"}},
		code:     []string{"-e", "--eval", "-p", "--print"},
		requires: []string{"-r", "--require", "--import", "--loader", "--experimental-loader"},
	}
	awkInterpreter = interpreter{opts: opts{valued: "fvF", long: []string{"--file", "--assign", "--field-separator"}},
		files: []string{"-f", "--file"}, textFirst: true}
)

// interpreters are the programs that run a script, by name without a
// version.
var interpreters = map[string]interpreter{
	"sh": shellInterpreter, "bash": shellInterpreter, "dash": shellInterpreter, "zsh": shellInterpreter,
	"ksh": shellInterpreter, "mksh": shellInterpreter, "ash": shellInterpreter, "yash": shellInterpreter,
	"posh": shellInterpreter, "fish": shellInterpreter,
	"python": pythonInterpreter, "pypy": pythonInterpreter, "py": pythonInterpreter,
	"node": nodeInterpreter, "nodejs": nodeInterpreter, "tsx": nodeInterpreter, "ts-node": nodeInterpreter,
	"ruby":    {opts: opts{valued: "eICrE"}, code: []string{"-e"}, requires: []string{"-r"}, chdir: []string{"-C"}},
	"perl":    {opts: opts{valued: "eEI"}, code: []string{"-e", "-E"}},
	"php":     {opts: opts{valued: "rRBEfFcdzt"}, code: []string{"-r", "-R", "-B", "-E"}, files: []string{"-f", "-F"}},
	"lua":     {opts: opts{valued: "el"}, code: []string{"-e"}},
	"luajit":  {opts: opts{valued: "el"}, code: []string{"-e"}},
	"Rscript": {opts: opts{valued: "e"}, code: []string{"-e"}},
	"awk":     awkInterpreter, "gawk": awkInterpreter, "mawk": awkInterpreter, "nawk": awkInterpreter,
	"sed": {opts: opts{valued: "efl", long: []string{"--expression", "--file", "--line-length"}},
		code: []string{"-e", "--expression"}, files: []string{"-f", "--file"}, textFirst: true},
}

// handler finds the script the interpreter runs.
func (in interpreter) handler(f *finder, args []arg, stdin arg, st *state, depth int) ([]arg, *state) {
	var line, fromStdin, given bool
	rest := in.skip(args, func(op option) {
		switch {
		case slices.Contains(in.code, op.name):
			given = true
			if op.val.ok && st.dir != "" && slices.Equal(in.module, pythonInterpreter.module) {
				// python -c 'import x' imports x from the directory it runs in.
				for _, p := range pythonImports(st.dir, op.val.s) {
					f.add(st, p)
				}
			}
		case slices.Contains(in.module, op.name):
			given = true
			if op.val.ok {
				f.pyModule(st, op.val.s)
			}
		case slices.Contains(in.files, op.name):
			given = true
			if op.val.ok {
				f.add(st, op.val.s)
			}
		case slices.Contains(in.loads, op.name) && op.val.ok:
			f.add(st, op.val.s)
		case slices.Contains(in.requires, op.name) && op.val.ok && pathLike(op.val.s):
			f.add(st, op.val.s)
		case slices.Contains(in.chdir, op.name):
			st = st.fork()
			st.move(op.val)
		case in.shell && op.name == "-c":
			line = true
		case in.shell && op.name == "-s":
			fromStdin = true
		}
	})
	switch {
	case line:
		if len(rest) > 0 && rest[0].ok {
			f.line(rest[0].s, st.fork(), depth)
		}
	case given || in.textFirst:
	case fromStdin || len(rest) == 0 || rest[0].ok && rest[0].s == "-":
		if stdin.ok {
			f.add(st, stdin.s)
		}
	case rest[0].ok:
		f.add(st, rest[0].s)
	}
	return nil, st
}

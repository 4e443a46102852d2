// Package scripts works out which files a command runs: the program named
// by its path, the script an interpreter is given (bash x.sh, node
// dir/x.js), the module python -m imports, the Makefile make reads, also
// through cd, wrappers such as env, timeout or uv run, and sh -c. forge
// protects these files from the agent's edits and counts them in what
// trusting a project covers, so that the command a hook, a plugin or an
// MCP server names cannot be changed behind the person's back.
//
// The answer is what can be known before the command runs: a word built
// from a command substitution or an unknown variable names no file.
package scripts

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Place is where a command starts and what its words can expand to.
type Place struct {
	// Dir is the absolute directory the command starts in; relative paths
	// are taken from it.
	Dir string
	// Home expands ~ and $HOME; "" when unknown.
	Home string
	// Env gives the other variables the command sees; nil knows none.
	Env func(string) (string, bool)
}

// maxDepth bounds sh -c 'sh -c ...' and nested blocks: past it the rest of
// the line is not looked into.
const maxDepth = 32

// Line returns the files the shell line runs, as sh -c LINE would: each an
// absolute, cleaned path, in the order the line names them. A path may not
// exist yet (creating it would change what runs) and may be a directory
// (a Python package). A line that does not parse names no file.
func Line(line string, p Place) []string {
	f := newFinder(p)
	f.line(line, f.start(p), 0)
	return f.out
}

// Argv returns the files the command runs when argv is executed directly,
// argv[0] being the program (relative to p.Dir when it holds a slash).
func Argv(argv []string, p Place) []string {
	f := newFinder(p)
	args := make([]arg, len(argv))
	for i, a := range argv {
		args[i] = arg{s: a, ok: true}
	}
	f.run(args, arg{}, f.start(p), 0)
	return f.out
}

// finder gathers the files of one command.
type finder struct {
	home string
	env  func(string) (string, bool)
	out  []string
	seen map[string]bool
}

func newFinder(p Place) *finder {
	return &finder{home: p.Home, env: p.Env, seen: map[string]bool{}}
}

// state is what the commands of a line so far have changed: the directory
// (after cd) and the variables assigned.
type state struct {
	dir  string // "" once a cd went somewhere unknown
	vars map[string]arg
}

func (f *finder) start(p Place) *state {
	dir := ""
	if filepath.IsAbs(p.Dir) {
		dir = filepath.Clean(p.Dir)
	}
	return &state{dir: dir, vars: map[string]arg{}}
}

// fork is a copy for a subshell, whose cd and assignments stay inside it.
func (st *state) fork() *state {
	vars := make(map[string]arg, len(st.vars))
	for k, v := range st.vars {
		vars[k] = v
	}
	return &state{dir: st.dir, vars: vars}
}

// add notes the file p names from the state's directory.
func (f *finder) add(st *state, p string) {
	if p == "" {
		return
	}
	if !filepath.IsAbs(p) {
		if st.dir == "" {
			return
		}
		p = filepath.Join(st.dir, p)
	}
	p = filepath.Clean(p)
	if !f.seen[p] {
		f.seen[p] = true
		f.out = append(f.out, p)
	}
}

// line parses src as a shell line and walks it.
func (f *finder) line(src string, st *state, depth int) {
	if depth > maxDepth {
		return
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return
	}
	f.stmts(file.Stmts, st, depth+1)
}

func (f *finder) stmts(list []*syntax.Stmt, st *state, depth int) {
	for _, s := range list {
		f.stmt(s, st, depth)
	}
}

// stmt walks one statement: the commands it runs, in every branch, and
// the commands of the substitutions in its words.
func (f *finder) stmt(s *syntax.Stmt, st *state, depth int) {
	if s == nil || depth > maxDepth {
		return
	}
	depth++
	for _, r := range s.Redirs {
		if r.Word != nil {
			f.substs(r.Word, st, depth)
		}
		if r.Hdoc != nil {
			f.substs(r.Hdoc, st, depth)
		}
	}
	if s.Background {
		st = st.fork()
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		f.call(c, s.Redirs, st, depth)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			f.stmt(c.X, st.fork(), depth)
			f.stmt(c.Y, st.fork(), depth)
			return
		}
		f.stmt(c.X, st, depth)
		f.stmt(c.Y, st, depth)
	case *syntax.Subshell:
		f.stmts(c.Stmts, st.fork(), depth)
	case *syntax.Block:
		f.stmts(c.Stmts, st, depth)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			f.stmts(ic.Cond, st, depth)
			f.stmts(ic.Then, st, depth)
		}
	case *syntax.WhileClause:
		f.stmts(c.Cond, st, depth)
		f.stmts(c.Do, st, depth)
	case *syntax.ForClause:
		f.substs(c.Loop, st, depth)
		f.stmts(c.Do, st, depth)
	case *syntax.CaseClause:
		if c.Word != nil {
			f.substs(c.Word, st, depth)
		}
		for _, it := range c.Items {
			for _, w := range it.Patterns {
				f.substs(w, st, depth)
			}
			f.stmts(it.Stmts, st, depth)
		}
	case *syntax.FuncDecl:
		f.stmt(c.Body, st.fork(), depth)
	case *syntax.DeclClause:
		for _, a := range c.Args {
			f.substs(a, st, depth)
			f.assign(a, st)
		}
	case *syntax.TimeClause:
		f.stmt(c.Stmt, st, depth)
	case *syntax.CoprocClause:
		f.stmt(c.Stmt, st.fork(), depth)
	case *syntax.TestClause:
		f.substs(c.X, st, depth)
	case *syntax.ArithmCmd:
		f.substs(c.X, st, depth)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			f.substs(x, st, depth)
		}
	}
}

// substs walks the commands of the command and process substitutions in
// node, each in a subshell of its own.
func (f *finder) substs(node syntax.Node, st *state, depth int) {
	if node == nil || depth > maxDepth {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			f.stmts(x.Stmts, st.fork(), depth+1)
			return false
		case *syntax.ProcSubst:
			f.stmts(x.Stmts, st.fork(), depth+1)
			return false
		}
		return true
	})
}

// call handles a simple command: assignments alone set variables; a
// command runs, its standard input perhaps read from a file.
func (f *finder) call(c *syntax.CallExpr, redirs []*syntax.Redirect, st *state, depth int) {
	for _, a := range c.Assigns {
		f.substs(a, st, depth)
	}
	for _, w := range c.Args {
		f.substs(w, st, depth)
	}
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			f.assign(a, st)
		}
		return
	}
	args := make([]arg, len(c.Args))
	for i, w := range c.Args {
		args[i].s, args[i].ok = f.literal(w, st)
	}
	f.run(args, stdinFile(redirs, f, st), st, depth)
}

// assign records NAME=VALUE; a value not known before the line runs makes
// the variable unknown.
func (f *finder) assign(a *syntax.Assign, st *state) {
	if a.Name == nil || a.Naked {
		return
	}
	v := arg{ok: true}
	switch {
	case a.Append || a.Index != nil || a.Array != nil:
		v.ok = false
	case a.Value != nil:
		v.s, v.ok = f.literal(a.Value, st)
	}
	st.vars[a.Name.Value] = v
}

// stdinFile is the file a statement's standard input is read from (< f),
// unknown when there is none.
func stdinFile(redirs []*syntax.Redirect, f *finder, st *state) arg {
	var in arg
	for _, r := range redirs {
		if r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0") && r.Word != nil {
			in.s, in.ok = f.literal(r.Word, st)
		}
	}
	return in
}

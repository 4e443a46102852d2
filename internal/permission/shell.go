package permission

import (
	"errors"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// maxShellDepth bounds bash -c 'bash -c ...' nesting; deeper lines are
// treated as unknown text.
const maxShellDepth = 8

// shellLine is a command line split into the simple commands rules judge.
type shellLine struct {
	commands []command
	// paths are the words that may name files, as patterns over absolute
	// paths; nil when the line was split without knowing where it runs.
	paths []pathRef
	// globDots: the line may make globs match names that start with a dot.
	globDots bool
	// parseErr is set when the line does not parse: allow rules with a
	// pattern never allow it, and commands hold its rough pieces for deny
	// rules.
	parseErr error
}

// parsers lends bash parsers: building one costs more than a short line's
// parse, and a Parser may be reused but not shared.
type parsers struct{ pool sync.Pool }

// get lends a parser; put gives it back once its tree is no longer used.
func (ps *parsers) get() *syntax.Parser {
	if pr, ok := ps.pool.Get().(*syntax.Parser); ok {
		return pr
	}
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
}

func (ps *parsers) put(pr *syntax.Parser) { ps.pool.Put(pr) }

// splitLine splits a shell line into its simple commands: across && ||
// ;| & and newlines, into subshells, blocks, substitutions, loops,
// conditionals and function bodies, and through bash -c, eval and
// wrappers such as timeout or sudo. Constructs that evaluate text as code
// or change the shell become commands no pattern rule allows. With env,
// it also works out which files the line's words may name.
func (ps *parsers) splitLine(src string, env *shellEnv) shellLine {
	s := splitter{parsers: ps, out: make([]command, 0, 4)}
	if env != nil {
		s.paths = newPathTracker(*env)
	}
	if err := s.line(src, lineContext{}); err != nil {
		return shellLine{commands: roughCommands(src), parseErr: err}
	}
	l := shellLine{commands: s.out}
	if s.paths != nil {
		l.paths, l.globDots = s.paths.resolve(), s.paths.globDots
	}
	return l
}

// Bounds on what is parsed: the parser and the walk recurse once per level
// of nesting, and a line nesting a million levels would exhaust the stack,
// which Go cannot recover from. Only a long line can nest deeply, so a
// short one is parsed at once, a long one is scanned first, and one over
// 64 KiB is not parsed at all.
const (
	shortLine    = 16 << 10
	maxLine      = 64 << 10
	maxNesting   = 512
	maxOperators = 8192
)

// Lines forge refuses to read: one that nests too deeply, and those that
// bash reads differently from the parser: a carriage return (part of a
// word for bash, a space for the parser) and a backslash in a comment
// (the parser continues the comment's line into the next).
var (
	errTooComplex     = errors.New("it is too long or nests too deeply to check")
	errCarriageReturn = errors.New("it holds a carriage return, which bash reads as part of a word")
	errCommentEscape  = errors.New("a comment in it holds a backslash, which forge's parser and bash read differently")
	errHeredocEscape  = errors.New("a here-document in it continues a line with a backslash, which forge's parser and bash read differently")
)

// tooComplex over-estimates how deeply src nests: brackets of any kind,
// and operators, which chain into nested nodes.
func tooComplex(src string) bool {
	depth, ops := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[', '`':
			if depth++; depth > maxNesting {
				return true
			}
		case ')', '}', ']':
			depth = max(depth-1, 0)
		case '|', '&', '+', '-', '*', '/', '%', '<', '>', '=', '!', ',', '?', ':', '^':
			if ops++; ops > maxOperators {
				return true
			}
		}
	}
	return false
}

// lineContext is what an inner line inherits from the command running it.
type lineContext struct {
	depth int
	// unallowable is the outer command's reason no pattern rule may allow
	// it (a redirection, a risky variable), which its inner commands share.
	unallowable string
}

// splitter collects the commands of a line and of the lines inside it.
type splitter struct {
	parsers *parsers
	out     []command
	paths   *pathTracker // nil when paths are not wanted
	// env are the variables the command being read sets before it.
	env []string
}

// line parses src and collects its commands.
func (s *splitter) line(src string, ctx lineContext) error {
	if len(src) > maxLine || len(src) > shortLine && tooComplex(src) {
		return errTooComplex
	}
	if strings.IndexByte(src, '\r') >= 0 {
		return errCarriageReturn
	}
	pr := s.parsers.get()
	defer s.parsers.put(pr)
	f, err := pr.Parse(strings.NewReader(src), "")
	if err != nil {
		return err
	}
	// writes[i] says the node at depth i runs under a redirection of output
	// to a file, up to the nearest substitution (whose output goes to the
	// outer command, not to the file): kept per depth, so that a deep line
	// costs no more per node than a shallow one.
	writes := make([]bool, 0, 32)
	var odd error
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			writes = writes[:len(writes)-1]
			return true
		}
		if c, ok := n.(*syntax.Comment); ok && strings.Contains(c.Text, "\\") {
			odd = errCommentEscape // the parser joins the next line to it; bash does not
		}
		if r, ok := n.(*syntax.Redirect); ok && r.Hdoc != nil && r.Pos().IsValid() && r.Pos().Offset() < uint(len(src)) &&
			strings.Contains(src[r.Pos().Offset():], "\\\n") {
			odd = errHeredocEscape // where the document ends, the parser and bash disagree
		}
		if leaf(n) {
			return false // nothing runs inside: skip it (and its f(nil))
		}
		writes = append(writes, writesHere(n, writes))
		why := ctx.unallowable
		if writes[len(writes)-1] {
			why = whyRedirect
		}
		s.visit(n, src, why, ctx)
		return true
	})
	return odd
}

// visit records what the node n of the line src runs, and whatever in it
// keeps rules with a pattern from allowing the line. Only the constructs
// listed are known to run nothing but their parts: any other (coproc,
// a zsh or mksh form) is never allowed by such a rule.
func (s *splitter) visit(n syntax.Node, src, why string, ctx lineContext) {
	switch n := n.(type) {
	case *syntax.Stmt:
		if n.Cmd == nil && len(n.Redirs) > 0 && why == whyRedirect {
			s.add(command{text: source(src, n), unallowable: whyRedirect}) // "> file" truncates it
		}
		s.redirects(n, src)
		for _, r := range n.Redirs {
			if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc {
				s.paths.word(r.Word, src)
			}
		}
	case *syntax.CallExpr:
		s.call(n, src, why, ctx)
	case *syntax.ParamExp:
		if risk := paramRisk(n); risk != "" {
			s.construct(source(src, n), risk, risk != whySets(paramName(n)))
		}
		if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
			s.paths.assign(n.Param.Value, nil, src)
		}
	case *syntax.ArithmExp:
		s.arithmetic(src, n, n.X)
	case *syntax.ArithmCmd:
		s.arithmetic(src, n, n.X)
	case *syntax.LetClause:
		// Always: the parser reads let's words as arithmetic where bash
		// splits them first (let 0&0X0 backgrounds let 0 and runs 0X0).
		s.construct(source(src, n), whyArithmetic, true)
		s.arithmetic(src, nil, n.Exprs...)
	case *syntax.CStyleLoop:
		s.arithmetic(src, n, n.Init, n.Cond, n.Post)
	case *syntax.TestClause:
		s.testClause(source(src, n), n.X)
	case *syntax.ForClause:
		s.loop(n, src)
	case *syntax.DeclClause:
		s.decl(n, src)
	case *syntax.FuncDecl:
		s.construct(source(src, n), whyFunction, false)
	case *syntax.ExtGlob:
		if strings.ContainsAny(n.Pattern.Value, "$`") { // kept as text by the parser, expanded by bash
			s.construct(source(src, n), whyUnknown, true)
		}
	case *syntax.File, *syntax.Comment, *syntax.Word, *syntax.DblQuoted, *syntax.CmdSubst, *syntax.ProcSubst,
		*syntax.BinaryCmd, *syntax.Subshell, *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.WordIter,
		*syntax.CaseClause, *syntax.CaseItem, *syntax.TimeClause, *syntax.Redirect, *syntax.Assign,
		*syntax.BraceExp, *syntax.ArrayExpr, *syntax.ArrayElem,
		*syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm,
		*syntax.BinaryTest, *syntax.UnaryTest, *syntax.ParenTest:
		// nothing runs in these but their parts, checked where they are used
	default:
		s.construct(source(src, n), whyUnknown, true)
	}
}

// paramName is the name a parameter expansion expands, or "".
func paramName(p *syntax.ParamExp) string {
	if p.Param == nil {
		return ""
	}
	return p.Param.Value
}

// loop checks a for or select loop: its variable is assigned each word.
func (s *splitter) loop(f *syntax.ForClause, src string) {
	if f.Select {
		s.construct(source(src, f), "reads a choice from its input into a variable, which no allow rule covers", false)
		return
	}
	it, ok := f.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil {
		return
	}
	if !plainVariable(it.Name.Value) {
		s.construct(source(src, f), whySets(it.Name.Value), false)
	}
	if !it.InPos.IsValid() || len(it.Items) == 0 {
		s.paths.assign(it.Name.Value, nil, src) // for x; do: the positional parameters
	}
	for _, item := range it.Items {
		s.paths.assign(it.Name.Value, item, src)
	}
}

// leaf reports whether no command can hide inside n: a literal, a
// comment, or a word made only of literals and single quotes. Skipping
// them halves the walk of a typical line.
func leaf(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Lit, *syntax.SglQuoted, *syntax.Comment:
		return true
	case *syntax.Word:
		for _, part := range n.Parts {
			switch part.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			default:
				return false
			}
		}
		return true
	}
	return false
}

// add records c.
func (s *splitter) add(c command) {
	c.prepare()
	s.out = append(s.out, c)
}

// call records a simple command and whatever runs inside it.
func (s *splitter) call(ce *syntax.CallExpr, src, why string, ctx lineContext) {
	text := source(src, ce)
	s.assignments(ce, src, text, &why)
	if len(ce.Args) == 0 { // only assignments
		return
	}
	s.env = s.env[:0]
	for _, a := range ce.Assigns {
		if a.Name != nil {
			s.env = append(s.env, a.Name.Value)
		}
	}
	ws := make([]word, len(ce.Args))
	for i, w := range ce.Args {
		ws[i] = evalWord(w)
		if i > 0 || strings.IndexByte(ws[i].deny, '/') >= 0 || !ws[i].literal() {
			s.paths.word(w, src) // a program named without a slash is found on the PATH
		}
	}
	if first := ws[0]; first.literal() && (first.allow == "cd" || first.allow == "pushd") {
		switch len(ce.Args) {
		case 1:
			s.paths.cd(nil, src, true)
		case 2:
			s.paths.cd(ce.Args[1], src, false)
		default:
			s.paths.cd(nil, src, false) // options: somewhere
		}
	}
	s.words(ws, text, why, ctx)
}

// decl records declare, typeset, local, export and readonly: no rule
// with a pattern allows them, and their assignments can evaluate
// subscripts in the names they are given.
func (s *splitter) decl(d *syntax.DeclClause, src string) {
	hidden := false
	for _, a := range d.Args {
		if a.Naked && a.Value != nil { // an option: -n makes a reference, -i makes values arithmetic
			if opt := evalWord(a.Value); !opt.literal() || strings.HasPrefix(opt.allow, "-") && strings.ContainsAny(opt.allow, "ni") {
				hidden = true
			}
		}
		if a.Name != nil {
			value := a.Value
			if a.Index != nil || a.Array != nil || value == nil {
				value = nil
			}
			s.paths.assign(a.Name.Value, value, src)
			s.paths.word(a.Value, src)
		}
		switch {
		case a.Name != nil && a.Index != nil && !literalArithm(a.Index):
			hidden = true
		case a.Naked && a.Name == nil && a.Value != nil && !evalWord(a.Value).literal():
			hidden = true // a name known only when it runs
		}
	}
	s.construct(source(src, d), whyDeclare, hidden)
}

// words records the command ws (text as written) and the commands it runs.
func (s *splitter) words(ws []word, text, why string, ctx lineContext) {
	full := ws
	var wrapped []word
	for {
		if w := ws[0]; w.literal() {
			switch path.Base(w.allow) {
			case "exec", "builtin":
				if why == "" {
					why, _ = builtinRisk(path.Base(w.allow), ws)
				}
			}
		}
		u, ok := unwrap(ws)
		if !ok {
			break
		}
		if u.risky != "" && why == "" {
			why = whyEnv(u.risky)
		}
		s.env = append(s.env, u.sets...)
		if u.split != nil { // env -S 'line'
			from := len(s.out)
			s.inner(*u.split, full, text, why, ctx)
			if len(s.out) == from { // an empty line: env itself runs, printing the environment
				s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why})
			}
			return
		}
		if u.line != nil { // watch, su -c: a line their shell runs
			s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why, own: ownWords(ws, u)})
			s.inner(*u.line, full, text, why, ctx)
			return
		}
		if u.separate { // sudo X, xargs X: both must be allowed
			s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why, own: ownWords(ws, u)})
			ws, full, wrapped = u.rest, u.rest, nil
			continue
		}
		ws, wrapped = u.rest, full
	}
	name := path.Base(ws[0].allow)
	if !ws[0].literal() {
		name = ""
	}
	s.program(name, ws, wrapped, text, why, ctx)
}

// program records the command ws, whose program is name ("" when known
// only at run time), and the commands it runs: a shell's -c line, eval's
// words, a trap's handler, find's -exec commands, git's configured ones.
func (s *splitter) program(name string, ws, wrapped []word, text, why string, ctx lineContext) {
	risk, hidden := builtinRisk(name, ws)
	if why == "" {
		why = risk
	}
	s.trackEffects(name, ws, wrapped != nil, text)
	if opt, value := execOption(ws); opt != "" {
		if why == "" {
			why = whyExecOption(opt)
		}
		if value != nil {
			s.forDeny(*value, text) // deny rules see what the option runs
		}
	}
	c := command{text: text, words: ws, wrapped: wrapped, unallowable: why, hidden: hidden, env: slices.Clone(s.env)}
	switch {
	case isShell(name):
		if str, hasC, ok := shellCommandString(ws); !ok {
			c.unallowable, c.hidden = whyHidden, true
		} else if hasC && str != nil && !readsLikeBash(name) {
			// zsh's glob qualifiers and ${(e)...}, fish's (cmd), ksh's
			// ${ cmd;} run code where bash's grammar sees plain words.
			c.unallowable, c.hidden = whyOtherShell, true
			s.forDeny(*str, text)
		} else if hasC && str != nil {
			s.inner(*str, ws, text, why, ctx)
			return
		} else {
			c.runner = true
		}
	case name == "eval":
		s.add(c)
		s.inner(joinWords(ws[1:]), ws, text, whyEval, ctx)
		return
	case name == "" && why == "":
		c.unallowable = whyDynamicProgram
	case name == "trap":
		if handler, ok := trapHandler(ws); ok {
			s.inner(handler, ws, text, whyTrap, ctx) // the handler runs later, in this shell
		}
	case name == "alias":
		for _, def := range aliasValues(ws) {
			s.inner(def, ws, text, whyBuiltin, ctx)
		}
	case name == "find":
		s.find(ws, text, why, ctx)
	case name == "git":
		s.git(ws, &c, text, ctx)
	}
	s.add(c)
}

// trackEffects tells the path tracker what a command does to the shell's
// place and variables: a cd it was not given plainly goes somewhere
// unknown, builtins that assign set their names to unknown values, and
// shopt may make globs match dot files.
func (s *splitter) trackEffects(name string, ws []word, wrapped bool, src string) {
	if s.paths == nil {
		return
	}
	switch name {
	case "cd", "pushd":
		if wrapped {
			s.paths.cd(nil, src, false)
		}
	case "popd":
		s.paths.cd(nil, src, false)
	case "shopt":
		s.paths.globDots = true
	case "read", "mapfile", "readarray", "getopts", "printf", "declare", "typeset", "local", "export",
		"readonly", "unset", "let":
		for _, w := range ws[1:] {
			if name, _, _ := strings.Cut(w.allow, "="); w.literal() && validName(name) {
				s.paths.assign(name, nil, src)
			}
		}
	}
}

// joinWords makes one word of ws joined by spaces, as eval does.
func joinWords(ws []word) word {
	out := word{allow: joinAllow(ws), deny: joinDeny(ws)}
	for _, w := range ws {
		out.dynamic = out.dynamic || w.dynamic
		out.expands = out.expands || w.expands
		out.splits = out.splits || w.splits
	}
	return out
}

// inner records the commands of the shell line str that runner (the words
// of bash -c, eval, env -S, trap) runs.
func (s *splitter) inner(str word, runner []word, text, why string, ctx lineContext) {
	if !str.literal() || ctx.depth >= maxShellDepth {
		reason := whyHidden
		if str.literal() {
			reason = whyDepth
		}
		s.add(command{text: text, words: runner, unallowable: reason, hidden: true})
		return
	}
	inner := splitter{parsers: s.parsers, paths: s.paths}
	if err := inner.line(str.allow, lineContext{depth: ctx.depth + 1, unallowable: why}); err != nil {
		s.add(command{text: text, words: runner, unallowable: whyNoParse, runner: true})
		s.out = append(s.out, roughCommands(str.allow)...)
		return
	}
	s.out = append(s.out, inner.out...)
}

// forDeny records the commands of the line str for deny rules only: a
// variable's value the program may run (GIT_PAGER), which the person
// allowed by allowing the command, but a deny rule must still see.
func (s *splitter) forDeny(str word, text string) {
	from := len(s.out)
	s.inner(str, nil, text, "", lineContext{})
	for i := from; i < len(s.out); i++ {
		s.out[i].denyOnly = true
	}
}

// writesHere says whether node n, below the nodes whose answers are
// above, runs under a redirection of output to a file.
func writesHere(n syntax.Node, above []bool) bool {
	switch n := n.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst:
		return false
	case *syntax.Stmt:
		for _, r := range n.Redirs {
			if redirectsToFile(r) {
				return true
			}
		}
	}
	return len(above) > 0 && above[len(above)-1]
}

// redirectsToFile reports whether r writes a file other than /dev/null or a
// terminal stream; duplicating a descriptor (2>&1) writes none.
func redirectsToFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrInOut,
		syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		w := evalWord(r.Word)
		if !w.literal() {
			return true
		}
		switch w.allow {
		case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
			return false
		}
		return true
	case syntax.DplOut:
		w := evalWord(r.Word)
		if !w.literal() {
			return true
		}
		fd := strings.TrimSuffix(w.allow, "-") // >&- closes, >&3- moves a descriptor
		return fd != "" && strings.Trim(fd, "0123456789") != ""
	}
	return false
}

// hasParam reports whether n holds a parameter or arithmetic expansion.
func hasParam(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.ArithmExp:
			found = true
		}
		return !found
	})
	return found
}

// source returns the text of n in src.
func source(src string, n syntax.Node) string {
	start, end := n.Pos(), n.End()
	if !start.IsValid() || !end.IsValid() {
		return ""
	}
	a, b := start.Offset(), end.Offset()
	if a > b || b > uint(len(src)) {
		return ""
	}
	return src[a:b]
}

// roughCommands cuts a line that does not parse at its likely command
// boundaries, so deny rules can still look at each piece.
func roughCommands(src string) []command {
	cut := func(r rune) bool { return strings.ContainsRune(";&|()`{}\n", r) }
	var out []command
	for _, piece := range strings.FieldsFunc(src, cut) {
		piece = strings.TrimPrefix(strings.TrimSpace(piece), "$")
		fields := strings.Fields(piece)
		if len(fields) == 0 {
			continue
		}
		ws := make([]word, len(fields))
		for i, f := range fields {
			ws[i] = staticWord(strings.Trim(f, `"'`))
		}
		c := command{text: piece, words: ws, denyOnly: true, unallowable: whyNoParse}
		c.prepare()
		out = append(out, c)
	}
	return out
}

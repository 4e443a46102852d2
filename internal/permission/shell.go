package permission

import (
	"path"
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
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}

func (ps *parsers) put(pr *syntax.Parser) { ps.pool.Put(pr) }

// splitLine splits a shell line into its simple commands: across && || ;
// | & and newlines, into subshells, blocks, substitutions, loops,
// conditionals and function bodies, and through bash -c, eval and
// wrappers such as timeout or sudo.
func (ps *parsers) splitLine(src string) shellLine {
	s := splitter{parsers: ps, out: make([]command, 0, 4)}
	if err := s.line(src, lineContext{}); err != nil {
		return shellLine{commands: roughCommands(src), parseErr: err}
	}
	return shellLine{commands: s.out}
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
}

// line parses src and collects its commands.
func (s *splitter) line(src string, ctx lineContext) error {
	pr := s.parsers.get()
	defer s.parsers.put(pr)
	f, err := pr.Parse(strings.NewReader(src), "")
	if err != nil {
		return err
	}
	stack := make([]syntax.Node, 0, 32)
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if leaf(n) {
			return false // nothing runs inside: skip it (and its f(nil))
		}
		stack = append(stack, n)
		why := func() string {
			if writesFile(stack) {
				return whyRedirect
			}
			return ctx.unallowable
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Cmd == nil && len(n.Redirs) > 0 && why() == whyRedirect {
				s.add(command{text: source(src, n), unallowable: whyRedirect}) // "> file" truncates it
			}
		case *syntax.CallExpr:
			s.call(n, src, why(), ctx)
		case *syntax.DeclClause:
			s.decl(n, src)
		case *syntax.TestClause:
			if hasParam(n) { // [[ $x -eq 1 ]] evaluates $x's text as arithmetic
				s.textCommand(source(src, n), why())
			}
		case *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop:
			s.textCommand(source(src, n), why()) // arithmetic evaluates variables' text
		}
		return true
	})
	return nil
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

// textCommand records a construct that is not a simple command but still
// needs a rule, its words being its text split at spaces.
func (s *splitter) textCommand(text, why string) {
	fields := strings.Fields(text)
	ws := make([]word, len(fields))
	for i, f := range fields {
		ws[i] = staticWord(f)
	}
	s.add(command{text: text, words: ws, unallowable: why})
}

// call records a simple command and whatever runs inside it.
func (s *splitter) call(ce *syntax.CallExpr, src, why string, ctx lineContext) {
	text := source(src, ce)
	for _, a := range ce.Assigns {
		if a.Name != nil && why == "" && riskyAssignment(a.Name.Value, assignedWord(a)) {
			why = whyEnv(a.Name.Value)
		}
	}
	if len(ce.Args) == 0 { // only assignments
		if why != "" {
			s.add(command{text: text, unallowable: why})
		}
		return
	}
	ws := make([]word, len(ce.Args))
	for i, w := range ce.Args {
		ws[i] = evalWord(w)
	}
	s.words(ws, text, why, ctx)
}

// assignedWord is the value of an assignment as a word.
func assignedWord(a *syntax.Assign) word {
	switch {
	case a.Value != nil:
		return evalWord(a.Value)
	case a.Array != nil:
		return word{allow: string(wild), deny: string(wild), dynamic: true}
	}
	return word{}
}

// decl records what matters in declare, export, local, readonly: a risky
// variable, or a name known only at run time.
func (s *splitter) decl(d *syntax.DeclClause, src string) {
	text := source(src, d)
	for _, a := range d.Args {
		switch {
		case a.Name != nil && riskyAssignment(a.Name.Value, assignedWord(a)):
			s.add(command{text: text, unallowable: whyEnv(a.Name.Value)})
			return
		case a.Naked && a.Name == nil && a.Value != nil && !evalWord(a.Value).literal():
			s.add(command{text: text, unallowable: "sets a variable named only when it runs"})
			return
		}
	}
}

// words records the command ws (text as written) and the commands it runs.
func (s *splitter) words(ws []word, text, why string, ctx lineContext) {
	full := ws
	var wrapped []word
	for {
		u, ok := unwrap(ws)
		if !ok {
			break
		}
		if u.risky != "" && why == "" {
			why = whyEnv(u.risky)
		}
		if u.split != nil { // env -S 'line'
			s.inner(*u.split, full, text, why, ctx)
			return
		}
		if u.separate { // sudo X, xargs X: both must be allowed
			s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why})
			ws, full, wrapped = u.rest, u.rest, nil
			continue
		}
		ws, wrapped = u.rest, full
	}
	name := path.Base(ws[0].allow)
	if !ws[0].literal() {
		name = ""
	}
	switch {
	case isShell(name):
		if str, hasC, ok := shellCommandString(ws); !ok {
			s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: whyHidden, hidden: true})
		} else if hasC && str != nil {
			s.inner(*str, ws, text, why, ctx)
		} else {
			s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why, runner: true})
		}
		return
	case name == "eval":
		s.inner(joinWords(ws[1:]), ws, text, why, ctx)
		return
	case name == "source" || name == ".":
		s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why, runner: true})
		return
	case name == "trap" && len(ws) > 2 && !strings.HasPrefix(ws[1].allow, "-"):
		s.inner(ws[1], ws, text, why, ctx) // the handler runs later, in this shell
	case name == "find":
		for _, group := range findExecs(ws) {
			s.words(group, text, why, ctx)
		}
	}
	s.add(command{text: text, words: ws, wrapped: wrapped, unallowable: why})
}

// joinWords makes one word of ws joined by spaces, as eval does.
func joinWords(ws []word) word {
	out := word{allow: joinAllow(ws), deny: joinDeny(ws)}
	for _, w := range ws {
		out.dynamic = out.dynamic || w.dynamic
		out.expands = out.expands || w.expands
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
	inner := splitter{parsers: s.parsers}
	if err := inner.line(str.allow, lineContext{depth: ctx.depth + 1, unallowable: why}); err != nil {
		s.add(command{text: text, words: runner, unallowable: whyNoParse, runner: true})
		s.out = append(s.out, roughCommands(str.allow)...)
		return
	}
	s.out = append(s.out, inner.out...)
}

// writesFile reports whether the innermost node of stack runs under a
// redirection of output to a file, up to the nearest substitution (whose
// output goes to the outer command, not to the file).
func writesFile(stack []syntax.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				if redirectsToFile(r) {
					return true
				}
			}
		}
	}
	return false
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

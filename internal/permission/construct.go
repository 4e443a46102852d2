package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Reasons a construct of a line keeps every rule with a pattern from
// allowing it. Bash evaluates the text of a variable as code in arithmetic
// (a subscript such as a[$(cmd)] inside the value runs cmd), in [[ -eq ]],
// in ${!x}, in ${x@P} and in the builtins that assign to a name they are
// given; a rule names commands, never what a value will hold.
const (
	whyArithmetic     = "evaluates variables as arithmetic, where a value can run commands"
	whySubscript      = "evaluates a subscript, where a value can run commands"
	whyIndirect       = "expands a variable named by another's value, where a subscript can run commands"
	whyPrompt         = "expands a variable as a prompt, which runs the commands its value holds"
	whyDeclare        = "declares variables (declare, typeset, local, export, readonly), which no allow rule covers"
	whyFunction       = "defines a function, which can stand in for any command"
	whyUnknown        = "uses shell syntax forge does not check"
	whyNetworkFile    = "opens a network connection through /dev/tcp or /dev/udp"
	whyDynamicIn      = "reads from a file named only when it runs"
	whyNamedFD        = "assigns a descriptor to a variable"
	whyDynamicProgram = "runs a program named only when it runs"
)

// whySets is the reason for an assignment to a variable that changes what
// later commands run or read.
func whySets(name string) string {
	return "sets " + name + ", which can change what later commands run"
}

// construct records a construct that is not a simple command but still
// needs the person: nothing with a pattern allows it. hidden marks one
// whose effect depends on text known only when it runs, so that no deny
// rule can tell what it does either.
func (s *splitter) construct(text, why string, hidden bool) {
	s.add(command{text: text, unallowable: why, hidden: hidden})
}

// arithmetic checks an arithmetic expression: one made of numbers and
// operators evaluates nothing but itself; a name or an expansion makes the
// shell evaluate a value's text.
func (s *splitter) arithmetic(src string, n syntax.Node, exprs ...syntax.ArithmExpr) {
	risky := false
	for _, x := range exprs {
		if !literalArithm(x) {
			risky = true
		}
		if s.paths != nil && x != nil {
			syntax.Walk(x, func(n syntax.Node) bool { // arithmetic may assign any name it holds
				if w, ok := n.(*syntax.Word); ok && plainNameWord(w) {
					s.paths.assign(evalWord(w).allow, nil, src)
				}
				return true
			})
		}
	}
	if risky && n != nil {
		s.construct(source(src, n), whyArithmetic, true)
	}
}

// literalArithm reports whether x holds only numbers, the numeric special
// parameters ($#, $?, $$, $!) and operators that assign nothing.
func literalArithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.Word:
		return numericWord(x)
	case *syntax.BinaryArithm:
		if x.Op >= syntax.Assgn && x.Op <= syntax.ShrAssgn {
			return false
		}
		return literalArithm(x.X) && literalArithm(x.Y)
	case *syntax.UnaryArithm:
		return x.Op != syntax.Inc && x.Op != syntax.Dec && literalArithm(x.X)
	case *syntax.ParenArithm:
		return literalArithm(x.X)
	}
	return false
}

// numericWord reports whether w is a number (10, 0x1f, 16#ff) or a
// special parameter whose value is always one.
func numericWord(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		return numeric(p.Value)
	case *syntax.ParamExp:
		return p.Param != nil && strings.Contains("#?$!", p.Param.Value) && len(p.Param.Value) == 1 && plainParam(p)
	}
	return false
}

// numeric reports whether s is an integer constant as bash reads one.
func numeric(s string) bool {
	if s == "" {
		return false
	}
	body := s
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		body = s[2:]
		return body != "" && strings.Trim(body, "0123456789abcdefABCDEF") == ""
	case strings.IndexByte(s, '#') > 0:
		base, digits, _ := strings.Cut(s, "#")
		return strings.Trim(base, "0123456789") == "" && digits != "" &&
			strings.Trim(digits, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_") == ""
	}
	return strings.Trim(body, "0123456789") == ""
}

// plainParam reports whether p is $name or ${name} with nothing more.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && !p.IsSet && p.Flags == nil &&
		p.NestedParam == nil && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Names == 0 &&
		p.Exp == nil && len(p.Modifiers) == 0 &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset
}

// paramRisk says why a parameter expansion evaluates a value's text, and
// "" when it does not.
func paramRisk(p *syntax.ParamExp) string {
	switch {
	case p.Flags != nil, p.NestedParam != nil, p.Width, p.IsSet, len(p.Modifiers) > 0,
		p.Split != syntax.OptUnset, p.GlobSubst != syntax.OptUnset, p.RcExpand != syntax.OptUnset:
		return whyUnknown // other shells' forms
	case p.Excl && p.Names == 0 && !wholeArray(p.Index):
		return whyIndirect // ${!x}; ${!prefix*} and ${!a[@]} only list names
	case p.Index != nil && !wholeArray(p.Index) && !literalArithm(p.Index):
		return whySubscript
	case p.Slice != nil && !(literalArithm(p.Slice.Offset) && literalArithm(p.Slice.Length)):
		return whyArithmetic
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && !harmlessTransform(p.Exp.Word):
		return whyPrompt
	case p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) &&
		p.Param != nil && !plainVariable(p.Param.Value):
		return whySets(p.Param.Value)
	}
	return ""
}

// wholeArray reports whether a subscript is @ or *: every element.
func wholeArray(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && (lit.Value == "@" || lit.Value == "*")
}

// harmlessTransform reports whether ${x@OP} only quotes or changes case:
// @P expands the value as a prompt, running its substitutions.
func harmlessTransform(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && len(lit.Value) == 1 && strings.Contains("QEUuLaKkA", lit.Value)
}

// testClause checks [[ ]]: its arithmetic comparisons evaluate both sides
// as arithmetic, and -v and -R evaluate a subscript in the name they test.
func (s *splitter) testClause(text string, x syntax.TestExpr) {
	if why := testRisk(x); why != "" {
		s.construct(text, why, true)
	}
}

// testRisk says why a [[ ]] expression evaluates a value's text.
func testRisk(x syntax.TestExpr) string {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		if x.Op >= syntax.TsEql && x.Op <= syntax.TsGtr {
			if !testNumber(x.X) || !testNumber(x.Y) {
				return whyArithmetic
			}
			return ""
		}
		if why := testRisk(x.X); why != "" {
			return why
		}
		return testRisk(x.Y)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			w, ok := x.X.(*syntax.Word)
			if !ok || !plainNameWord(w) {
				return whySubscript
			}
		}
		return testRisk(x.X)
	case *syntax.ParenTest:
		return testRisk(x.X)
	}
	return ""
}

// testNumber reports whether an operand of [[ -eq ]] is a number.
func testNumber(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && numericWord(w)
}

// plainNameWord reports whether w is a literal variable name, no subscript.
func plainNameWord(w *syntax.Word) bool {
	ev := evalWord(w)
	return ev.literal() && syntax.ValidName(ev.allow)
}

// assignments checks the assignments of a simple command: before a
// command they set its environment, and only names known to be harmless
// may be set there; alone they set shell variables, which must not be
// ones the shell or later programs act on.
func (s *splitter) assignments(ce *syntax.CallExpr, src, text string, why *string) {
	for _, a := range ce.Assigns {
		if a.Name == nil {
			s.construct(text, whyUnknown, true)
			continue
		}
		name := a.Name.Value
		if a.Index != nil && !literalArithm(a.Index) {
			s.construct(text, whySubscript, true)
		}
		if a.Array != nil {
			for _, el := range a.Array.Elems {
				if el.Index != nil && !literalArithm(el.Index) {
					s.construct(text, whySubscript, true)
					break
				}
			}
		}
		if name == "GLOBIGNORE" && s.paths != nil {
			s.paths.globDots = true
		}
		switch {
		case len(ce.Args) > 0:
			if *why == "" && !harmlessEnv(name, assignedWord(a)) {
				*why = whyEnv(name)
			}
			if commandVariable(name) && a.Value != nil {
				s.forDeny(evalWord(a.Value), text) // the program may run it
			}
			s.paths.word(a.Value, src)
		case !plainVariable(name):
			s.construct(text, whySets(name), false)
			fallthrough
		default:
			value := a.Value
			switch {
			case a.Index != nil || a.Array != nil || a.Append:
				value = nil
			case value == nil:
				value = &syntax.Word{} // x= sets it empty
			}
			s.paths.assign(name, value, src)
			s.paths.word(a.Value, src)
		}
	}
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

// plainVariable reports whether setting name as a shell variable (x=1,
// for x in, ${x:=1}) changes nothing but $name: a lower-case name that is
// not a proxy setting. Upper-case names may be in the environment, where
// setting them changes what programs run (PATH, LD_PRELOAD, GIT_DIR, ...),
// and bash's own variables (IFS, BASH_ENV, PS4, ...) are all upper case.
func plainVariable(name string) bool {
	if !syntax.ValidName(name) || strings.ToLower(name) != name || name == "_" {
		return false
	}
	return !strings.HasSuffix(name, "_proxy")
}

// descriptor reports whether s, the word of <& or >&, is a descriptor
// number, a number moved (3-) or a close (-).
func descriptor(s string) bool {
	s = strings.TrimSuffix(s, "-")
	return strings.Trim(s, "0123456789") == ""
}

// redirects checks a statement's redirections for what a rule cannot
// name: a connection opened through bash's /dev/tcp, an input file known
// only when it runs, a descriptor stored in a variable.
func (s *splitter) redirects(st *syntax.Stmt, src string) {
	for _, r := range st.Redirs {
		switch {
		case r.N != nil && strings.HasPrefix(r.N.Value, "{"):
			s.construct(source(src, st), whyNamedFD, false)
		case r.N != nil && len(r.N.Value) > 3:
			s.construct(source(src, st), whyUnknown, true) // bash reads 7000000000<x as a command 7000000000
		}
		if r.Word == nil || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
			continue
		}
		w := evalWord(r.Word)
		input := r.Op == syntax.RdrIn || r.Op == syntax.DplIn || r.Op == syntax.RdrInOut
		switch {
		case w.literal() && (strings.HasPrefix(w.allow, "/dev/tcp/") || strings.HasPrefix(w.allow, "/dev/udp/")):
			s.construct(source(src, st), whyNetworkFile, false)
		case w.dynamic && input:
			s.construct(source(src, st), whyDynamicIn, false)
		case r.Op == syntax.DplIn && !descriptor(w.allow):
			s.construct(source(src, st), whyUnknown, true) // bash reads <&-0 as <&- and a command 0
		case w.expands && (starIntersect("/dev/tcp/*", w.deny) || starIntersect("/dev/udp/*", w.deny)):
			s.construct(source(src, st), whyNetworkFile, false)
		}
	}
}

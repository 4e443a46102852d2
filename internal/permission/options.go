package permission

import (
	"path"
	"slices"
	"strings"
)

// optionSpec lists the options of one program, or of one of its
// subcommands, that are known to neither load code or configuration, nor
// write files, nor change directory or what the program reads as its
// inputs. A prefix rule (Bash(git log:*)) allows a command with more
// words than it names only when each further option is one of these: an
// option the rule does not name could make the allowed program run or
// write what the rule never said (git log --output=FILE, npm run test
// --node-options=--import=..., make --eval=...). An allowlist, not a list
// of the bad ones, since programs grow new options and a forgotten bad one
// would be a hole where a forgotten good one is only a question.
type optionSpec struct {
	// flags are short options without a value; they may be combined (-la).
	flags string
	// valued are short options that take a value, in the same word (-n5)
	// or the next (-n 5).
	valued string
	// optValued are short options whose value is optional and, when
	// given, is the rest of the word (make -j4, git status -uno).
	optValued string
	// long are long options, with their dashes (--oneline, or -race for a
	// program whose long options take one dash); each may be given a
	// value with = (--format=%H).
	long []string
	// longValued are the long options that take a required value, given
	// with = or as the next word (--author NAME, -run TestX).
	longValued []string
	// oneDash: long options take one dash (go test -race, find -name); two
	// dashes work too for go.
	oneDash bool
	// anyOption: every option the program has is harmless (ls, cat, wc),
	// so an option the table does not list, or a word that may expand to
	// one, is harmless too.
	anyOption bool
	// passes: the words after -- go to another program (npm run X -- ARGS,
	// cargo test -- ARGS), whose options are judged by after; for any
	// other program -- ends the options and the words after it are
	// operands.
	passes bool
	after  *optionSpec
	// modules are the specs of the modules -m runs (python -m pytest).
	modules map[string]*optionSpec
	// runs are options whose following words, up to ; or +, are a command
	// the rules judge on its own (find -exec).
	runs []string
	// expressionPastDashes: -- ends only the options before the operands,
	// and what follows is still read as options (find -- . -delete).
	expressionPastDashes bool
	// preparse is an option the program picks out of all its words before
	// it parses the others, past -- and in another option's value too
	// (pytest -p, which loads a plugin): any word that starts with it, or
	// may, asks.
	preparse string
	// argFiles: a word that starts with it names a file whose lines are
	// more arguments, options among them, wherever it stands (pytest
	// @args, rustc @file).
	argFiles string
	// subs are the specs of the subcommands, by name: after the first
	// operand, options are judged by its spec, and every option asks
	// after a subcommand the table does not list.
	subs map[string]*optionSpec
}

// optionFinding is a word after a rule's prefix that the rule does not
// name and that may change what the allowed program runs or writes.
type optionFinding struct {
	at   int    // the word's index
	word string // the option, assignment or word as it will be named
	// kind is what the word is: "option", "variable assignment",
	// "script", "operand", or what it may expand to ("expansion": an
	// option; "assigning expansion": make's VAR=value).
	kind string
}

// reason says why the rule rule does not allow the command.
func (f optionFinding) reason(rule string) string {
	switch f.kind {
	case "expansion":
		return f.word + " may expand to an option that the rule " + rule + " does not name" + whyNamed
	case "assigning expansion":
		return f.word + " may expand to a variable assignment that the rule " + rule + " does not name" +
			" (it would override the Makefile's variables)"
	case "date operand":
		return "the operand " + f.word + ", which may set the clock, is not named by the rule " + rule
	case "argument file":
		return "the argument file " + f.word + ", whose lines the program reads as options, is not named by the rule " + rule
	case "output operand":
		return "the file " + f.word + " that the command writes is not named by the rule " + rule
	case "variable assignment":
		return "the variable assignment " + f.word + " is not named by the rule " + rule +
			" (it overrides the Makefile's variables, SHELL and $(shell ...) among them)"
	}
	return f.kind + " " + f.word + " is not named by the rule " + rule + whyNamed
}

// whyNamed says why a prefix rule allows only the options it names.
const whyNamed = " (an option may run or load code or configuration, write a file or change directory)"

// unnamedOption returns the first word of ws at index from or later (the
// words past a rule's prefix) that the rule does not name and that could
// change what the program runs or writes: an option not known to be
// harmless, a word that may expand to one, or an operand that the program
// reads as code (make's VAR=value, a sed script with w or e). ok is false
// when there is none.
func unnamedOption(ws []word, from int) (optionFinding, bool) {
	return unnamedOptionBut(ws, from, nil)
}

// unnamedOptionBut is unnamedOption where named, if not nil, also says
// which words a glob rule names (Bash(git log --format=* *)).
func unnamedOptionBut(ws []word, from int, named func(word) bool) (optionFinding, bool) {
	if len(ws) == 0 || from >= len(ws) || !ws[0].literal() {
		return optionFinding{}, false
	}
	name := path.Base(ws[0].allow)
	if f, bad := scriptCode(name, ws, from); bad {
		return f, true
	}
	o := optionWalk{name: name, spec: programSpec(ws[0].allow)}
	for i := 1; i < len(ws); i++ {
		if f, bad := o.step(ws, i, i >= from && (named == nil || !named(ws[i]))); bad {
			f.at = i
			return f, true
		}
	}
	return optionFinding{}, false
}

// optionWalk follows a command's words from left to right: which spec
// judges the next option, and what the word before said of it.
type optionWalk struct {
	name    string
	spec    *optionSpec // nil: the program's options are not known, each asks
	inSub   bool        // the subcommand has been seen
	passed  bool        // past a -- that hands the words to another program
	ended   bool        // past a -- that ends the options
	isValue bool        // the word is the value of the option before it
	inner   bool        // in a command the program runs, judged on its own
	// afterOption: the word before is an option with no value given in
	// it, which may take the next word, -- included, as its value.
	afterOption bool
}

// step judges ws[i]; judged is false for a word the rule names.
func (o *optionWalk) step(ws []word, i int, judged bool) (optionFinding, bool) {
	w := ws[i]
	value, afterOption := o.isValue, o.afterOption
	o.isValue, o.afterOption = false, false
	if o.inner {
		o.inner = !(w.literal() && (w.allow == ";" || w.allow == "+"))
		return optionFinding{}, false
	}
	if f, bad := o.preparsed(w); bad && judged {
		return f, true
	}
	if o.spec == nil && !o.ended && !value && len(w.allow) > 1 && w.allow[0] == '+' {
		// some programs take options after + too (vim +cmd, less +!cmd):
		// for one forge does not know, such a word is an option
		if judged {
			return optionFinding{word: cutWild(w.allow), kind: "option"}, true
		}
		return optionFinding{}, false
	}
	switch {
	case o.ended || !mayBeOption(w) || value && !(w.literal() && w.allow[0] == '-') && !severalWords(w):
		// an operand, or the value of an option: a word that may expand
		// to an option is harmless there, since the program reads it as
		// one value, unless the shell may make several words of it
		if f, bad := operandCode(o.name, w, judged, value); bad {
			return f, true
		}
		if !o.ended && !value && !mayBeOption(w) {
			o.operand(w)
		}
	case w.literal() && w.allow == "--":
		switch {
		case value || o.passed || o.spec == nil:
			// the value of the option before (git grep -e -- -O...: the
			// pattern is --), handed on as it is, or a program forge does
			// not know
		case o.spec.passes:
			o.passed, o.spec = true, o.spec.after
		case afterOption || o.spec.expressionPastDashes:
			// the option before may take -- as its value, whatever the
			// table says of it, and what follows as options; find reads
			// its expression past --
		default:
			o.ended = true
		}
	case o.spec == nil:
		if judged {
			return optionNamed(w), true
		}
	case w.literal() && w.allow == "-m" && o.spec.modules != nil && i+1 < len(ws) && ws[i+1].literal():
		o.spec, o.inSub, o.isValue = o.spec.modules[ws[i+1].allow], true, true // python -m pytest
	default:
		if f, bad := operandCode(o.name, w, judged, value); bad && w.allow[0] != '-' && w.allow[0] != wild {
			return f, true // build$X for make: an assignment as well as an option
		}
		ok, takesNext := o.spec.judge(w)
		if !ok && judged {
			return o.spec.named(w), true
		}
		o.isValue = takesNext
		o.afterOption = !takesNext && w.allow[0] == '-' && strings.IndexByte(w.allow, '=') < 0
		o.inner = w.literal() && slices.Contains(o.spec.runs, w.allow)
	}
	return optionFinding{}, false
}

// preparsed reports the word w when the program may read it as its
// preparsed option (pytest -p) wherever it stands.
func (o *optionWalk) preparsed(w word) (optionFinding, bool) {
	switch {
	case o.spec == nil || o.spec.preparse == "" && o.spec.argFiles == "":
	case o.spec.argFiles != "" && strings.HasPrefix(w.allow, o.spec.argFiles):
		return optionFinding{word: shown(w), kind: "argument file"}, true
	case o.spec.preparse != "" && w.literal() && strings.HasPrefix(w.allow, o.spec.preparse),
		!w.literal() && mayBeOption(w):
		return optionNamed(w), true
	}
	return optionFinding{}, false
}

// operand notes the operand w: the first one may name a subcommand.
func (o *optionWalk) operand(w word) {
	if o.inSub || o.spec == nil || o.spec.subs == nil {
		return
	}
	o.inSub = true
	o.spec = o.spec.subs[w.allow] // nil for a subcommand forge does not know
	if !w.literal() {
		o.spec = nil
	}
}

// optionNamed names the word w, an option or a word that may be one.
func optionNamed(w word) optionFinding {
	if w.allow == "" || w.allow[0] != '-' {
		return optionFinding{word: shown(w), kind: "expansion"}
	}
	name, _, _ := strings.Cut(w.allow, "=")
	return optionFinding{word: cutWild(name), kind: "option"}
}

// named names the option w that the spec does not list: for short
// options given together (-sEfoo), the first it does not list.
func (sp *optionSpec) named(w word) optionFinding {
	f := optionNamed(w)
	a := w.allow
	if sp.oneDash || len(a) < 3 || a[0] != '-' || a[1] == '-' || f.kind != "option" {
		return f
	}
	for j := 1; j < len(a) && a[j] != wild; j++ {
		if strings.IndexByte(sp.flags, a[j]) < 0 {
			if strings.IndexByte(sp.valued+sp.optValued, a[j]) >= 0 {
				break
			}
			f.word = "-" + string(a[j]) + " (in " + shorten(cutWild(a)) + ")"
			break
		}
	}
	return f
}

// shown is the word w quoted for a message, an expansion shown as $….
func shown(w word) string {
	return "`" + shorten(strings.ReplaceAll(w.allow, string(rune(wild)), "$…")) + "`"
}

// cutWild is s up to its first wild byte (an expansion), marked by ….
func cutWild(s string) string {
	if i := strings.IndexByte(s, wild); i >= 0 {
		return s[:i] + "…"
	}
	return s
}

// severalWords reports whether the shell may make several words of w, a
// later one of which may be an option: an unquoted $X, or a glob or brace
// that may match a file named -x (* matches -toolexec=./x after a).
func severalWords(w word) bool {
	return (w.splits || w.expands) && mayBeOption(w)
}

// mayBeOption reports whether w is, or may expand to, a word that starts
// with a dash: a literal option, a word that starts with an expansion
// ($X, $(cmd)), a glob (*.go may match a file named -x.go) or a brace
// ({-o,x}), or one the shell may split (a$X with X=" -o y").
func mayBeOption(w word) bool {
	if w.allow == "" {
		return false
	}
	if w.allow[0] == '-' {
		return len(w.allow) > 1
	}
	return w.splits || w.allow[0] == wild || w.deny[0] == wild && w.allow[0] != '~' // ~ expands to a path
}

// judge reports whether the option w (which may be an expansion) is
// harmless, and whether it takes the next word as its value.
func (sp *optionSpec) judge(w word) (ok, takesNext bool) {
	switch {
	case w.allow[0] != '-': // an expansion that may be an option
		return sp.anyOption, false
	case w.allow == "-":
		return true, false // standard input, an operand
	case strings.HasPrefix(w.allow, "--") || sp.oneDash:
		ok, takesNext = sp.judgeLong(w.allow)
	default:
		ok, takesNext = sp.judgeShort(w.allow)
	}
	return ok || sp.anyOption, takesNext
}

// judgeLong reports whether the long option a (with its value after =,
// if any) is harmless, and whether it takes the next word as its value.
func (sp *optionSpec) judgeLong(a string) (ok, takesNext bool) {
	name, _, hasValue := strings.Cut(a, "=")
	if strings.IndexByte(name, wild) >= 0 {
		return false, false
	}
	if sp.oneDash && strings.HasPrefix(name, "--") && name != "--" {
		name = name[1:] // go's flags take one dash or two
	}
	for _, l := range sp.longValued {
		if l == name {
			return true, !hasValue
		}
	}
	for _, l := range sp.long {
		if l == name {
			return true, false
		}
	}
	if name == "--help" || name == "--version" {
		return true, false
	}
	return false, false
}

// judgeShort reports whether the short options of a, such as -la or
// -n5, are harmless, and whether the last takes the next word as its
// value.
func (sp *optionSpec) judgeShort(a string) (ok, takesNext bool) {
	for j := 1; j < len(a); j++ {
		c := a[j]
		switch {
		case c == wild:
			return false, false
		case strings.IndexByte(sp.valued, c) >= 0:
			return true, j == len(a)-1 // the rest of the word is its value
		case strings.IndexByte(sp.optValued, c) >= 0:
			return true, false // a value, if any, is the rest of the word
		case strings.IndexByte(sp.flags, c) < 0:
			return false, false
		}
	}
	return true, false
}

// operandCode reports an operand that the program name reads as code or
// as a file to write, or that sets the clock, which the rule did not name:
// make's VAR=value (and VAR:=$(shell ...), VAR!=cmd) overrides the
// Makefile's variables, SHELL among them; dd's of=FILE writes; date's
// MMDDhhmm sets the date. value: w is an option's value.
func operandCode(name string, w word, judged, value bool) (optionFinding, bool) {
	if !judged || w.allow == "" || w.deny == "" {
		return optionFinding{}, false
	}
	switch name {
	case "make", "gmake":
		if strings.IndexByte(w.allow, '=') > 0 {
			n, _, _ := strings.Cut(w.allow, "=")
			return optionFinding{word: cutWild(n) + "=…", kind: "variable assignment"}, true
		}
		if !w.literal() { // build-$X may be build=..., and *.o may match a file named CC=x.o
			return optionFinding{word: shown(w), kind: "assigning expansion"}, true
		}
	case "dd":
		if strings.HasPrefix(w.allow, "of=") || !w.literal() {
			return optionFinding{word: shown(w), kind: "operand"}, true
		}
	case "date":
		if !value && !(w.literal() && w.allow[0] == '+') {
			return optionFinding{word: shown(w), kind: "date operand"}, true
		}
	}
	return optionFinding{}, false
}

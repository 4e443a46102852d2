package tools

// ArgAdopter is implemented by tools that take arguments which models
// trained on other agents send although the tool does not declare them:
// each refusal of such an argument costs the model a turn to learn the
// tool's own name for it. AdoptArgs returns args with every such argument
// it knows turned into the tool's own (Claude Code's
// dangerouslyDisableSandbox: true is Bash's sandbox: false) or dropped
// when it asks for nothing the tool would not do anyway; an argument it
// does not know stays, for validation to refuse. args is never modified:
// a copy is returned when something changes.
type ArgAdopter interface {
	AdoptArgs(args Args) Args
}

// AdoptArgs is args as t adopts them (see ArgAdopter), or args itself when
// t adopts none.
func AdoptArgs(t Tool, args Args) Args {
	a, ok := t.(ArgAdopter)
	if !ok || args == nil {
		return args
	}
	return a.AdoptArgs(args)
}

// Adoption is one argument a tool adopts: From, a name other agents'
// tools use, and Adopt, what a value of it becomes: the tool's own
// parameter to and its value, or, with to "", nothing (the argument is
// dropped). ok false leaves the argument as it came, for validation to
// refuse: a value the tool could not honour.
type Adoption struct {
	From  string
	Adopt func(v any) (to string, value any, ok bool)
}

// Adoptions is an ArgAdopter made of a list of Adoptions, for a
// Descriptor's Adopt.
type Adoptions []Adoption

// AdoptArgs applies each adoption whose argument args holds. An adopted
// argument never overrides the tool's own when the call gives both.
func (as Adoptions) AdoptArgs(args Args) Args {
	var out Args
	for _, a := range as {
		v, ok := args[a.From]
		if !ok {
			continue
		}
		to, value, ok := a.Adopt(v)
		if !ok {
			continue
		}
		if out == nil {
			out = make(Args, len(args))
			for k, x := range args {
				out[k] = x
			}
		}
		delete(out, a.From)
		if _, given := args[to]; to != "" && !given {
			out[to] = value
		}
	}
	if out == nil {
		return args
	}
	return out
}

// DropWhen is an Adoption's Adopt that drops the argument when
// changesNothing says its value asks for nothing the tool does not do (and leaves it for validation to refuse
// otherwise).
func DropWhen(changesNothing func(v any) bool) func(any) (string, any, bool) {
	return func(v any) (string, any, bool) { return "", nil, changesNothing(v) }
}

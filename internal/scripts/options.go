package scripts

import (
	"slices"
	"strings"
)

// opts describes how a program takes its options, enough to find the
// operands after them as getopt would.
type opts struct {
	// valued are the short options that take a value, attached (-n5) or
	// as the next word (-n 5).
	valued string
	// long are the long options that take a value as the next word unless
	// written --name=value.
	long []string
	// plus: words starting with + are options too (sh +x, +o name).
	plus bool
	// single: options are whole words, long names behind one dash (go run
	// -tags x); then long lists them with their dash.
	single bool
}

// option is one option seen: its name with its dashes (-c, --chdir), and
// its value when it takes one.
type option struct {
	name string
	val  arg
}

// skip returns the operands of args after the leading options, calling on
// (when not nil) for each option. An unknown word ends the options: it may
// be an operand.
func (o opts) skip(args []arg, on func(option)) []arg {
	if on == nil {
		on = func(option) {}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			return args[i:]
		}
		s := a.s
		switch {
		case s == "--":
			return args[i+1:]
		case len(s) < 2 || s[0] != '-' && !(o.plus && s[0] == '+'):
			return args[i:]
		case o.single || strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			v := arg{s: val, ok: true}
			if !has && slices.Contains(o.long, name) {
				if i+1 < len(args) {
					i++
					v = args[i]
				} else {
					v = arg{}
				}
			}
			on(option{name: name, val: v})
		default:
			i = o.cluster(args, i, on)
		}
	}
	return nil
}

// cluster reads the short options of args[i] (-xec, -n5) and returns the
// index of the last word it used.
func (o opts) cluster(args []arg, i int, on func(option)) int {
	s := args[i].s
	for j := 1; j < len(s); j++ {
		name := string(s[0]) + string(s[j])
		if strings.IndexByte(o.valued, s[j]) < 0 {
			on(option{name: name})
			continue
		}
		if j+1 < len(s) {
			on(option{name: name, val: arg{s: s[j+1:], ok: true}})
			return i
		}
		if i+1 < len(args) {
			on(option{name: name, val: args[i+1]})
			return i + 1
		}
		on(option{name: name})
		return i
	}
	return i
}

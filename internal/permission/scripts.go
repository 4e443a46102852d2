package permission

import "strings"

// scriptCode reports a program text past a rule's prefix that the rule
// does not name and that can run programs or write or read other files:
// the script of sed (its e, w, W, r and R commands, s///e and s///w) and
// the program of awk (system(), pipes, redirections, getline, @load).
// Scripts that only print, delete and substitute pass, so that
// Bash(sed -n:*) still allows sed -n 1,5p file. It also reports uniq's
// second operand, the file uniq writes.
func scriptCode(name string, ws []word, from int) (optionFinding, bool) {
	var harmless func(string) bool
	var scripts []programWord
	switch name {
	case "sed", "gsed":
		harmless, scripts = harmlessSed, programWords(ws, "e", "--expression")
	case "awk", "gawk", "mawk", "nawk":
		harmless, scripts = harmlessAwk, programWords(ws, "", "")
	case "uniq":
		return uniqOutput(ws, from)
	default:
		return optionFinding{}, false
	}
	for _, sc := range scripts {
		w := ws[sc.at]
		if sc.at < from {
			continue
		}
		text := w.allow
		if sc.inWord { // -e'w x', --expression=X: the script is the rest of the word
			text = scriptIn(text)
		}
		if !w.literal() || !harmless(text) {
			return optionFinding{at: sc.at, word: shown(w), kind: "script"}, true
		}
	}
	return optionFinding{}, false
}

// programWord is where a program text is: the word at, or its rest past
// the option that names it when inWord.
type programWord struct {
	at     int
	inWord bool
}

// programWords returns the indexes of the words of ws that hold a
// program: each value of the short option short or the long option long
// (sed -e X, --expression=X), or else the first operand.
func programWords(ws []word, short, long string) []programWord {
	var out []programWord
	first := -1
	for i := 1; i < len(ws); i++ {
		a := ws[i].allow
		switch {
		case a == "--":
			if first < 0 && i+1 < len(ws) {
				first = i + 1
			}
			i = len(ws)
		case long != "" && strings.HasPrefix(a, long+"="):
			out = append(out, programWord{i, true})
		case long != "" && a == long && i+1 < len(ws):
			out = append(out, programWord{at: i + 1})
			i++
		case short != "" && len(a) > 1 && a[0] == '-' && a[1] != '-':
			if j := strings.Index(a, short); j > 0 {
				if j == len(a)-1 && i+1 < len(ws) {
					out = append(out, programWord{at: i + 1})
					i++
				} else if j < len(a)-1 {
					out = append(out, programWord{i, true})
				}
			}
		case len(a) > 1 && a[0] == '-':
			if optionTakesValue(a) && i+1 < len(ws) {
				i++ // awk -F X, sed -l N: the value is no program
			}
		case first < 0:
			first = i
		}
	}
	if len(out) == 0 && first >= 0 {
		out = append(out, programWord{at: first})
	}
	return out
}

// optionTakesValue reports whether the option a of sed or awk takes the
// next word as its value (-F, -v, -l, -f with nothing after them, and
// their long names), so that the word is not taken for the program.
func optionTakesValue(a string) bool {
	switch a {
	case "--field-separator", "--assign", "--line-length", "--file":
		return true
	}
	return len(a) == 2 && strings.IndexByte("Fvlf", a[1]) >= 0
}

// scriptIn returns the script given in the option word a itself:
// --expression=X, -eX, -neX.
func scriptIn(a string) string {
	if v, ok := strings.CutPrefix(a, "--expression="); ok {
		return v
	}
	if j := strings.IndexByte(a, 'e'); j > 0 {
		return a[j+1:]
	}
	return a
}

// harmlessAwk reports whether the awk program p can only read its input
// and print: it has none of system(), a pipe, a redirection (nor a >
// comparison, which forge does not tell from one), getline, close,
// fflush or @load.
func harmlessAwk(p string) bool {
	for _, bad := range []string{"system", "|", ">", "getline", "close", "fflush", "@"} {
		if strings.Contains(p, bad) {
			return false
		}
	}
	return true
}

// uniqOutput reports uniq's second operand, the file it writes, when the
// rule does not name it.
func uniqOutput(ws []word, from int) (optionFinding, bool) {
	operands, ended := 0, false
	for i := 1; i < len(ws); i++ {
		a := ws[i].allow
		switch {
		case !ended && a == "--":
			ended = true
		case !ended && len(a) > 1 && a[0] == '-':
			if len(a) == 2 && strings.IndexByte("fsw", a[1]) >= 0 {
				i++ // -f N, -s N, -w N
			}
		default:
			if operands++; operands == 2 && i >= from {
				return optionFinding{at: i, word: shown(ws[i]), kind: "output operand"}, true
			}
		}
	}
	return optionFinding{}, false
}

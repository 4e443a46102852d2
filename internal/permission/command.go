package permission

// command is one simple command of a shell line, as the rules see it.
type command struct {
	// text is the command as written, for messages.
	text string
	// words are its words after leading assignments and wrappers that only
	// change how it runs (timeout 5, nohup, env A=1, exec, command).
	words []word
	// wrapped are the words with those wrappers, when there were any; a rule
	// may allow or deny either form.
	wrapped []word
	// denyOnly: the command was found inside another's arguments (sudo X,
	// xargs X, find -exec X) or in a line that does not parse. Deny rules
	// check it; allowing the outer command is what counts for allow rules.
	denyOnly bool
	// unallowable says why no rule with a pattern may allow the command ("" when one may):
	// it writes a file by redirection, sets a variable that changes what runs,
	// or runs text unknown until it runs.
	unallowable string
	// runner: the command runs text the rule cannot see (source, eval, a
	// shell reading a script or its input). Only a rule that names the
	// runner itself as its first word may allow it.
	runner bool
	// hidden: the command runs text known only when it runs (eval "$X",
	// bash -c "$X", arithmetic on a variable). No deny rule can tell what
	// it runs, so a line with one asks whenever a deny rule with a command
	// pattern names the tool.
	hidden bool
	// opaque: the command may run something its words do not show (a git
	// alias from a configuration file), though a rule may allow it as
	// written. Deny rules cannot tell, as for hidden.
	opaque bool
	// own is how many of words are the program's own, when the rest are
	// a command it runs that is judged on its own (xargs grep -n x: 2);
	// 0 when all are.
	own int
	// env are the variables set for the command (GIT_DIR=x git, env X=1).
	env []string

	// Worked out once by prepare, since every rule looks at them.
	allowText string   // the words' allow texts joined
	denyText  string   // the words' deny texts joined
	moreForms [][]word // further forms deny rules check (see otherForms)
	moreTexts []string // their deny texts joined
}

// prepare works out what rules match against.
func (c *command) prepare() {
	c.allowText = joinAllow(c.words)
	c.denyText = c.allowText
	if hasWild(c.words) {
		c.denyText = joinDeny(c.words)
	}
	c.moreForms = otherForms(c)
	if len(c.moreForms) > 0 {
		c.moreTexts = make([]string, len(c.moreForms))
		for i, ws := range c.moreForms {
			c.moreTexts[i] = joinDeny(ws)
		}
	}
}

// hasWild reports whether any word's deny text differs from its allow text.
func hasWild(ws []word) bool {
	for _, w := range ws {
		if w.dynamic || w.expands {
			return true
		}
	}
	return false
}

// ownWords is how many words of ws, a wrapper that runs another
// command, are its own.
func ownWords(ws []word, u unwrapped) int {
	if len(u.rest) == 0 || len(u.rest) >= len(ws) {
		return len(ws)
	}
	return len(ws) - len(u.rest)
}

// ownWordsOf returns the words of c that are the program's own.
func (c *command) ownWordsOf() []word {
	if c.own > 0 && c.own < len(c.words) {
		return c.words[:c.own]
	}
	return c.words
}

// Reasons a command cannot be allowed by a rule with a pattern.
const (
	whyRedirect = "writes a file through a redirection, which no allow rule covers"
	whyHidden   = "runs text that is known only when it runs"
	whyNoParse  = "is not a shell line forge can parse"
	whyDepth    = "nests shells too deeply to check"
	// whyOtherShell: forge reads lines in bash's grammar only.
	whyOtherShell = "runs a line in another shell's language, which forge does not read"
)

// whyEnv is the reason for a command run with a variable in its
// environment that is not known to be harmless.
func whyEnv(name string) string {
	return "sets " + name + " for the command, which can change what it runs"
}

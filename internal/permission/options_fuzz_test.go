package permission

import (
	"slices"
	"strings"
	"testing"
)

// optionOracle restates, for one prefix rule, what the rule allows past
// its prefix: operands, and the options listed here as known to neither
// run or load code or configuration, nor write a file, nor change
// directory. It is written apart from the table the matcher uses, so
// that the two check each other.
type optionOracle struct {
	rule, prefix string
	long         []string // harmless long options (with their dashes)
	letters      string   // harmless short options without a value
	valued       string   // harmless short options whose value is the rest of the word
	oneDash      bool     // long options take one dash (go test -race)
	anyOption    bool     // every option of the program is harmless
	// dashes says what -- means: "ends" the options, or "passes" what
	// follows to another program, whose harmless options are after.
	dashes  string
	after   *optionOracle
	assigns bool // VAR=value operands are code (make)
	// takesNext are the options that take the next word, -- included,
	// as their value, for a program whose -- passes words on.
	takesNext []string
	// preparse is an option the program reads wherever it stands (pytest
	// -p); argFiles starts a word naming a file of more arguments (@args).
	preparse, argFiles string
}

// optionOracles are the prefix rules fuzzed, and glob rules whose * ends
// them, which must judge options the same way.
var optionOracles = withGlobs([]optionOracle{
	{rule: "Bash(git log:*)", prefix: "git log", dashes: "ends", letters: "0123456789pusMCBDRazwbrtmqWiEF", valued: "nSGLU",
		long: []string{"--oneline", "--stat", "--shortstat", "--numstat", "--dirstat", "--summary", "--name-only", "--name-status", "--graph", "--decorate", "--no-decorate", "--all", "--branches", "--tags", "--remotes", "--format", "--pretty", "--abbrev-commit", "--no-abbrev-commit", "--abbrev", "--color", "--no-color", "--color-words", "--patch", "--no-patch", "--patch-with-stat", "--raw", "--cached", "--staged", "--merge-base", "--reverse", "--since", "--until", "--after", "--before", "--all-match", "--invert-grep", "--merges", "--no-merges", "--first-parent", "--follow", "--date", "--relative-date", "--word-diff", "--word-diff-regex", "--ignore-all-space", "--ignore-space-change", "--ignore-blank-lines", "--ignore-cr-at-eol", "--unified", "--function-context", "--minimal", "--patience", "--histogram", "--diff-algorithm", "--diff-filter", "--find-renames", "--find-copies", "--no-renames", "--full-diff", "--full-history", "--simplify-merges", "--ancestry-path", "--left-right", "--cherry-pick", "--cherry-mark", "--boundary", "--no-walk", "--topo-order", "--date-order", "--author-date-order", "--encoding", "--regexp-ignore-case", "--extended-regexp", "--fixed-strings", "--perl-regexp", "--exit-code", "--quiet", "--check", "--src-prefix", "--dst-prefix", "--no-prefix", "--relative", "--text", "--full-index", "--compact-summary", "--stat-width", "--stat-count", "--no-ext-diff", "--no-textconv", "--indent-heuristic", "--no-indent-heuristic", "--parents", "--children", "--not", "--pickaxe-all", "--pickaxe-regex", "--ignore-submodules", "--use-mailmap", "--no-mailmap", "--show-linear-break", "--author", "--committer", "--grep", "--max-count", "--skip"}},
	{rule: "Bash(go test:*)", prefix: "go test", oneDash: true, dashes: "passes",
		takesNext: []string{"-run", "-skip", "-count", "-timeout", "-bench", "-benchtime", "-cpu", "-parallel", "-p", "-covermode", "-coverpkg", "-tags", "-list", "-shuffle", "-vet", "-fuzztime"},
		long:      []string{"-short", "-failfast", "-benchmem", "-json", "-v", "-race", "-msan", "-asan", "-a", "-n", "-x", "-trimpath", "-cover", "-run", "-skip", "-count", "-timeout", "-bench", "-benchtime", "-cpu", "-parallel", "-p", "-covermode", "-coverpkg", "-tags", "-list", "-shuffle", "-vet", "-fuzztime"}},
	{rule: "Bash(make test:*)", prefix: "make test", dashes: "ends", assigns: true, letters: "ksnqBrRwdpiS", valued: "jlO",
		long: []string{"--keep-going", "--silent", "--quiet", "--no-print-directory", "--print-directory", "--jobs", "--dry-run", "--just-print", "--recon", "--always-make", "--question", "--no-builtin-rules", "--no-builtin-variables", "--debug", "--print-data-base", "--ignore-errors", "--output-sync", "--load-average", "--warn-undefined-variables", "--no-keep-going", "--stop"}},
	{rule: "Bash(npm run test:*)", prefix: "npm run test", dashes: "passes", letters: "sq",
		long: []string{"--silent", "--quiet", "--if-present", "--loglevel"}},
	{rule: "Bash(sort:*)", prefix: "sort", dashes: "ends", letters: "bdfgiMhnRrVcCsuz", valued: "ktS",
		long: []string{"--numeric-sort", "--reverse", "--unique", "--human-numeric-sort", "--version-sort", "--general-numeric-sort", "--ignore-case", "--stable", "--check", "--zero-terminated", "--ignore-leading-blanks", "--dictionary-order", "--month-sort", "--random-sort", "--parallel", "--key", "--field-separator", "--buffer-size"}},
	{rule: "Bash(pytest:*)", prefix: "pytest", dashes: "ends", letters: "qvsxl", valued: "kmnr", preparse: "-p", argFiles: "@",
		long: []string{"--verbose", "--quiet", "--exitfirst", "--lf", "--last-failed", "--ff", "--failed-first", "--nf", "--new-first", "--sw", "--stepwise", "--co", "--collect-only", "--showlocals", "--no-header", "--no-summary", "--disable-warnings", "--strict-markers", "--capture", "--runxfail", "--color", "--full-trace", "--maxfail", "--tb", "--durations", "--deselect", "--ignore"}},
	{rule: "Bash(cargo test:*)", prefix: "cargo test", dashes: "passes", letters: "qvr", valued: "pFj",
		takesNext: []string{"-p", "-F", "-j", "--features", "--package", "--bin", "--test", "--bench", "--example", "--jobs", "--exclude", "--profile"},
		long:      []string{"--release", "--all-targets", "--all-features", "--no-default-features", "--workspace", "--all", "--lib", "--bins", "--tests", "--benches", "--examples", "--quiet", "--verbose", "--locked", "--frozen", "--offline", "--color", "--message-format", "--no-fail-fast", "--doc", "--keep-going", "--no-run", "--features", "--package", "--bin", "--test", "--bench", "--example", "--jobs", "--exclude", "--profile"},
		after:     &optionOracle{letters: "q", long: []string{"--nocapture", "--ignored", "--include-ignored", "--exact", "--quiet", "--show-output", "--list", "--color", "--test-threads", "--skip"}}},
	{rule: "Bash(ls:*)", prefix: "ls", dashes: "ends", anyOption: true},
})

// withGlobs adds to oracles the same rules written as globs: Bash(git log *).
func withGlobs(oracles []optionOracle) []optionOracle {
	n := len(oracles)
	for _, o := range oracles[:n] {
		o.rule = "Bash(" + o.prefix + " *)"
		oracles = append(oracles, o)
	}
	return oracles
}

// allows reports whether the oracle lets the words past the prefix
// through. A -- right after an option with no value in its word may be
// that option's value, so it ends nothing when the program's -- ends the
// options, and for a program whose -- passes words on it is a value after
// the options known to take one.
func (o optionOracle) allows(words []string) bool {
	ended, passed, afterOption, takesNext := false, false, false, false
	for _, w := range words {
		wasOption, wasValued := afterOption, takesNext
		afterOption, takesNext = false, false
		if o.preparse != "" && strings.HasPrefix(w, o.preparse) || o.argFiles != "" && strings.HasPrefix(w, o.argFiles) {
			return false
		}
		switch {
		case passed && o.after == nil && len(w) > 1 && w[0] == '+':
			return false // a program forge does not know may read +X as an option (vim +cmd)
		case ended || !strings.HasPrefix(w, "-") || w == "-":
			if o.assigns && strings.IndexByte(w, '=') > 0 {
				return false
			}
		case w == "--":
			switch {
			case passed || wasValued:
			case o.dashes == "ends" && !wasOption:
				ended = true
			case o.dashes == "passes":
				passed = true
			}
		case passed:
			if o.after == nil || !o.after.option(w) {
				return false
			}
		case !o.anyOption && !o.option(w):
			return false
		default:
			afterOption = !strings.Contains(w, "=")
			takesNext = o.valueNext(w)
		}
	}
	return true
}

// valueNext reports whether the harmless option word w takes the next
// word as its value: one of takesNext with no value in its word, or a
// short option cluster whose first valued letter ends it (-rp).
func (o optionOracle) valueNext(w string) bool {
	if o.oneDash && strings.HasPrefix(w, "--") {
		w = w[1:]
	}
	if slices.Contains(o.takesNext, w) {
		return true
	}
	if o.oneDash || strings.HasPrefix(w, "--") {
		return false
	}
	i := strings.IndexAny(w[1:], o.valued) + 1
	return i == len(w)-1 && slices.Contains(o.takesNext, "-"+w[i:])
}

// option reports whether the option word w is a harmless one.
func (o optionOracle) option(w string) bool {
	if strings.HasPrefix(w, "--") || o.oneDash {
		name, _, _ := strings.Cut(w, "=")
		if o.oneDash && strings.HasPrefix(name, "--") {
			name = name[1:]
		}
		return slices.Contains(o.long, name) || name == "--help" || name == "--version"
	}
	for i := 1; i < len(w); i++ {
		switch {
		case strings.IndexByte(o.valued, w[i]) >= 0:
			return true
		case strings.IndexByte(o.letters, w[i]) < 0:
			return false
		}
	}
	return true
}

// quoteWord single-quotes w for bash, so that it is exactly one word.
func quoteWord(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// FuzzPrefixOptions: for any words after an allowed prefix, the line is
// allowed only if the oracle lets every word through (an operand without
// code semantics, or a harmless option), and a line the oracle lets
// through does not ask about its options. The seeds are the spellings that
// ran code or wrote files through such rules.
func FuzzPrefixOptions(f *testing.F) {
	for _, seed := range []struct {
		prefix uint8
		words  string
	}{
		{0, "-1 --format=tformat:x --output=/var/tmp/ah/.bashrc"}, {0, "--oneline -n 5 --stat"}, {0, "-- --output=x"},
		{0, "--outp=x"}, {0, "-pOx"}, {1, "-o /tmp/x ./..."}, {1, "-coverprofile=c.out"}, {1, "--coverprofile c.out"},
		{1, "-C /tmp ./..."}, {1, "-race -v -count=1 -run TestX ./..."}, {1, "./... -- -test.coverprofile=x"},
		{2, "--eval=x:=$(shell id)"}, {2, "-E x:=1"}, {2, "-Ex:=1"}, {2, "-sE x"}, {2, "CC=x"}, {2, "x!=id"},
		{2, "-- SHELL=/tmp/sh"}, {2, "-j4 -k"}, {2, "-j 4"}, {3, "--node-options=--import=data:x"}, {3, "--userconfig=/tmp/rc"},
		{3, "--prefix /tmp"}, {3, "-w pkg"}, {3, "-- --require=x"}, {3, "--silent"}, {4, "-o out x"}, {4, "-oout"},
		{4, "-ro out"}, {4, "-rn -k2,2"}, {5, "-c evil.ini"}, {5, "-o addopts=-pevil"}, {5, "-xq -k x"}, {5, "-p evil"},
		{6, "--manifest-path=/tmp/Cargo.toml"}, {6, "--manifest-path /tmp/x"}, {6, "-- --nocapture --test-threads=1"},
		{6, "-- --logfile /tmp/x"}, {7, "-la --color=auto"},
		// a -- that an option before it may take as its value
		{0, "-U -- --output=x"}, {0, "--oneline -- --output=x"}, {1, "-run -- -o /tmp/x"}, {1, "-tags -- -race"},
		{2, "-k -- -E x:=1"}, {4, "-k -- --output=x"}, {4, "-r -- -o x"}, {5, "-k -- --rootdir=/tmp"},
		{5, "-- -pevil"}, {5, "@args"}, {5, "-x -- @args"}, {5, "tests -k x -- -p evil"}, {6, "-p -- --config=x"}, {6, "--profile -- --nocapture"},
		{7, "-la -- -x"},
	} {
		f.Add(seed.prefix, seed.words)
	}
	fx := newFixture(f)
	policies := make([]*Policy, len(optionOracles))
	for i, o := range optionOracles {
		policies[i] = fx.policy(f, ModeAsk, []string{o.rule}, nil)
	}
	f.Fuzz(func(t *testing.T, prefix uint8, words string) {
		if len(words) > 1000 || strings.ContainsAny(words, "\x00\r") {
			return
		}
		o := optionOracles[int(prefix)%len(optionOracles)]
		ws := strings.Fields(words)
		line := o.prefix
		for _, w := range ws {
			line += " " + quoteWord(w)
		}
		v := policies[int(prefix)%len(optionOracles)].Decide(bash(line))
		want := o.allows(ws)
		if v.Decision == Allow && !want {
			t.Fatalf("%s allowed %q, which has a word the rule does not name: %s", o.rule, line, v.Reason)
		}
		if v.Decision != Allow && want && (strings.Contains(v.Reason, "not named by the rule") || strings.Contains(v.Reason, "may expand to")) {
			t.Fatalf("%s asked about %q, whose words are all harmless: %s", o.rule, line, v.Reason)
		}
	})
}

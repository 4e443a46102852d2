package permission

import (
	"path"
	"strings"
	"sync"
)

// The options below are those a prefix rule lets through unnamed. Each is
// known to neither run nor load code or configuration, nor write a file,
// nor change the directory or the repository the program works on. What
// is missing asks, so an entry is added only when that is checked:
// options such as git's --output, go's -o, -C and -coverprofile, make's
// -f, -C, -E and -e, npm's --prefix and --userconfig, pytest's -c, -o and
// -p, and cargo's --manifest-path stay out.

// optionTable is built on first use, so that starting forge for a command
// that checks no rule costs nothing.
var optionTable = sync.OnceValue(buildOptionTable)

// buildOptionTable returns the spec of each program forge knows the
// options of, by name.
func buildOptionTable() map[string]*optionSpec {
	harmless := &optionSpec{anyOption: true}
	t := map[string]*optionSpec{
		"git": gitSpec(), "go": goSpec(), "cargo": cargoSpec(), "npm": npmSpec(), "make": makeSpec(),
		"find": findSpec(), "rg": rgSpec(), "sort": sortSpec(), "jq": jqSpec(), "xargs": xargsSpec(),
		"pytest": pytestSpec(),
		// not -i, which edits files in place, nor -f, which reads a
		// script; the script itself is judged apart
		"sed": {flags: "nErsuz", valued: "el", long: []string{"--quiet", "--silent", "--regexp-extended", "--separate",
			"--unbuffered", "--null-data", "--posix", "--sandbox", "--debug"}, longValued: []string{"--expression", "--line-length"}},
		// not -f, -e, -i, -l or -E (gawk), which read or load programs
		"awk": {valued: "Fv", longValued: []string{"--field-separator", "--assign"}},
		// not -s, which sets the clock, nor -f; +FORMAT is an operand
		// (and an operand other than +FORMAT sets the clock too)
		"date": {flags: "uR", valued: "dr", optValued: "I", long: []string{"--utc", "--universal", "--iso-8601",
			"--rfc-email", "--debug"}, longValued: []string{"--date", "--reference", "--rfc-3339"}},
		// not -w, which rewrites the files
		"gofmt": {oneDash: true, long: []string{"-l", "-d", "-s", "-e"}, longValued: []string{"-r"}},
		// not macOS's -o and --output, which write the file they name
		"base64": {flags: "dDi", valued: "wb", long: []string{"--decode", "--ignore-garbage"},
			longValued: []string{"--wrap", "--break", "--input"}},
		// what runs forge itself, but for its read-only commands, always asks
		"forge": {flags: "vh"},
	}
	t["gmake"], t["py.test"], t["gsed"] = t["make"], t["pytest"], t["sed"]
	t["gawk"], t["mawk"], t["nawk"] = t["awk"], t["awk"], t["awk"]
	t["python"] = &optionSpec{flags: "uBqsEIPO", modules: map[string]*optionSpec{"pytest": t["pytest"], "unittest": {flags: "vqfb", valued: "kp"}}}
	// programs none of whose options runs code, reads configuration,
	// writes a file or changes directory
	for _, name := range []string{"ls", "cat", "tac", "nl", "wc", "head", "tail", "echo", "pwd", "basename",
		"dirname", "realpath", "readlink", "stat", "du", "df", "true", "false", "whoami", "id", "uname", "grep",
		"egrep", "fgrep", "diff", "cmp", "test", "[", "cd", "pushd", "popd", "cut", "tr", "uniq", "comm", "seq",
		"which", "printenv", "nproc", "sleep", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "od",
		"hexdump", "column", "fold", "expand", "unexpand", "rev", "paste", "join", "ps", "pgrep", "free",
		"uptime", "locale", "tty", "whereis"} {
		t[name] = harmless
	}
	return t
}

// programOptions returns the spec of the program name, nil when forge
// does not know its options.
func programOptions(name string) *optionSpec {
	if v, ok := strings.CutPrefix(name, "python"); ok && strings.Trim(v, "0123456789.") == "" {
		name = "python" // python3, python3.12
	}
	return optionTable()[name]
}

// programSpec returns the spec of the program the word prog names: by its
// name when it is looked up in PATH or is in a system directory, and nil
// for a program elsewhere (./ls is not ls).
func programSpec(prog string) *optionSpec {
	if dir, name := path.Split(prog); dir != "" {
		switch path.Clean(dir) {
		case "/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/opt/homebrew/bin":
			return programOptions(name)
		}
		return nil
	}
	return programOptions(prog)
}

// gitSpec returns git's spec: before the subcommand, git -C, -c,
// --git-dir, --work-tree and --exec-path change what git reads and runs.
func gitSpec() *optionSpec {
	gitLog := &optionSpec{
		flags: "0123456789pusMCBDRazwbrtmqWiEF", valued: "nSGL", optValued: "U",
		long: []string{"--oneline", "--stat", "--shortstat", "--numstat", "--dirstat", "--summary", "--name-only",
			"--name-status", "--graph", "--decorate", "--no-decorate", "--all", "--branches", "--tags", "--remotes",
			"--format", "--pretty", "--abbrev-commit", "--no-abbrev-commit", "--abbrev", "--color", "--no-color",
			"--color-words", "--patch", "--no-patch", "--patch-with-stat", "--raw", "--cached", "--staged",
			"--merge-base", "--reverse", "--since", "--until", "--after", "--before", "--all-match", "--invert-grep",
			"--merges", "--no-merges", "--first-parent", "--follow", "--date", "--relative-date", "--word-diff",
			"--word-diff-regex", "--ignore-all-space", "--ignore-space-change", "--ignore-blank-lines",
			"--ignore-cr-at-eol", "--unified", "--function-context", "--minimal", "--patience", "--histogram",
			"--diff-algorithm", "--diff-filter", "--find-renames", "--find-copies", "--no-renames", "--full-diff",
			"--full-history", "--simplify-merges", "--ancestry-path", "--left-right", "--cherry-pick", "--cherry-mark",
			"--boundary", "--no-walk", "--topo-order", "--date-order", "--author-date-order", "--encoding",
			"--regexp-ignore-case", "--extended-regexp", "--fixed-strings", "--perl-regexp", "--exit-code",
			"--quiet", "--check", "--src-prefix", "--dst-prefix", "--no-prefix", "--relative", "--text",
			"--full-index", "--compact-summary", "--stat-width", "--stat-count", "--no-ext-diff", "--no-textconv",
			"--indent-heuristic", "--no-indent-heuristic", "--parents", "--children", "--not", "--pickaxe-all",
			"--pickaxe-regex", "--ignore-submodules", "--use-mailmap", "--no-mailmap", "--show-linear-break"},
		longValued: []string{"--author", "--committer", "--grep", "--max-count", "--skip"},
	}
	return &optionSpec{
		// before the subcommand: git -C, -c, --git-dir, --work-tree and
		// --exec-path change what git reads and runs
		flags: "Pp", long: []string{"--no-pager", "--paginate", "--no-optional-locks", "--literal-pathspecs",
			"--no-replace-objects", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs"},
		subs: map[string]*optionSpec{
			"log": gitLog, "show": gitLog, "diff": gitLog, "whatchanged": gitLog,
			"status": {flags: "sbvz", optValued: "u", long: []string{"--short", "--branch", "--porcelain", "--long",
				"--verbose", "--untracked-files", "--ignored", "--ignore-submodules", "--column", "--no-column",
				"--ahead-behind", "--no-ahead-behind", "--renames", "--no-renames", "--find-renames", "--show-stash"}},
			"branch": {flags: "avrlq", long: []string{"--list", "--all", "--remotes", "--verbose", "--show-current",
				"--color", "--no-color", "--column", "--no-column", "--abbrev", "--quiet"},
				longValued: []string{"--contains", "--no-contains", "--merged", "--no-merged", "--sort", "--points-at", "--format"}},
			"blame": {flags: "lstfnecwMCp", valued: "L", long: []string{"--porcelain", "--line-porcelain",
				"--show-email", "--show-name", "--show-number", "--root", "--show-stats", "--incremental"},
				longValued: []string{"--date"}},
			"grep": {flags: "nilvwcEFPhHorIqzapW", valued: "eABCm", long: []string{"--line-number", "--ignore-case",
				"--invert-match", "--word-regexp", "--count", "--extended-regexp", "--fixed-strings", "--perl-regexp",
				"--basic-regexp", "--files-with-matches", "--name-only", "--files-without-match", "--cached",
				"--untracked", "--recurse-submodules", "--heading", "--break", "--show-function", "--function-context",
				"--all-match", "--color", "--no-color", "--full-name", "--and", "--or", "--not",
				"--only-matching", "--column", "--text", "--null", "--quiet"},
				longValued: []string{"--max-count", "--context", "--after-context", "--before-context", "--max-depth"}},
			"ls-files": {flags: "comdkstuvz", long: []string{"--cached", "--others", "--modified", "--deleted",
				"--killed", "--stage", "--unmerged", "--exclude-standard", "--full-name", "--error-unmatch",
				"--directory", "--no-empty-directory", "--ignored", "--abbrev", "--eol"}, longValued: []string{"--exclude"}},
			"rev-parse": {flags: "q", long: []string{"--show-toplevel", "--abbrev-ref", "--short", "--verify",
				"--git-dir", "--git-common-dir", "--absolute-git-dir", "--is-inside-work-tree", "--is-bare-repository",
				"--show-prefix", "--show-cdup", "--symbolic-full-name", "--quiet"}, longValued: []string{"--default"}},
			"shortlog": {flags: "nsec", long: []string{"--summary", "--numbered", "--email", "--committer", "--format"}},
			"describe": {long: []string{"--tags", "--always", "--abbrev", "--long", "--dirty", "--all", "--exact-match",
				"--contains", "--first-parent"}, longValued: []string{"--match", "--exclude"}},
			"remote": {flags: "v", long: []string{"--verbose"}},
			"tag": {flags: "l", long: []string{"--list", "--column", "--no-column"}, longValued: []string{"--sort",
				"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--format"}},
			"stash": {flags: "pqu", valued: "m", long: []string{"--patch", "--stat", "--include-untracked",
				"--keep-index", "--quiet", "--name-only"}, longValued: []string{"--message"}},
			"add": {flags: "AuNvn", long: []string{"--all", "--update", "--intent-to-add", "--verbose", "--dry-run",
				"--no-all", "--ignore-removal"}},
			"commit": {flags: "aqvsn", valued: "m", long: []string{"--all", "--amend", "--no-edit", "--signoff",
				"--quiet", "--verbose", "--allow-empty", "--allow-empty-message", "--no-verify", "--dry-run",
				"--short", "--porcelain"}, longValued: []string{"--message", "--author", "--fixup", "--squash"}},
			"checkout": {flags: "q", valued: "b", long: []string{"--track", "--no-track", "--detach", "--quiet"}},
			"switch":   {flags: "q", valued: "c", long: []string{"--track", "--no-track", "--detach", "--quiet"}, longValued: []string{"--create"}},
			"fetch": {flags: "aqvpPt", long: []string{"--all", "--prune", "--prune-tags", "--tags", "--no-tags",
				"--quiet", "--verbose", "--unshallow", "--dry-run"}, longValued: []string{"--depth"}},
			"pull": {flags: "qvr", long: []string{"--rebase", "--no-rebase", "--ff-only", "--ff", "--no-ff", "--quiet",
				"--verbose", "--prune", "--tags", "--autostash", "--no-autostash"}},
			"push": {flags: "unqv", long: []string{"--set-upstream", "--tags", "--dry-run", "--quiet", "--verbose",
				"--follow-tags", "--no-verify"}},
			"cat-file": {flags: "ptse"},
			// reads only: what writes the configuration always asks
			"config": {flags: "lz", long: []string{"--get", "--get-all", "--get-regexp", "--list", "--show-origin",
				"--show-scope", "--name-only", "--null", "--bool", "--int", "--path", "--global", "--system", "--local"},
				longValued: []string{"--type", "--default"}},
		},
	}
}

// goSpec returns go's spec.
func goSpec() *optionSpec {
	goBuildFlags := []string{"-v", "-race", "-msan", "-asan", "-a", "-n", "-x", "-trimpath", "-cover"}
	goTestOptions := &optionSpec{
		oneDash: true,
		long:    append([]string{"-short", "-failfast", "-benchmem", "-json"}, goBuildFlags...),
		longValued: []string{"-run", "-skip", "-count", "-timeout", "-bench", "-benchtime", "-cpu", "-parallel", "-p",
			"-covermode", "-coverpkg", "-tags", "-list", "-shuffle", "-vet", "-fuzztime"},
		passes: true, // what follows -- may reach the test binary: -test.coverprofile writes
	}
	return &optionSpec{
		oneDash: true,
		subs: map[string]*optionSpec{
			"test":  goTestOptions,
			"build": {oneDash: true, long: goBuildFlags, longValued: []string{"-tags", "-p"}},
			"vet":   {oneDash: true, long: []string{"-v", "-json", "-x", "-n"}, longValued: []string{"-tags"}},
			"list": {oneDash: true, long: []string{"-json", "-m", "-e", "-deps", "-test", "-find", "-versions", "-export"},
				longValued: []string{"-f", "-tags"}},
			"mod":     {oneDash: true, long: []string{"-v", "-e", "-x", "-json"}},
			"fmt":     {oneDash: true, long: []string{"-n", "-x"}},
			"doc":     {oneDash: true, long: []string{"-all", "-u", "-src", "-short", "-c", "-cmd"}},
			"version": {oneDash: true, long: []string{"-m", "-v", "-json"}},
		},
	}
}

// cargoSpec returns cargo's spec.
func cargoSpec() *optionSpec {
	cargoCommon := optionSpec{
		flags: "qvr", valued: "pFj",
		long: []string{"--release", "--all-targets", "--all-features", "--no-default-features", "--workspace", "--all",
			"--lib", "--bins", "--tests", "--benches", "--examples", "--quiet", "--verbose", "--locked", "--frozen",
			"--offline", "--color", "--message-format", "--no-fail-fast", "--doc", "--keep-going", "--no-run"},
		// not --target either: a target given as a path is a JSON file that names the linker
		longValued: []string{"--features", "--package", "--bin", "--test", "--bench", "--example", "--jobs",
			"--exclude", "--profile"},
	}
	cargoWith := func(after *optionSpec) *optionSpec {
		s := cargoCommon
		s.passes, s.after = true, after
		return &s
	}
	return &optionSpec{
		flags: "qv", long: []string{"--quiet", "--verbose", "--locked", "--frozen", "--offline", "--color"},
		subs: map[string]*optionSpec{
			// the test harness: not --logfile, which writes
			"test": cargoWith(&optionSpec{flags: "q", long: []string{"--nocapture", "--ignored", "--include-ignored",
				"--exact", "--quiet", "--show-output", "--list", "--color"}, longValued: []string{"--test-threads", "--skip"}}),
			"build": cargoWith(nil), "check": cargoWith(nil), "run": cargoWith(nil), "bench": cargoWith(nil),
			"doc": cargoWith(nil),
			// lint levels only: not -C, which sets rustc's linker, nor
			// rustc's @FILE, which reads more options from a file
			"clippy": cargoWith(&optionSpec{valued: "DWAF", long: []string{"--deny", "--warn", "--allow", "--forbid"},
				argFiles: "@"}),
			"fmt": {flags: "qv", long: []string{"--all", "--check", "--quiet", "--verbose"}, passes: true,
				after: &optionSpec{long: []string{"--check"}}},
		},
	}
}

// npmSpec returns npm's spec.
func npmSpec() *optionSpec {
	npmScript := &optionSpec{flags: "sq", long: []string{"--silent", "--quiet", "--if-present", "--loglevel"}, passes: true}
	return &optionSpec{
		flags: "sq", long: []string{"--silent", "--quiet", "--loglevel"},
		subs: map[string]*optionSpec{
			"test": npmScript, "t": npmScript, "tst": npmScript, "run": npmScript, "run-script": npmScript,
			"start": npmScript, "stop": npmScript, "restart": npmScript,
			"ci": {flags: "sqDE", long: []string{"--silent", "--quiet", "--no-audit", "--no-fund", "--prefer-offline",
				"--ignore-scripts", "--legacy-peer-deps", "--loglevel", "--omit", "--include", "--no-save"}},
			"ls": {flags: "a", long: []string{"--all", "--json", "--long", "--parseable", "--prod", "--dev", "--depth", "--omit"}},
		},
	}
}

// makeSpec is the spec of make.
func makeSpec() *optionSpec {
	return &optionSpec{
		// not -f, -C, -I, -E, -e, -o, -W or -t
		flags: "ksnqBrRwdpiS", optValued: "jlO",
		long: []string{"--keep-going", "--silent", "--quiet", "--no-print-directory", "--print-directory", "--jobs",
			"--dry-run", "--just-print", "--recon", "--always-make", "--question", "--no-builtin-rules",
			"--no-builtin-variables", "--debug", "--print-data-base", "--ignore-errors", "--output-sync",
			"--load-average", "--warn-undefined-variables", "--no-keep-going", "--stop"},
	}
}

// pytestSpec is the spec of pytest.
func pytestSpec() *optionSpec {
	return &optionSpec{
		// not -c, -o, -p, -W, --rootdir, --confcutdir, --basetemp, --junitxml;
		// and -p asks wherever it stands, since pytest loads the plugins
		// it names before it parses its options
		// it; @FILE reads more arguments from a file
		flags: "qvsxl", valued: "kmnr", preparse: "-p", argFiles: "@",
		long: []string{"--verbose", "--quiet", "--exitfirst", "--lf", "--last-failed", "--ff", "--failed-first",
			"--nf", "--new-first", "--sw", "--stepwise", "--co", "--collect-only", "--showlocals", "--no-header",
			"--no-summary", "--disable-warnings", "--strict-markers", "--capture", "--runxfail", "--color",
			"--full-trace"},
		longValued: []string{"--maxfail", "--tb", "--durations", "--deselect", "--ignore"},
	}
}

// findSpec is the spec of find.
func findSpec() *optionSpec {
	return &optionSpec{
		// not -delete, -fprint, -fprint0, -fprintf or -fls; what -exec runs
		// is a command of its own, which a rule must allow
		oneDash: true, runs: []string{"-exec", "-execdir", "-ok", "-okdir"}, expressionPastDashes: true,
		long: []string{"-exec", "-execdir", "-ok", "-okdir", "-print", "-print0", "-ls", "-prune", "-quit", "-not", "-and", "-or", "-a", "-o", "-true",
			"-false", "-follow", "-depth", "-mount", "-xdev", "-noleaf", "-empty", "-readable", "-writable",
			"-executable", "-nouser", "-nogroup", "-L", "-H", "-P", "-daystart", "-ignore_readdir_race"},
		longValued: []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
			"-type", "-xtype", "-maxdepth", "-mindepth", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
			"-newer", "-anewer", "-cnewer", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum",
			"-samefile", "-printf", "-regextype", "-used", "-lname", "-ilname"},
	}
}

// rgSpec is the spec of rg.
func rgSpec() *optionSpec {
	return &optionSpec{
		// not --pre, --pre-glob, nor -z, --search-zip, which run
		// decompressors found in PATH on the files
		flags: "nilwvcFSuUHNoxsL0IaqPb", valued: "egtTABCmMjdrE",
		long: []string{"--hidden", "--no-ignore", "--files", "--json", "--vimgrep", "--count", "--count-matches",
			"--fixed-strings", "--ignore-case", "--smart-case", "--case-sensitive", "--line-number", "--no-line-number",
			"--files-with-matches", "--files-without-match", "--no-heading", "--heading", "--color", "--sort",
			"--sortr", "--multiline", "--multiline-dotall", "--word-regexp", "--invert-match", "--only-matching",
			"--type-list", "--follow", "--null", "--trim", "--stats", "--pcre2", "--column", "--with-filename",
			"--no-filename", "--unrestricted", "--text", "--byte-offset", "--passthru", "--glob-case-insensitive",
			"--crlf", "--no-config", "--no-messages", "--quiet", "--no-ignore-vcs", "--max-columns-preview"},
		longValued: []string{"--type", "--type-not", "--glob", "--iglob", "--max-count", "--context", "--after-context",
			"--before-context", "--max-depth", "--replace", "--max-columns", "--max-filesize", "--threads",
			"--regexp", "--encoding", "--type-add"},
	}
}

// sortSpec is the spec of sort.
func sortSpec() *optionSpec {
	return &optionSpec{
		// not -o, -T, --compress-program, --files0-from, --random-source
		flags: "bdfgiMhnRrVcCsuz", valued: "ktS",
		long: []string{"--numeric-sort", "--reverse", "--unique", "--human-numeric-sort", "--version-sort",
			"--general-numeric-sort", "--ignore-case", "--stable", "--check", "--zero-terminated",
			"--ignore-leading-blanks", "--dictionary-order", "--month-sort", "--random-sort", "--parallel"},
		longValued: []string{"--key", "--field-separator", "--buffer-size"},
	}
}

// jqSpec is the spec of jq.
func jqSpec() *optionSpec {
	return &optionSpec{
		// not -f, -L, --from-file, --rawfile, --slurpfile: they read code or files
		flags: "rcsSjneCMaR",
		long: []string{"--raw-output", "--compact-output", "--slurp", "--sort-keys", "--join-output", "--null-input",
			"--exit-status", "--color-output", "--monochrome-output", "--ascii-output", "--tab", "--indent",
			"--raw-input", "--seq", "--stream", "--arg", "--argjson"},
	}
}

// xargsSpec is the spec of xargs.
func xargsSpec() *optionSpec {
	return &optionSpec{
		// not -a, which reads the arguments from a file
		flags: "0rtx", valued: "nIPdLEs",
		// --eof, --replace and --max-lines take a value only after =
		long:       []string{"--null", "--no-run-if-empty", "--verbose", "--exit", "--replace", "--max-lines", "--eof"},
		longValued: []string{"--max-args", "--max-procs", "--delimiter", "--max-chars"},
	}
}

package permission

import (
	"path"
	"strings"
)

// execOptions are options of common programs that make them run another
// program or a shell line named in the option: a rule for the program
// (Bash(go test:*)) does not name what such an option runs, so a command
// using one is never allowed by a rule with a pattern.
var execOptions = map[string][]string{
	"go":     {"-exec", "-toolexec", "-vettool", "-overlay"},
	"git":    {"--upload-pack", "--receive-pack", "--exec", "--extcmd", "--open-files-in-pager", "--ext-diff"},
	"rg":     {"--pre"},
	"fd":     {"--exec", "--exec-batch"},
	"fdfind": {"--exec", "--exec-batch"},
	"tar": {"--to-command", "--use-compress-program", "--checkpoint-action", "--info-script", "--new-volume-script",
		"--rsh-command"},
	"rsync":  {"--rsh", "--rsync-path"},
	"ssh":    {"-o", "-F"},
	"scp":    {"-S", "-o", "-F"},
	"sftp":   {"-S", "-o", "-F"},
	"sort":   {"--compress-program"},
	"zip":    {"-TT", "--unzip-command"},
	"man":    {"-P", "--pager", "-H", "--html"},
	"pytest": {"-p"},
	"cargo":  {"--config"},
	"npm":    {"--script-shell"},
	"pnpm":   {"--script-shell"},
	"yarn":   {"--script-shell"},
}

// execShortOptions are single-letter options that run a program for some
// of these programs only in some subcommands; they are judged by
// execOption with the subcommand in view.
var execShortOptions = map[string]string{
	"fd": "xX", "fdfind": "xX", "tar": "IF", "rsync": "e",
}

// whyExecOption is the reason for a command with such an option.
func whyExecOption(opt string) string {
	return "runs the program its option " + opt + " names, which no allow rule covers"
}

// execOption returns the option of ws that makes its program run another
// one, and the value it runs when forge can read it: go test -exec, git
// rebase -x, rg --pre, tar -I, make SHELL=... and the like.
func execOption(ws []word) (string, *word) {
	if len(ws) < 2 || !ws[0].literal() {
		return "", nil
	}
	name := path.Base(ws[0].allow)
	args := ws[1:]
	switch name {
	case "make", "gmake":
		for _, w := range args { // make VAR=value overrides the Makefile: SHELL, CC, ...
			if n, v, ok := strings.Cut(w.allow, "="); ok && validName(n) {
				value := staticWord(v)
				return w.allow, &value
			}
		}
		return "", nil
	case "git":
		sub, rest := gitSubcommand(args)
		if sub == "filter-branch" || sub == "bisect" && hasWordAllow(rest, "run") || sub == "submodule" && hasWordAllow(rest, "foreach") {
			return "git " + sub, nil
		}
		for i, w := range rest {
			if gitRunsOption(sub, w.allow) {
				return w.allow, optionValue(rest, i, 2)
			}
		}
	}
	long, short := execOptions[name], execShortOptions[name]
	for i, w := range args {
		a := w.allow
		for _, opt := range long {
			switch {
			case a == opt:
				return opt, optionValue(args, i, len(a))
			case strings.HasPrefix(a, opt+"="):
				return opt, optionValue(args, i, len(opt)+1)
			case len(opt) == 2 && strings.HasPrefix(a, opt):
				return opt, optionValue(args, i, 2)
			}
		}
		if short != "" && len(a) >= 2 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:2], short) {
			return a, optionValue(args, i, 2)
		}
	}
	return "", nil
}

// optionValue returns the value of the option args[i]: the rest of the
// word past its first n bytes, or the next word.
func optionValue(args []word, i, n int) *word {
	if n < len(args[i].allow) {
		v := valueAfter(args[i], n)
		return &v
	}
	if i+1 < len(args) {
		return &args[i+1]
	}
	return nil
}

// gitRunsOption reports whether, for git's subcommand sub, the short
// option a runs a program: -u (upload-pack) of clone, fetch, pull and
// ls-remote; -x of rebase and difftool; -O of grep.
func gitRunsOption(sub, a string) bool {
	switch {
	case strings.HasPrefix(a, "-u") && (sub == "clone" || sub == "fetch" || sub == "pull" || sub == "ls-remote" || sub == "archive"):
		return true
	case strings.HasPrefix(a, "-x") && (sub == "rebase" || sub == "difftool"):
		return true
	case strings.HasPrefix(a, "-O") && sub == "grep":
		return true
	}
	return false
}

// hasWordAllow reports whether one of ws is literally s.
func hasWordAllow(ws []word, s string) bool {
	for _, w := range ws {
		if w.literal() && w.allow == s {
			return true
		}
	}
	return false
}

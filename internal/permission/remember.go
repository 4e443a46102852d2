package permission

import (
	"path"
	"slices"
	"strings"
)

// SuggestRule returns the rules Remember would add for c: the narrowest
// rules that allow this call and calls like it.
//
// For a shell line it is one rule per simple command no rule allows yet:
// Bash(go test:*) for "go test ./...", Bash(npm run:*) for "npm run build",
// Bash(ls:*) for "ls -la". The second word joins the first when it looks
// like a subcommand (letters, digits, - and _, starting with a letter: not
// a flag, a path or a file name). A multi-command program (git, go, npm,
// docker, ...) whose second word is not a subcommand gets the exact
// command instead, as does a command that runs text the rule cannot see
// (source x, bash script.sh), since a prefix would allow anything. A line
// that does not parse, or has a command no pattern rule may allow (a
// redirection to a file, hidden text), gets none: it is approved once at a
// time. Any other tool gets the exact paths of the credentials it reaches
// and the hosts it sends data to (WebFetch(domain:example.com)), else its
// name, edit tools included (see suggestCall).
func (p *Policy) SuggestRule(c Call) []string {
	s := p.subjectsFor(c)
	if s.isCommand {
		if lp := p.protectedLine(c, &s.line); lp.protected || lp.unsure != "" && p.Mode() != ModeYolo {
			return nil // only the person may allow it, one call at a time
		}
	}
	return p.suggest(c, &s, p.rulesFor(c.Tool, nil))
}

// Remember adds SuggestRule(c) to the rules this Policy allows, for the
// rest of the session, and returns the rules it added.
func (p *Policy) Remember(c Call) []string {
	texts := p.SuggestRule(c)
	p.mu.Lock()
	defer p.mu.Unlock()
	var added []string
	for _, text := range texts {
		if p.knownSessionRule(text) {
			continue
		}
		r, err := ParseRule(text)
		if err != nil {
			continue // suggest only returns rules that parse
		}
		cr, err := p.compile(r)
		if err != nil {
			continue
		}
		p.session = append(p.session, cr)
		added = append(added, text)
	}
	return added
}

// knownSessionRule reports whether text is already remembered; p.mu is held.
func (p *Policy) knownSessionRule(text string) bool {
	for _, r := range p.session {
		if r.text == text {
			return true
		}
	}
	return false
}

// suggest is SuggestRule on subjects already worked out, with the allow
// and remembered rules naming the call's tool.
func (p *Policy) suggest(c Call, s *subjects, rules []*compiledRule) []string {
	if checkToolName(c.Tool) != "" || strings.ContainsAny(c.Tool, "*?[]{}\\") {
		return nil
	}
	if !s.isCommand {
		return p.suggestCall(c, s, rules)
	}
	if s.line.parseErr != nil {
		return nil
	}
	var out []string
	for i := range s.line.commands {
		cmd := &s.line.commands[i]
		if cmd.denyOnly || firstRule(rules, func(r *compiledRule) bool { return r.allowsCommand(cmd) }) != nil {
			continue
		}
		text, ok := commandRule(c.Tool, cmd)
		if !ok {
			return nil
		}
		if !slices.Contains(out, text) {
			out = append(out, text)
		}
	}
	return out
}

// commandRule returns the narrowest useful rule for a simple command, and
// false when no rule with a pattern can allow it.
func commandRule(tool string, c *command) (string, bool) {
	if c.unallowable != "" || len(c.words) == 0 || !c.words[0].literal() {
		return "", false
	}
	ws := c.words
	var pattern string
	switch {
	case c.runner, len(ws) > 1 && (destructive(path.Base(ws[0].allow)) || runsAnything(ws)):
		pattern = joinAllow(ws)
	case runsAnything(ws):
		pattern = ws[0].allow
	case len(ws) > 1 && ws[1].literal() && looksLikeSubcommand(ws[1].allow):
		pattern = ws[0].allow + " " + ws[1].allow + ":*"
	case len(ws) > 1 && multiCommand(path.Base(ws[0].allow)):
		pattern = joinAllow(ws)
	default:
		pattern = ws[0].allow + ":*"
	}
	r, err := ParseRule(tool + "(" + pattern + ")")
	if err != nil || strings.IndexByte(pattern, wild) >= 0 {
		return "", false
	}
	cr := &compiledRule{Rule: r}
	if r.kind == patternPrefix && cr.prefixOf(c) {
		if named, ok := namingPrefix(c, len(r.words)); !ok {
			return "", false
		} else if named > len(r.words) { // name the options the prefix does not: Bash(go test -coverprofile=c.out:*)
			return commandRuleText(tool, c, named)
		}
	}
	if !cr.allowsCommand(c) {
		return "", false // a word with spaces or parentheses the pattern cannot say
	}
	return r.String(), true
}

// namingPrefix returns how many words of c a prefix rule that starts with
// its first n words must name so that no further word is an option it
// does not name; false when such a word may only expand to one.
func namingPrefix(c *command, n int) (int, bool) {
	ws := c.ownWordsOf()
	for {
		f, bad := unnamedOption(ws, n)
		if !bad {
			return n, true
		}
		if !ws[f.at].literal() {
			return 0, false
		}
		n = f.at + 1
		// an option without =value may take the next word as its value:
		// name it too, so that the rule allows this value only
		if f.kind == "option" && !strings.Contains(ws[f.at].allow, "=") && n < len(ws) &&
			ws[n].literal() && !strings.HasPrefix(ws[n].allow, "-") {
			n++
		}
	}
}

// commandRuleText returns the prefix rule naming the first n words of c.
func commandRuleText(tool string, c *command, n int) (string, bool) {
	pattern := joinAllow(c.words[:n]) + ":*"
	r, err := ParseRule(tool + "(" + pattern + ")")
	if err != nil || strings.IndexByte(pattern, wild) >= 0 || !(&compiledRule{Rule: r}).allowsCommand(c) {
		return "", false
	}
	return r.String(), true
}

// looksLikeSubcommand reports whether s reads as a subcommand (test, run,
// install) rather than a flag, a path or a file name.
func looksLikeSubcommand(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// multiCommand reports whether name is a program whose first argument is
// a subcommand, so that its name alone would allow far too much.
func multiCommand(name string) bool {
	switch name {
	case "go", "git", "npm", "pnpm", "yarn", "bun", "deno", "cargo", "rustup", "docker", "podman",
		"kubectl", "helm", "gh", "glab", "pip", "pip3", "uv", "poetry", "pdm", "hatch", "conda",
		"dotnet", "mvn", "gradle", "terraform", "brew", "apt", "apt-get", "dnf", "yum", "systemctl",
		"nix", "composer", "bundle", "rake", "rails", "mix", "stack", "cabal", "dune", "zig",
		"swift", "flutter", "dart", "aws", "gcloud", "az", "just", "task", "make":
		return true
	}
	return false
}

// runsAnything reports whether the command ws is a program that runs
// arbitrary code or writes arbitrary files as its arguments say
// (interpreters, sed, find, make, a package runner's run verb): a prefix
// rule for it would allow everything, so only the exact command is
// suggested.
func runsAnything(ws []word) bool {
	name := path.Base(ws[0].allow)
	switch {
	case strings.HasPrefix(name, "python"), strings.HasPrefix(name, "pypy"), strings.HasPrefix(name, "ruby"),
		strings.HasPrefix(name, "perl"), strings.HasPrefix(name, "php"), strings.HasPrefix(name, "lua"),
		strings.HasPrefix(name, "node"), isShell(name):
		return true
	}
	switch name {
	case "deno", "bun", "bunx", "npx", "pnpx", "uvx", "pipx", "tclsh", "wish", "Rscript", "julia", "osascript",
		"pwsh", "powershell", "sed", "gsed", "awk", "gawk", "mawk", "nawk", "find", "env", "xargs", "parallel",
		"make", "gmake", "just", "vim", "vi", "nvim", "emacs", "ed", "ex", "ssh", "scp", "rsync", "cp", "mv",
		"tee", "install", "ln", "tar", "unzip", "curl", "wget", "watch", "script", "su", "runuser", "sudo", "doas",
		"pkexec", "strace", "ltrace", "gdb", "valgrind", "expect", "busybox", "nohup", "timeout", "nice",
		"stdbuf", "setsid", "flock", "command", "exec", "eval", "source", ".", "time":
		return true
	}
	if len(ws) < 2 || !ws[1].literal() {
		return false
	}
	verb := ws[1].allow
	switch name {
	case "npm", "pnpm", "yarn":
		return verb == "run" || verb == "run-script" || verb == "exec" || verb == "x" || verb == "dlx" || verb == "start"
	case "uv", "poetry", "pipenv", "pdm", "hatch", "cargo", "go", "dotnet", "deno":
		return verb == "run" || verb == "tool" || verb == "exec"
	case "pip", "pip3":
		return verb == "install" || verb == "download" || verb == "wheel"
	case "docker", "podman", "kubectl":
		return verb == "run" || verb == "exec" || verb == "cp"
	case "git":
		return verb == "-c" || verb == "config"
	}
	return false
}

// destructive reports whether name is a program whose every use can lose
// data or power: a rule for all of its uses (rm:*) is never suggested,
// only the exact command.
func destructive(name string) bool {
	switch name {
	case "rm", "rmdir", "shred", "dd", "truncate", "mkfs", "chmod", "chown", "chgrp", "sudo", "doas", "su",
		"kill", "killall", "pkill", "reboot", "shutdown":
		return true
	}
	return strings.HasPrefix(name, "mkfs.")
}

package permission

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// forgeDirName is the project's settings directory. An edit anywhere under
// a directory of this name changes what forge itself may do (settings,
// hooks, commands, agents), so it is always put to the person.
const forgeDirName = ".forge"

// Claude Code's project files, which forge reads as it reads .forge's:
// settings with allow rules and hooks, commands, agents, skills, and the
// MCP servers forge starts.
const (
	claudeDirName = ".claude"
	claudeMCPName = ".mcp.json"
)

// projectSettings says path is under a directory of forge's or Claude
// Code's project settings, or is a project's MCP file, in any case.
func projectSettings(path string) bool {
	return hasComponent(path, forgeDirName) || hasComponent(path, claudeDirName) ||
		strings.EqualFold(filepath.Base(path), claudeMCPName)
}

// protectedEdit says c edits a path that must never be edited unasked
// (under a .forge directory, a repository's .git/config or .git/hooks, or
// one of the protected places such as the person's own forge
// configuration). An agent allowed to edit files must not use that to
// give itself more: yolo in the project file, a hook that runs whatever it
// likes, a git setting that runs a program on the next git status.
func (p *Policy) protectedEdit(c Call, s *subjects) bool {
	if !c.EditsFiles {
		return false
	}
	for _, ps := range s.paths {
		for _, f := range slices.Concat(ps.lexical, ps.physical) {
			if projectSettings(f) || gitControl(f) {
				return true
			}
			for _, d := range p.protected {
				if within(f, d.lexical) || within(f, d.physical) {
					return true
				}
			}
		}
	}
	return false
}

// gitControl reports whether path is a repository's .git or under it.
// Much there makes git run programs (config and config.worktree with
// core.fsmonitor, core.pager, aliases and filters; hooks; commondir,
// which points git at another directory's configuration; the modules'
// and worktrees' own configuration), and git changes the rest itself: so
// the whole of it is the person's to change.
func gitControl(path string) bool {
	return hasComponent(path, ".git")
}

// protectedTargets lists the places a shell line's words are checked
// against: each protected place in both its forms and, for the working
// directory and every directory above it, its .forge and its .git control
// files (the project's settings and repository may be further up).
func protectedTargets(wd place, protected []place) []string {
	var out []string
	for _, d := range protected {
		out = appendNew(appendNew(out, d.lexical), d.physical)
	}
	for _, base := range []string{wd.lexical, wd.physical} {
		for dir := base; ; {
			out = appendNew(out, filepath.Join(dir, forgeDirName))
			out = appendNew(out, filepath.Join(dir, claudeDirName))
			out = appendNew(out, filepath.Join(dir, claudeMCPName))
			out = appendNew(out, filepath.Join(dir, ".git"))
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return out
}

// hasComponent reports whether one of the elements of path is name, in
// any case: on a case-insensitive disk .FORGE is the same directory.
func hasComponent(path, name string) bool {
	return slices.ContainsFunc(strings.Split(filepath.ToSlash(path), "/"), func(e string) bool {
		return strings.EqualFold(e, name)
	})
}

// forgeInLine finds a .forge path, or forge trust, in a shell line's
// text: even inside another program's code (python -c 'open(".forge/x")'),
// and after any character (x=aZ.forge split at IFS=Z is .forge).
var forgeInLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\.forge([/\s'"<>;&|)},` + "`" + `]|$)|(^|[\s;&|(/'"])forge['"]?\s+(-\S+\s+(\S+\s+)?)*trust\b`)
})

// gitControlInLine finds a .git directory named in a line's text.
var gitControlInLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s/'"=<>:;&|({,` + "`" + `])\.git([/\s'"<>;&|)},` + "`" + `]|$)`)
})

// containsFold reports whether s holds word (lower-case ASCII) in any
// case; cheaper than running the regular expressions on every line.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for ; j < len(word); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// lineProtection is what protectedLine found.
type lineProtection struct {
	// protected: the line names forge's own settings, trust, or what git
	// runs, and only the person may allow it.
	protected bool
	// unsure is a word that forge cannot resolve and that could name
	// such a place, or a credential ("" when there is none).
	unsure string
	// credential is a word that names a place where credentials are kept.
	credential string
	// holder is a word naming a directory above the credential place held,
	// in a line whose programs may read it whole.
	holder, held string
}

// protectedLine judges the shell line c runs: does it name forge's own
// settings (a .forge path, a protected place), a repository's .git
// control files, or trust a project? The words are matched as the shell
// will expand them (~, $HOME and the environment's variables, a cd before,
// .., globs such as .forg?); a word built from what forge cannot know
// ($(cmd), an unknown variable) is unsure. A shell cannot be followed
// into every write, so a line that names such a place is always put to
// the person, yolo or not.
func (p *Policy) protectedLine(c Call, l *shellLine) lineProtection {
	line, ok := c.Args["command"].(string)
	if !ok || c.ReadOnly {
		return lineProtection{}
	}
	if p.namesProtected(line) {
		return lineProtection{protected: true}
	}
	for i := range l.commands { // the same, with quotes taken out: .fo"r"ge, {.g'i't/config,}
		if c := &l.commands[i]; c.allowText != line && p.namesProtected(c.allowText) {
			return lineProtection{protected: true}
		}
	}
	for i := range l.commands {
		if runsForgeTrust(&l.commands[i]) || configuresGit(&l.commands[i]) {
			return lineProtection{protected: true}
		}
	}
	var lp lineProtection
	for i := range l.commands {
		if c := &l.commands[i]; p.writesUnseen(c) {
			lp.unsure = c.text
			break
		}
	}
	for _, r := range l.paths {
		named, sure := p.namesTarget(r, l.globDots)
		switch {
		case named && sure:
			return lineProtection{protected: true}
		case named && lp.unsure == "":
			lp.unsure = r.word
		}
		if lp.credential == "" && p.namesCredential(r, l.globDots) {
			if r.sure() {
				lp.credential = r.word
			} else if lp.unsure == "" {
				lp.unsure = r.word
			}
		}
	}
	if lp.credential == "" && lp.holder == "" && !listsNamesOnly(l) {
		lp = p.credentialHolder(lp, l)
	}
	return lp
}

// credentialHolder records in lp the first path word of l that names a
// directory holding a credential place, or (a glob) may name one.
func (p *Policy) credentialHolder(lp lineProtection, l *shellLine) lineProtection {
	for _, r := range l.paths {
		held, found, sure := p.holdsCredential(r)
		switch {
		case found && sure:
			lp.holder, lp.held = r.word, held
			return lp
		case found && lp.unsure == "":
			lp.unsure = r.word
		}
	}
	return lp
}

// namesCredential reports whether the path word r could name a file in a
// place where credentials are kept. A directory that holds one (grep -r
// over ~) is credentialHolder's.
func (p *Policy) namesCredential(r pathRef, dots bool) bool {
	if len(p.creds.places) == 0 && len(p.creds.names) == 0 || r.option {
		return false
	}
	if !strings.ContainsAny(r.pattern, "*?[\\\x00") {
		if p.inCredential(r.pattern) {
			return true
		}
		phys, ok := p.physicalOf(r)
		return ok && p.inCredential(phys)
	}
	items := parseGlob(r.pattern)
	for _, pl := range p.creds.places {
		if couldName(items, pl.lexical, dots) || couldName(items, pl.physical, dots) {
			return true
		}
	}
	return p.couldBeCredentialName(r.pattern)
}

// couldBeCredentialName reports whether a glob pattern outside the working
// directory could name a file the credential name globs match (.en? and
// .e* could be .env). Both globs are widened to * for the comparison.
func (p *Policy) couldBeCredentialName(pattern string) bool {
	if len(p.creds.names) == 0 || within(pattern, p.wd.lexical) || within(pattern, p.wd.physical) {
		return false
	}
	base := pattern[strings.LastIndexByte(pattern, '/')+1:]
	text := globAsWild(base)
	for _, g := range p.creds.names {
		if starIntersect(globAsStars(g), text) {
			return true
		}
	}
	return false
}

// globAsWild turns a shell glob into text whose globs are wild parts.
func globAsWild(s string) string {
	var b strings.Builder
	for _, it := range parseGlob(s) {
		if it.kind == 'l' {
			if it.c == '*' {
				b.WriteByte(wild) // a quoted * cannot be told from a star below: take it as anything
			} else {
				b.WriteByte(it.c)
			}
			continue
		}
		b.WriteByte(wild)
	}
	return b.String()
}

// globAsStars widens a doublestar name glob to a pattern of * alone.
func globAsStars(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '?', '*':
			b.WriteByte('*')
		case '[', '{':
			closer := byte(']')
			if c == '{' {
				closer = '}'
			}
			if end := strings.IndexByte(g[i:], closer); end > 0 {
				i += end
			}
			b.WriteByte('*')
		case '\\':
			if i+1 < len(g) {
				i++
				b.WriteByte(g[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// inCredential reports whether the absolute path f is in a credential
// place, or is a file the name globs match outside the working directory.
func (p *Policy) inCredential(f string) bool {
	for _, pl := range p.creds.places {
		if within(f, pl.lexical) || within(f, pl.physical) {
			return true
		}
	}
	if len(p.creds.names) == 0 || within(f, p.wd.lexical) || within(f, p.wd.physical) {
		return false
	}
	base := filepath.Base(f)
	return slices.ContainsFunc(p.creds.names, func(g string) bool {
		ok, err := doublestar.Match(g, base)
		return err == nil && ok
	})
}

// writesUnseen reports whether the command writes files whose names the
// line does not hold: it unpacks an archive or applies a patch (what
// they hold is not in the line), or copies a tree into a directory that
// holds a protected place (cp -r payload/. . may bring a .forge along).
func (p *Policy) writesUnseen(c *command) bool {
	if len(c.words) < 2 || !c.words[0].literal() {
		return false
	}
	args := c.words[1:]
	switch path.Base(c.words[0].allow) {
	case "tar", "bsdtar":
		a := args[0].allow
		return strings.HasPrefix(a, "x") || !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.Contains(a, "x") ||
			hasWordAllow(args, "--extract") || hasWordAllow(args, "-x")
	case "unzip", "cpio", "patch", "7z", "7za", "unrar":
		return true
	case "git":
		sub, rest := gitSubcommand(args)
		return gitWritesTree(sub, rest)
	case "cp":
		if !slices.ContainsFunc(args, recursiveCopy) {
			return false
		}
		return p.holdsTarget(args[len(args)-1])
	case "rsync":
		return p.holdsTarget(args[len(args)-1])
	}
	return false
}

// gitWritesTree reports whether git's subcommand sub writes files of the
// working tree from what the repository holds (a branch may carry a
// .forge or a changed hook script): checkout and switch but to make a
// branch, reset but soft, merge, pull, rebase, cherry-pick, revert,
// restore, stash but to save, apply, am.
func gitWritesTree(sub string, rest []word) bool {
	first := ""
	if len(rest) > 0 {
		first = rest[0].allow
	}
	switch sub {
	case "apply", "am", "merge", "pull", "rebase", "cherry-pick", "revert", "restore", "read-tree", "checkout-index":
		return true
	case "checkout", "switch":
		return !(len(rest) == 2 && (first == "-b" || first == "-c" || first == "-B" || first == "-C"))
	case "reset":
		return !hasWordAllow(rest, "--soft") && (hasWordAllow(rest, "--hard") || hasWordAllow(rest, "--merge") ||
			hasWordAllow(rest, "--keep") || slices.ContainsFunc(rest, func(w word) bool { return w.allow == "--" }))
	case "stash":
		return first == "pop" || first == "apply" || first == "branch"
	}
	return false
}

// recursiveCopy reports whether w is an option of cp that copies trees.
func recursiveCopy(w word) bool {
	a := w.allow
	if a == "--recursive" || a == "--archive" {
		return true
	}
	return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "rRa")
}

// holdsTarget reports whether the destination word dest could be a
// directory that holds a protected place (., the project, ~).
func (p *Policy) holdsTarget(dest word) bool {
	pattern := string(wild)
	if !dest.dynamic {
		pattern = dest.deny
		if !strings.HasPrefix(pattern, "/") {
			pattern = p.wd.lexical + "/" + pattern
		}
		pattern = cleanPattern(pattern)
	}
	items := parseGlob(pattern)
	for _, t := range p.targets {
		for dir := t; ; dir = filepath.Dir(dir) {
			if couldBe(items, dir) {
				return true
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return false
}

// namesProtected reports whether text names a .forge path, forge trust, a
// .git control file or a protected place, even inside another program's
// code (python -c 'open(".forge/x")').
func (p *Policy) namesProtected(text string) bool {
	if containsFold(text, "forge") && forgeInLine().MatchString(text) || containsFold(text, ".git") && gitControlInLine().MatchString(text) {
		return true
	}
	for _, d := range p.protected {
		for _, form := range p.spellings(d) {
			if mentions(text, form) {
				return true
			}
		}
	}
	return false
}

// namesTarget reports whether the path word r could name a protected
// target, and whether it surely does (it holds nothing unknown).
func (p *Policy) namesTarget(r pathRef, dots bool) (named, sure bool) {
	if !strings.ContainsAny(r.pattern, "*?[\\\x00") { // a plain path, the usual case
		for _, t := range p.targets {
			if within(r.pattern, t) {
				return true, true
			}
		}
		return p.linksToTarget(r), true
	}
	items := parseGlob(r.pattern)
	for _, t := range p.targets {
		if couldName(items, t, dots) {
			return true, r.sure()
		}
	}
	return false, false
}

// linksToTarget reports whether the plain path r leads, through symbolic
// links, into a protected target.
func (p *Policy) linksToTarget(r pathRef) bool {
	phys, ok := p.physicalOf(r)
	if !ok {
		return false
	}
	for _, t := range p.targets {
		if within(phys, t) {
			return true
		}
	}
	return projectSettings(phys) || gitControl(phys)
}

// physicalOf returns where the plain path r leads through symbolic links,
// and false when that is where it is written (or it cannot be resolved).
// Only the part below the working directory is looked at when it is
// there, since the working directory is resolved already; an option (-la)
// is not a path.
func (p *Policy) physicalOf(r pathRef) (string, bool) {
	if r.option {
		return "", false
	}
	var phys string
	var err error
	switch {
	case strings.Contains(r.raw, "/..") || strings.HasPrefix(r.raw, "/proc/"):
		phys, err = resolvePhysical(unescapeGlob(r.raw)) // links first, then .., as the kernel does
	case within(r.pattern, p.wd.lexical):
		phys, err = resolveFrom(p.wd.physical, strings.TrimPrefix(r.pattern, p.wd.lexical))
	default:
		phys, err = resolvePhysical(r.pattern)
	}
	return phys, err == nil && phys != r.pattern
}

// runsForgeTrust reports whether the command could be forge trust, or
// another command of forge that changes what forge trusts or allows: its
// program is forge (by any path, glob or brace), or known only when it
// runs with a word trust after it, and its words are not all plainly one
// of forge's read-only commands. A forge fed its words by xargs counts.
func runsForgeTrust(c *command) bool {
	if len(c.words) == 0 {
		return false
	}
	first := c.words[0]
	isForge := first.literal() && strings.EqualFold(path.Base(first.allow), "forge") ||
		first.expands && starIntersect("forge", path.Base(first.deny))
	if !isForge {
		if !first.dynamic {
			return false
		}
		for _, w := range c.words[1:] {
			if w.literal() && w.allow == "trust" {
				return true
			}
		}
		return false
	}
	return !readOnlyForge(c.words[1:])
}

// configuresGit reports whether the command changes what git runs
// through git itself, without naming .git: git config (not a read),
// git remote (not a listing), git lfs install, git init or clone with
// templates, and the hook installers (pre-commit install, husky).
func configuresGit(c *command) bool {
	if len(c.words) < 1 || !c.words[0].literal() {
		return false
	}
	for _, name := range c.env {
		if strings.HasPrefix(name, "GIT_") && !harmlessEnv(name, word{}) {
			return true // GIT_TEMPLATE_DIR, GIT_CONFIG_*, GIT_DIR: git runs what they name
		}
	}
	program := path.Base(c.words[0].allow)
	args := c.words[1:]
	if sub, ok := strings.CutPrefix(program, "git-"); ok { // /usr/lib/git-core/git-config
		program, args = "git", append([]word{staticWord(sub)}, args...)
	}
	if len(args) == 0 {
		return false
	}
	switch program {
	case "git":
		if gitInlineConfig(args) {
			return true // configuration given on the line: any of it, for any command
		}
		sub, rest := gitSubcommand(args)
		switch sub {
		case "config":
			return !gitConfigRead(rest)
		case "remote":
			return len(rest) > 0 && rest[0].allow != "-v" && rest[0].allow != "show" && rest[0].allow != "get-url"
		case "lfs":
			return len(rest) > 0 && (rest[0].allow == "install" || rest[0].allow == "update")
		case "init", "clone":
			return slices.ContainsFunc(rest, func(w word) bool { return strings.HasPrefix(w.allow, "--template") })
		case "":
			return true // a subcommand known only when it runs, or a glob that could be one above
		}
	case "pre-commit":
		return args[0].allow == "install" || args[0].allow == "install-hooks"
	case "husky":
		return true
	}
	return false
}

// gitInlineConfig reports whether git's own options, before its
// subcommand, give it configuration (-c, --config-env).
func gitInlineConfig(args []word) bool {
	for i := 0; i < len(args); i++ {
		a := args[i].allow
		switch {
		case a == "-c" || strings.HasPrefix(a, "--config-env") || strings.HasPrefix(a, "-c") && len(a) > 2:
			return true
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case !strings.HasPrefix(a, "-"):
			return false
		}
	}
	return false
}

// gitSubcommand returns git's subcommand and the words after it, past
// git's own options; "" when it is not plain.
func gitSubcommand(args []word) (string, []word) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.dynamic:
			return "", nil
		case w.expands:
			for _, sub := range []string{"config", "remote", "lfs", "init", "clone"} {
				if starIntersect(sub, w.deny) {
					return "", nil
				}
			}
			return "-", nil
		case w.allow == "-C" || w.allow == "-c" || w.allow == "--git-dir" || w.allow == "--work-tree" || w.allow == "--namespace":
			i++
		case strings.HasPrefix(w.allow, "-"):
		default:
			return w.allow, args[i+1:]
		}
	}
	return "-", nil // git alone, or only options: nothing changes
}

// gitConfigRead reports whether git config's arguments only read.
func gitConfigRead(args []word) bool {
	for _, w := range args {
		switch w.allow {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l",
			"get", "list":
			return true
		}
	}
	return false
}

// readOnlyForge reports whether forge's arguments are plainly one of its
// commands that change nothing (forge version, forge tools Read), with no
// word known only when it runs.
func readOnlyForge(args []word) bool {
	command := ""
	for _, w := range args {
		if !w.literal() {
			return false
		}
		if command == "" && !strings.HasPrefix(w.allow, "-") {
			command = w.allow
		}
	}
	switch command {
	case "version", "tools", "schema", "help", "sessions", "history", "completion":
		return true
	case "":
		return len(args) == 1 && slices.Contains([]string{"--version", "-v", "--help", "-h"}, args[0].allow)
	}
	return false
}

// spellings are the ways a shell line may name the protected place d: as
// it is, from the home directory (~/, $HOME/, ${HOME}/), and relative to
// the working directory.
func (p *Policy) spellings(d place) []string {
	forms := []string{d.lexical, d.physical}
	for _, abs := range []string{d.lexical, d.physical} {
		if p.home != "" && within(abs, p.home) && abs != p.home {
			rel := strings.TrimPrefix(abs, p.home+string(filepath.Separator))
			forms = append(forms, "~/"+rel, "$HOME/"+rel, "${HOME}/"+rel)
		}
		for _, base := range []string{p.wd.lexical, p.wd.physical} {
			if within(abs, base) && abs != base {
				forms = append(forms, strings.TrimPrefix(abs, base+string(filepath.Separator)))
			}
		}
	}
	return forms
}

// mentions reports whether line names path as a whole path: not as the
// start of a longer name (/bin/sh in /bin/sha256sum).
func mentions(line, path string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], path)
		if j < 0 {
			return false
		}
		end := i + j + len(path)
		if end == len(line) || strings.ContainsRune(" \t\n'\";&|)<>/,}", rune(line[end])) {
			return true
		}
		i = i + j + 1
	}
}

package permission

import (
	"strings"
	"sync"
)

// whyGitConfig is the reason for git run with configuration of its own.
const whyGitConfig = "sets git configuration for this command, and git runs the programs its configuration names"

// gitCommands are git's own commands; any other is an alias or a git-NAME
// program on the PATH, which can run anything.
// Built on first use: most lines never run git with a deny rule to check.
var gitCommands = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(
		"add add--interactive am annotate apply archive bisect bisect--helper blame branch bugreport bundle " +
			"cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker " +
			"checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree config " +
			"count-objects credential credential-cache credential-cache--daemon credential-store daemon describe " +
			"diagnose diff diff-files diff-index diff-tree difftool difftool--helper env--helper fast-export " +
			"fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch " +
			"fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook http-backend " +
			"http-fetch http-push imap-send index-pack init init-db instaweb interpret-trailers log ls-files " +
			"ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index " +
			"merge-octopus merge-one-file merge-ours merge-recursive merge-recursive-ours merge-recursive-theirs " +
			"merge-resolve merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes " +
			"pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push quiltimport " +
			"range-diff read-tree rebase receive-pack reflog remote remote-ext remote-fd remote-ftp remote-ftps " +
			"remote-http remote-https repack replace request-pull rerere reset restore rev-list rev-parse revert " +
			"rm send-pack sh-i18n--envsubst shell shortlog show show-branch show-index show-ref sparse-checkout " +
			"stage stash status stripspace submodule submodule--helper subtree switch symbolic-ref tag " +
			"unpack-file unpack-objects update-index update-ref update-server-info upload-archive " +
			"upload-archive--writer upload-pack var verify-commit verify-pack verify-tag version web--browse " +
			"whatchanged worktree write-tree " +
			"lfs") {
		m[c] = true
	}
	return m
})

// git records what git's own options make it run: -c alias.NAME='!line'
// runs a shell line, and so do keys such as core.pager or core.sshCommand.
// Any -c makes the command one no rule with a pattern allows, and a
// command that is not git's own is opaque to deny rules: an alias in a
// configuration file can run anything.
func (s *splitter) git(ws []word, c *command, text string, ctx lineContext) {
	aliases := map[string]bool{}
	i := 1
	for ; i < len(ws); i++ {
		w := ws[i]
		if !w.literal() {
			return // deny rules match an expansion as anything already
		}
		a := w.allow
		switch {
		case a == "-c" || a == "--config-env":
			i++
			if i < len(ws) {
				s.gitSetting(ws[i], a == "--config-env", c, aliases, text, ctx)
			}
		case strings.HasPrefix(a, "--config-env="):
			s.gitSetting(staticWord(strings.TrimPrefix(a, "--config-env=")), true, c, aliases, text, ctx)
		case strings.HasPrefix(a, "-c"):
			s.gitSetting(staticWord(a[2:]), false, c, aliases, text, ctx)
		case strings.HasPrefix(a, "--exec-path"):
			if strings.Contains(a, "=") && c.unallowable == "" {
				c.unallowable = whyGitConfig
			}
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" ||
			a == "--list-cmds" || a == "--attr-source":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if !gitCommands()[a] && !aliases[a] {
				c.opaque = true
			}
			return
		}
	}
}

// gitSetting records one -c KEY=VALUE (or --config-env KEY=VARIABLE).
func (s *splitter) gitSetting(setting word, fromEnv bool, c *command, aliases map[string]bool, text string, ctx lineContext) {
	if c.unallowable == "" {
		c.unallowable = whyGitConfig
	}
	if !setting.literal() {
		c.opaque = true
		return
	}
	key, value, _ := strings.Cut(setting.allow, "=")
	key = strings.ToLower(key)
	val := staticWord(value)
	if fromEnv {
		val = word{allow: string(wild), deny: string(wild), dynamic: true}
	}
	switch {
	case strings.HasPrefix(key, "alias."):
		aliases[strings.TrimPrefix(key, "alias.")] = true
		if fromEnv || strings.HasPrefix(value, "!") {
			if !fromEnv {
				val = staticWord(strings.TrimPrefix(value, "!"))
			}
			s.inner(val, c.words, text, whyGitConfig, ctx)
		}
	case gitCommandKey(key):
		s.inner(val, c.words, text, whyGitConfig, ctx)
	case strings.HasPrefix(key, "include") || strings.HasSuffix(key, "hookspath"):
		c.opaque = true // configuration or hooks from another place
	}
}

// gitCommandKey reports whether a git configuration key's value is a
// command git runs through the shell.
func gitCommandKey(key string) bool {
	switch key {
	case "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass", "core.gitproxy",
		"sequence.editor", "diff.external", "credential.helper", "gpg.program", "interactive.difffilter",
		"uploadpack.packobjectshook", "web.browser":
		return true
	}
	for _, suffix := range []string{".command", ".textconv", ".driver", ".clean", ".smudge", ".process", ".helper",
		".program", ".cmd", ".uploadpack", ".receivepack", ".proxy"} {
		if strings.HasSuffix(key, suffix) {
			return true
		}
	}
	return strings.HasPrefix(key, "pager.")
}

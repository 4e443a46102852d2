package permission

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Reading a key is the first half of sending it away: a call whose path is
// in a credential location, or holds one (a search over the home
// directory), asks in every mode but yolo, plan mode included, unless an
// allow rule naming the path allows it. A rule for every call of the tool
// does not: it was written for the tool, not for the keys.

// DefaultCredentials are where secrets are commonly kept: keys, cloud and
// registry logins, tokens, and .env files of other projects. forge's own
// state, configuration and sessions are added by whoever knows where they
// are.
func DefaultCredentials() []string {
	return []string{
		// keys, and the logins of git, registries and package managers
		"~/.ssh", "~/.gnupg", "~/.netrc", "~/.git-credentials", "~/.config/git/credentials", "~/.config/gh", "~/.config/hub",
		"~/.config/glab-cli", "~/.docker/config.json", "~/.config/containers/auth.json", "~/.npmrc", "~/.pypirc",
		"~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.gem/credentials", "~/.m2/settings-security.xml",
		// clouds and infrastructure
		"~/.aws", "~/.config/gcloud", "~/.azure", "~/.kube/config", "~/.oci", "~/.config/doctl", "~/.config/hcloud", "~/.fly",
		"~/.terraform.d/credentials.tfrc.json", "~/.vault-token", "~/.s3cfg", "~/.boto", "~/.config/rclone",
		// databases
		"~/.pgpass", "~/.my.cnf",
		// AI tools' logins
		"~/.claude/.credentials.json", "~/.codex/auth.json", "~/.config/github-copilot", "~/.cache/huggingface/token",
		"~/.huggingface/token",
		// password stores, keyrings and browsers' cookies
		"~/.password-store", "~/.local/share/keyrings", "~/.config/op", "~/.mozilla", "~/.config/google-chrome",
		"~/.config/chromium",
		".env*"}
}

// credentials are a Policy's credential locations.
type credentials struct {
	places []place  // a file or directory, and everything below it
	names  []string // globs over base names, for files outside the working directory
}

// credentialEntry is one entry of Config.Credentials, made absolute.
type credentialEntry struct {
	key  string // the absolute path, or the name glob
	name bool   // key is a name glob
}

// compileCredentials reads Config.Credentials in order, an entry !x
// dropping the entries x before it, and adds each malformed entry to errs.
func (p *Policy) compileCredentials(entries []string, errs []error) (credentials, []error) {
	var list []credentialEntry
	for _, text := range entries {
		raw := strings.TrimSpace(text)
		remove := strings.HasPrefix(raw, "!")
		if remove {
			raw = strings.TrimSpace(raw[1:])
		}
		e, ok, problem := p.credentialEntry(raw)
		switch {
		case problem != "":
			errs = append(errs, fmt.Errorf("permissions.credentials entry %q: %s", text, problem))
			continue
		case !ok: // ~ with no home directory known: nothing to protect or drop
			continue
		case !remove:
			list = append(list, e)
			continue
		}
		n := len(list)
		if list = slices.DeleteFunc(list, func(x credentialEntry) bool { return x == e }); len(list) == n {
			errs = append(errs, fmt.Errorf("permissions.credentials entry %q: removes nothing, since no entry before it is %s", text, raw))
		}
	}
	var c credentials
	for _, e := range list {
		if e.name {
			c.names = appendNew(c.names, e.key)
		} else {
			c.places = append(c.places, newPlace(e.key))
		}
	}
	return c, errs
}

// credentialEntry reads one entry; ok is false for ~ when the home
// directory is unknown, and problem says what is wrong with a bad one.
func (p *Policy) credentialEntry(raw string) (e credentialEntry, ok bool, problem string) {
	switch {
	case raw == "":
		return e, false, "it is empty; write a path such as ~/.vault-token or a file name such as *.pem"
	case strings.IndexByte(raw, 0) >= 0:
		return e, false, "it contains a NUL byte"
	case raw == "~" || strings.HasPrefix(raw, "~/"):
		if p.home == "" {
			return e, false, ""
		}
		return credentialEntry{key: filepath.Join(p.home, raw[1:])}, true, ""
	case strings.HasPrefix(raw, "~"):
		return e, false, "~user is not supported; write ~/ for your home directory, or the full path"
	case filepath.IsAbs(raw):
		return credentialEntry{key: filepath.Clean(raw)}, true, ""
	case strings.ContainsRune(raw, '/'):
		return credentialEntry{key: filepath.Join(p.wd.lexical, raw)}, true, ""
	case !doublestar.ValidatePattern(raw):
		return e, false, "bad glob: check its [ ] and { } pairs and trailing \\"
	}
	return credentialEntry{key: raw, name: true}, true, ""
}

// credential reports whether the absolute path abs is in a credential
// location or holds one, as written or once its links are followed: a
// call, or a shell line, that names it asks.
func (p *Policy) credential(abs string) bool {
	if !filepath.IsAbs(abs) {
		return false
	}
	clean := filepath.Clean(abs)
	forms := []string{clean}
	for _, f := range []string{clean, abs} {
		if phys, err := resolvePhysical(f); err == nil {
			forms = appendNew(forms, phys)
		}
	}
	return slices.ContainsFunc(forms, p.credentialForm)
}

// credentialForm reports whether f, one form of a path, is in a
// credential location or holds one that exists (a search over a home
// directory without ~/.ssh finds no key there), or is a file the name
// globs match outside the working directory.
func (p *Policy) credentialForm(f string) bool {
	for _, pl := range p.creds.places {
		if within(f, pl.lexical) || within(f, pl.physical) {
			return true
		}
	}
	if _, ok := p.heldCredential(f); ok {
		return true
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

// exists reports whether something is at path p, a dangling link included.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// credentialHits are the forms of the call's paths that reach a credential
// location, and of the directory a Glob pattern starts from (/home/u/.ssh/*
// lists ~/.ssh whatever the path argument says).
func (p *Policy) credentialHits(c Call, s *subjects) []string {
	if len(p.creds.places) == 0 && len(p.creds.names) == 0 {
		return nil
	}
	paths := s.paths
	if root, ok := globRoot(c); ok {
		paths = append(slices.Clip(paths), p.pathSubject(root))
	}
	var hits []string
	for _, ps := range paths {
		for _, f := range slices.Concat(ps.lexical, ps.physical) {
			if p.credentialForm(f) {
				hits = appendNew(hits, f)
			}
		}
	}
	return hits
}

// globRoot is the directory the Glob tool walks for a pattern with a
// directory in front (/etc/*, ../../x/**): the pattern's literal prefix,
// from the path argument.
func globRoot(c Call) (string, bool) {
	pattern, ok := c.Args["pattern"].(string)
	if c.Tool != "Glob" || !ok {
		return "", false
	}
	base, _ := doublestar.SplitPattern(filepath.ToSlash(pattern))
	if base == "." || base == "" {
		return "", false
	}
	if path.IsAbs(base) {
		return base, true
	}
	dir, _ := c.Args["path"].(string)
	if dir == "" {
		dir = "."
	}
	return path.Join(filepath.ToSlash(dir), base), true
}

// uncoveredCredentials are the credential hits of the call that no allow
// or remembered rule names: a rule with a path pattern matching the form
// that reaches the credential.
func (p *Policy) uncoveredCredentials(c Call, s *subjects, rules []*compiledRule) []string {
	if p.Mode() == ModeYolo {
		return nil
	}
	hits := p.credentialHits(c, s)
	return slices.DeleteFunc(hits, func(f string) bool {
		return firstRule(rules, func(r *compiledRule) bool { return r.kind == patternGlob && r.matchPath(f) }) != nil
	})
}

// credentialAsk is the question for a call reaching a credential location
// no rule names, and false for any other call (or in yolo mode).
func (p *Policy) credentialAsk(c Call, s *subjects, rules []*compiledRule) (Verdict, bool) {
	hits := p.uncoveredCredentials(c, s, rules)
	if len(hits) == 0 {
		return Verdict{}, false
	}
	always := p.suggest(c, s, rules)
	hint := "; add an allow rule naming the path"
	if len(always) > 0 {
		hint = "; answer always for this session, or add an allow rule such as " + strings.Join(always, " and ")
	}
	rest := " reaches " + p.spell(hits[0]) + ", where credentials are kept (permissions.credentials): forge asks first in every mode but yolo" + hint
	return Verdict{Decision: Ask, Always: always, Reason: display(c) + rest, Why: "it" + rest}, true
}

// credentialRules are the narrowest rules allowing the tool to reach the
// paths hits, one exact path each, and false when a path cannot be written
// as a rule that matches it.
func (p *Policy) credentialRules(tool string, hits []string) ([]string, bool) {
	var out []string
	for _, f := range hits {
		pattern := p.spell(f)
		if strings.HasPrefix(pattern, "~/") {
			pattern = "~/" + escapeMeta(pattern[2:])
		} else if pattern != "~" {
			pattern = escapeMeta(pattern)
		}
		r, err := ParseRule(tool + "(" + pattern + ")")
		if err != nil {
			return nil, false
		}
		cr, err := p.compile(r)
		if err != nil || !cr.matchPath(f) {
			return nil, false
		}
		out = appendNew(out, r.String())
	}
	return out, true
}

// spell writes an absolute path as the person would: ~/x in the home
// directory.
func (p *Policy) spell(f string) string {
	switch {
	case p.home == "":
		return f
	case f == p.home:
		return "~"
	case within(f, p.home):
		return "~/" + filepath.ToSlash(strings.TrimPrefix(f, p.home+string(filepath.Separator)))
	}
	return f
}

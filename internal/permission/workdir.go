package permission

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// InDir returns a Policy like p that works in dir, as the executor does
// after /set working_dir: relative paths in calls are taken from dir, and
// auto-edit mode allows edits inside dir and the allowed roots rather
// than the old directory. The mode as it stands now and the allow rules,
// configured and remembered this session, carry over unchanged: a
// relative pattern keeps naming the files it named, so moving never
// widens one. A deny rule with a relative
// pattern denies in both places. p is not changed.
func (p *Policy) InDir(dir string) (*Policy, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("permission policy: the working directory must be an absolute path, not %q", dir)
	}
	cfg := p.cfg
	cfg.WorkingDir, cfg.AllowedRoots, cfg.Allow, cfg.Deny = dir, lexical(p.roots[1:]), nil, nil
	// A protected directory that now holds the work (a hook script's
	// directory the person moved into) would make every edit ask: it is
	// dropped, as the places given at start are.
	cfg.Protected = slices.DeleteFunc(slices.Clone(cfg.Protected), func(d string) bool {
		rel, err := filepath.Rel(filepath.Clean(d), filepath.Clean(dir))
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	})
	q, err := New(cfg)
	if err != nil {
		return nil, err
	}
	q.SetMode(p.Mode())
	q.allow = p.allow
	q.deny = slices.Clone(p.deny)
	for _, r := range p.deny {
		if again, err := q.compile(r.Rule); err == nil {
			q.deny = append(q.deny, again)
		}
	}
	p.mu.RLock()
	q.session = slices.Clone(p.session)
	p.mu.RUnlock()
	return q, nil
}

// lexical is the places as they were given.
func lexical(places []place) []string {
	out := make([]string, len(places))
	for i, pl := range places {
		out[i] = pl.lexical
	}
	return out
}

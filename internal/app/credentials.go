package app

import (
	"path/filepath"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/permission"
)

// credentials are the places the policy asks before any tool reads: the
// usual keys and logins, forge's own configuration (API keys, MCP
// headers), state and sessions (other projects' conversations), then the
// configuration's permissions.credentials, whose !x entries drop one.
func (a *App) credentials() []string {
	list := permission.DefaultCredentials()
	for _, f := range []string{config.DefaultConfigFile(a.opts.LookupEnv), config.DefaultTrustFile(a.opts.LookupEnv)} {
		if f != "" {
			list = append(list, filepath.Dir(f))
		}
	}
	for _, f := range []string{a.cfg.SessionsDir, a.cfg.File} {
		if f != "" {
			list = append(list, f)
		}
	}
	return append(list, a.cfg.Permissions.Credentials...)
}

package proc

import (
	"path"
	"strings"
)

// secretWords are the parts of a variable name that mark it as holding a
// secret (matched in upper case): OPENAI_API_KEY, GITHUB_TOKEN,
// AWS_SECRET_ACCESS_KEY, PGPASSWORD, MYSQL_PASSWD.
var secretWords = [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD"}

// SecretName reports whether an environment variable of that name is taken
// to hold a secret: its name contains KEY, TOKEN, SECRET, PASSWORD or
// PASSWD, in any case.
func SecretName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// Environ returns environ ("NAME=value" entries, as os.Environ gives them)
// without the variables whose names look secret (SecretName), so that the
// commands forge's tools start (Bash, plugins, MCP servers) do not receive
// forge's API keys and tokens. The variables named in pass are kept all the
// same: a name matches case-insensitively, and may be a pattern of
// path.Match ("AWS_*"). Entries without a name (Windows' "=C:=C:\") are
// kept. environ is not modified.
func Environ(environ []string, pass []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name != "" && SecretName(name) && !passed(name, pass) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// passed reports whether name matches one of the pass patterns.
func passed(name string, pass []string) bool {
	up := strings.ToUpper(name)
	for _, p := range pass {
		p = strings.ToUpper(strings.TrimSpace(p))
		if p == up {
			return true
		}
		if ok, err := path.Match(p, up); err == nil && ok {
			return true
		}
	}
	return false
}

package config

import (
	"slices"
	"testing"
)

// permissions.credentials is kept as written, in order; the person's file
// may drop an entry (!x), an untrusted project may only add.
func TestCredentials(t *testing.T) {
	user := "permissions:\n  credentials: [\"~/.vault-token\", \"!~/.npmrc\"]\n"
	project := "permissions:\n  credentials: [\"*.pem\", \"!~/.ssh\"]\n"
	f, userFile := projectFixture(t, user, project)

	untrusted := f.loadTrusted(userFile, false)
	if want := []string{"~/.vault-token", "!~/.npmrc", "*.pem"}; !slices.Equal(untrusted.Permissions.Credentials, want) {
		t.Errorf("untrusted: credentials %q, want %q", untrusted.Permissions.Credentials, want)
	}
	wantContains(t, untrusted.Project.Warning(), "permissions.credentials: !~/.ssh")

	trusted := f.loadTrusted(userFile, true)
	if want := []string{"~/.vault-token", "!~/.npmrc", "*.pem", "!~/.ssh"}; !slices.Equal(trusted.Permissions.Credentials, want) {
		t.Errorf("trusted: credentials %q, want %q", trusted.Permissions.Credentials, want)
	}

	var shown []string
	for _, e := range trusted.Entries() {
		if e.Key == "permissions.credentials" {
			shown = append(shown, e.Value)
		}
	}
	if !slices.Equal(shown, trusted.Permissions.Credentials) {
		t.Errorf("forge config shows credentials %q", shown)
	}
}

func TestCredentialsBadValues(t *testing.T) {
	f := newFixture(t)
	for body, want := range map[string]string{
		"permissions:\n  credentials: ~/.ssh\n":        `invalid permissions.credentials "~/.ssh": want a list of paths and file names`,
		"permissions:\n  credentials: [\"~/.x\", 3]\n": `invalid permissions.credentials[1] "3": want a path or a file name written as a string`,
		"permissions:\n  credentials: [\" ! \"]\n":     `invalid permissions.credentials[0] " ! ": a blank entry names nothing`,
	} {
		wantContains(t, f.loadErr(f.write("c.yaml", body)), want)
	}
}

package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellCredentialHolders: a shell line naming a directory that holds a
// credential place (~, /, .. from a project in the home directory) asks in
// every mode but yolo unless its programs only list names; lines over the
// project and lines that only list or move about run.
func TestShellCredentialHolders(t *testing.T) {
	fx := newProtectFixture(t)
	must(t, os.MkdirAll(filepath.Join(fx.home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(fx.home, ".ssh", "id_rsa"), []byte("KEY"), 0o600))
	must(t, os.Symlink(fx.home, filepath.Join(fx.wd, "homelink")))
	home, base := fx.home, filepath.Dir(fx.home)
	allow := []string{"Bash(grep:*)", "Bash(find:*)", "Bash(rg:*)", "Bash(cp:*)", "Bash(tar:*)", "Bash(cd:*)",
		"Bash(ls:*)", "Bash(du:*)", "Bash(stat:*)", "Bash(pwd)", "Bash(mkdir:*)", "Bash(zip:*)", "Bash(rsync:*)", "Bash(cat:*)", "Bash(cp -r:*)"}
	ask := []string{
		"grep -r KEY ~", "grep -r KEY ~/", "grep -R KEY " + home, "grep -r KEY '" + home + "'", `grep -r KEY "$HOME"`,
		"grep -r KEY $HOME", "grep -r KEY ${HOME}/", "grep -r KEY /", "grep -r KEY " + base, "grep -r KEY ..",
		"grep -r KEY ../", "grep -r KEY ./..", "grep -r KEY src/../..", "cd ~ && grep -r KEY .", "cd .. && grep -r KEY .",
		"find " + home + " -name id_rsa -exec grep KEY {} +", "find ~ -type f", "find / -name id_rsa", "rg KEY ~",
		"cp -r ~ /tmp/x", "tar czf /tmp/h.tgz ~", "zip -r /tmp/h.zip " + home, "rsync -a ~/ /tmp/h",
		"grep -r KEY homelink", "ls -R ~", "ls -laR ~", "ls --recursive ~", "cd ~ && ls -R",
		"ls ~ && grep -r KEY ~", "cd ~ && rg KEY", "ls ~ | xargs cat",
	}
	for _, mode := range []Mode{ModeAsk, ModeAutoEdit, ModeYolo} {
		p, err := New(Config{Mode: mode, WorkingDir: fx.wd, Home: fx.home, Allow: allow, Credentials: DefaultCredentials(),
			Getenv: func(name string) (string, bool) { v, ok := fx.env[name]; return v, ok }})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range ask {
			v := p.Decide(bash(line))
			switch {
			case mode == ModeYolo && v.Decision != Allow:
				t.Errorf("yolo: Decide(%q) = %s (%s), want allow", line, v.Decision, v.Reason)
			case mode != ModeYolo && (v.Decision != Ask || !strings.Contains(v.Reason, "which holds ~/.ssh") ||
				!strings.Contains(v.Reason, "would read credentials")):
				t.Errorf("%s: Decide(%q) = %s (%s), want a question about a directory holding ~/.ssh", mode, line, v.Decision, v.Reason)
			}
		}
		for _, line := range []string{
			"grep -r x ./src", "grep -r x src", "grep -r x .", "find . -name '*.go'", "find src -type f", "rg TODO",
			"ls ~", "ls -la ~", "ls " + home, "cd ~", "cd ~ && ls", "cd .. && pwd", "du -sh ~", "stat ~", "ls -la ..",
			"mkdir ~/tmp", "cat ~/.sshrc", `ls "$HOME"`, "tar czf /tmp/src.tgz src", "cp -r src /tmp/x",
		} {
			if v := p.Decide(bash(line)); v.Decision != Allow {
				t.Errorf("%s: Decide(%q) = %s (%s), want allow", mode, line, v.Decision, v.Reason)
			}
		}
	}
}

// TestShellCredentialHolderGlob: a glob that may name a directory above a
// credential place asks, since forge cannot tell which directory it names.
func TestShellCredentialHolderGlob(t *testing.T) {
	fx := newProtectFixture(t)
	must(t, os.MkdirAll(filepath.Join(fx.home, ".ssh"), 0o700))
	p, err := New(Config{Mode: ModeAsk, WorkingDir: fx.wd, Home: fx.home, Allow: []string{"Bash(grep:*)"},
		Credentials: DefaultCredentials(), Getenv: func(name string) (string, bool) { v, ok := fx.env[name]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"grep -r KEY /*", "grep -r KEY " + filepath.Dir(fx.home) + "/h*", "grep -r KEY ../h?me"} {
		if v := p.Decide(bash(line)); v.Decision != Ask {
			t.Errorf("Decide(%q) = %s (%s), want ask", line, v.Decision, v.Reason)
		}
	}
	if v := p.Decide(bash("grep -r KEY src/*")); v.Decision != Allow {
		t.Errorf("Decide(grep -r KEY src/*) = %s (%s), want allow", v.Decision, v.Reason)
	}
}

// TestCredentialHolderWithoutPlace: a home without any credential place
// holds none, so a search over it runs.
func TestCredentialHolderWithoutPlace(t *testing.T) {
	fx := newProtectFixture(t)
	p, err := New(Config{Mode: ModeAsk, WorkingDir: fx.wd, Home: fx.home, Allow: []string{"Bash(grep:*)"},
		Credentials: []string{"~/.ssh"}, Getenv: func(name string) (string, bool) { v, ok := fx.env[name]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(bash("grep -r KEY ~")); v.Decision != Allow {
		t.Errorf("Decide(grep -r KEY ~) = %s (%s), want allow: there is no ~/.ssh", v.Decision, v.Reason)
	}
}

package custom

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func warningsText(rep Report) string {
	var lines []string
	for _, w := range rep.Warnings {
		lines = append(lines, w.String())
	}
	return strings.Join(lines, "\n")
}

func TestLoadCommands(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, user, map[string]string{
		"review.md": "The user's review.",
		"hello.md":  "Say hello.",
	})
	write(t, project, map[string]string{
		"review.md":           "---\ndescription: Review\nallowed-tools: Read\n---\nThe project's review of $1.",
		"git/commit.md":       "# Commit\n\nWrite a commit message.",
		"notes.txt":           "not a command",
		".hidden.md":          "skipped",
		".drafts/x.md":        "skipped",
		"bad name.md":         "skipped",
		"huge.md":             strings.Repeat("x", MaxFileSize+1),
		"binary.md":           "\x00\x01\x02",
		"unclosed.md":         "---\ndescription: d\n",
		"empty.md":            "",
		"deep/er/still/ok.md": "ok",
	})
	cmds, rep := LoadCommands([]Dir{{Path: user, Scope: ScopeUser}, {Path: project, Scope: ScopeProject},
		{Path: filepath.Join(project, "missing"), Scope: ScopeProject}})
	var names []string
	byName := map[string]Command{}
	for _, c := range cmds {
		names = append(names, c.Name)
		byName[c.Name] = c
	}
	if got := strings.Join(names, " "); got != "deep:er:still:ok empty git:commit hello review" {
		t.Errorf("commands %q", got)
	}
	r := byName["review"]
	if r.Source.Scope != ScopeProject || r.Body != "The project's review of $1." || len(r.AllowedTools) != 1 {
		t.Errorf("review %+v", r)
	}
	if c := byName["git:commit"]; c.Description != "Commit" || c.AllowedTools != nil {
		t.Errorf("git:commit %+v", c)
	}
	if len(rep.Overrides) != 1 || rep.Overrides[0].Name != "review" || rep.Overrides[0].Replaced.Scope != ScopeUser {
		t.Errorf("overrides %+v", rep.Overrides)
	}
	warns := warningsText(rep)
	for _, want := range []string{
		`bad name.md: "bad name" cannot be a command name`,
		"huge.md: larger than 256 KiB; skipped",
		"binary.md: not a text file",
		"unclosed.md:1: front matter not closed",
		"empty.md: the command has no prompt",
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("warnings lack %q:\n%s", want, warns)
		}
	}
	if strings.Contains(warns, "hidden") || strings.Contains(warns, "missing") || strings.Contains(warns, "notes") {
		t.Errorf("warnings about files that are not commands:\n%s", warns)
	}
}

func TestLoadAgents(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, user, map[string]string{
		"x.md": "---\nname: x\ndescription: the user's\n---\nUser X.",
		"y.md": "---\ndescription: Y\ntools: Read, Grep\nmodel: haiku\n---\nYou are Y.",
	})
	write(t, project, map[string]string{
		"a.md": "---\nname: x\ndescription: the project's\ntools: []\n---\nProject X.",
		"b.md": "---\nname: x\ndescription: again\n---\nDuplicate.",
		"c.md": "---\nname: no good\n---\n",
		"d.md": "No front matter: named after the file.",
	})
	agents, rep := LoadAgents([]Dir{{Path: user, Scope: ScopeUser}, {Path: project, Scope: ScopeProject}})
	byName := map[string]Agent{}
	for _, a := range agents {
		byName[a.Name] = a
	}
	if len(agents) != 3 {
		t.Fatalf("agents %+v", agents)
	}
	if x := byName["x"]; x.Prompt != "Project X." || x.Tools == nil || len(x.Tools) != 0 {
		t.Errorf("x %+v", x)
	}
	if y := byName["y"]; y.Model != "haiku" || len(y.Tools) != 2 || y.Prompt != "You are Y." {
		t.Errorf("y %+v", y)
	}
	if d, ok := byName["d"]; !ok || d.Tools != nil {
		t.Errorf("d %+v", d)
	}
	warns := warningsText(rep)
	for _, want := range []string{`b.md: agent "x" is already defined`, `c.md: "no good" cannot be an agent name`, "d.md: no description"} {
		if !strings.Contains(warns, want) {
			t.Errorf("warnings lack %q:\n%s", want, warns)
		}
	}
	if len(rep.Overrides) != 1 || rep.Overrides[0].Kept.Path != filepath.Join(project, "a.md") {
		t.Errorf("overrides %+v", rep.Overrides)
	}
}

// A project's symbolic links are not followed (a cloned repository could
// point one at the person's secrets); the person's own files may be links.
func TestLoadSkipsProjectSymlinks(t *testing.T) {
	user, project, outside := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, outside, map[string]string{"credentials": "aws_secret_access_key = SECRET", "mine.md": "---\ndescription: mine\n---\nMine."})
	write(t, project, map[string]string{"ok.md": "---\ndescription: ok\n---\nOK."})
	for _, l := range []struct{ target, link string }{
		{filepath.Join(outside, "credentials"), filepath.Join(project, "x.md")},
		{filepath.Join(outside, "mine.md"), filepath.Join(user, "mine.md")},
	} {
		if err := os.Symlink(l.target, l.link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	agents, rep := LoadAgents([]Dir{{Path: user, Scope: ScopeUser}, {Path: project, Scope: ScopeProject}})
	var names []string
	for _, a := range agents {
		names = append(names, a.Name)
		if strings.Contains(a.Prompt, "SECRET") {
			t.Errorf("agent %s has the linked file's text", a.Name)
		}
	}
	if got := strings.Join(names, " "); got != "mine ok" {
		t.Errorf("agents %q", got)
	}
	if w := warningsText(rep); !strings.Contains(w, filepath.Join(project, "x.md")+": a symbolic link, which forge does not follow in a project's directory; skipped") {
		t.Errorf("warnings:\n%s", w)
	}
	cmds, rep := LoadCommands([]Dir{{Path: project, Scope: ScopeProject}})
	if len(cmds) != 1 || cmds[0].Name != "ok" || len(rep.Warnings) != 1 {
		t.Errorf("commands %+v, warnings %v", cmds, rep.Warnings)
	}
}

// A directory that may not override (an untrusted project's) adds its
// definitions but leaves the earlier ones of the same name in place.
func TestLoadNoOverride(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, user, map[string]string{"review.md": "The user's review.", "x.md": "---\ndescription: user x\n---\nUser X."})
	write(t, project, map[string]string{"review.md": "The project's review.", "other.md": "Other.", "x.md": "---\ndescription: project x\n---\nProject X."})
	dirs := []Dir{{Path: user, Scope: ScopeUser}, {Path: project, Scope: ScopeProject, NoOverride: true}}
	cmds, rep := LoadCommands(dirs)
	if len(cmds) != 3 || cmds[1].Name != "review" || cmds[1].Body != "The user's review." || cmds[2].Body != "User X." {
		t.Errorf("commands %+v", cmds)
	}
	want := Override{Name: "review", Kept: Source{Path: filepath.Join(user, "review.md"), Scope: ScopeUser},
		Replaced: Source{Path: filepath.Join(project, "review.md"), Scope: ScopeProject}, Refused: true}
	if len(rep.Overrides) != 2 || rep.Overrides[0] != want {
		t.Errorf("overrides %+v", rep.Overrides)
	}
	agents, rep := LoadAgents(dirs)
	if len(agents) != 3 || agents[2].Prompt != "User X." || len(rep.Overrides) != 2 || !rep.Overrides[1].Refused {
		t.Errorf("agents %+v, overrides %+v", agents, rep.Overrides)
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"review": true, "a": true, "0day": true, "git-commit_2.v1": true, "Z": true,
		"": false, "-x": false, ".hidden": false, "_x": false, "a b": false, "a/b": false, "a:b": false, "é": false,
	} {
		if got := validName(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}

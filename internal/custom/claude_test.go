package custom

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Claude Code's directories are read as forge's: the same scope's .forge
// directory wins on a clash, and the override says which two files.
func TestLoadClaudeAndForgeDirs(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	write(t, home, map[string]string{
		".claude/commands/mine.md": "Mine.",
		".claude/commands/both.md": "The user's, from .claude.",
	})
	write(t, project, map[string]string{
		".claude/commands/both.md":   "The project's, from .claude.",
		".claude/commands/review.md": "---\nallowed-tools: Read, LS, TodoWrite, MultiEdit(src/**)\n---\nFrom .claude.",
		".forge/commands/review.md":  "From .forge.",
	})
	dirs := func(noOverride bool) []Dir {
		return []Dir{
			{Path: filepath.Join(home, ".claude/commands"), Scope: ScopeUser},
			{Path: filepath.Join(project, ".claude/commands"), Scope: ScopeProject, NoOverride: noOverride},
			{Path: filepath.Join(project, ".forge/commands"), Scope: ScopeProject, NoOverride: noOverride},
		}
	}
	for _, untrusted := range []bool{false, true} {
		cmds, rep := LoadCommands(dirs(untrusted))
		byName := map[string]Command{}
		for _, c := range cmds {
			byName[c.Name] = c
		}
		if got := byName["review"].Body; got != "From .forge." {
			t.Errorf("untrusted %v: review is %q, want forge's own", untrusted, got)
		}
		want := "The project's, from .claude."
		if untrusted {
			want = "The user's, from .claude."
		}
		if got := byName["both"].Body; got != want {
			t.Errorf("untrusted %v: both is %q, want %q", untrusted, got, want)
		}
		var same []Override
		for _, o := range rep.Overrides {
			if o.Kept.Scope == o.Replaced.Scope {
				same = append(same, o)
			}
		}
		if len(same) != 1 || same[0].Name != "review" || same[0].Refused || !strings.Contains(same[0].Kept.Path, ".forge") {
			t.Errorf("untrusted %v: overrides within a scope %+v", untrusted, same)
		}
	}
}

// A Claude Code tool list is read in forge's names: tools forge has under
// another name are renamed (rules keep their pattern), those it lacks are
// dropped and counted, repeats go.
func TestMapTools(t *testing.T) {
	for _, tc := range []struct {
		in, want, dropped []string
	}{
		{in: nil},
		{in: []string{}, want: []string{}},
		{in: []string{"Glob", "Grep", "LS", "Read", "NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"},
			want: []string{"Glob", "Grep", "Read", "WebFetch", "WebSearch", "KillShell", "BashOutput"}, dropped: []string{"TodoWrite"}},
		{in: []string{"MultiEdit(src/**)", "Edit(src/**)", "Bash(git diff:*)", "KillBash", "AskUserQuestion", "Agent", "ExitPlanMode", "mcp__github__*"},
			want: []string{"Edit(src/**)", "Bash(git diff:*)", "KillShell", "ask_question", "Task", "mcp__github__*"}, dropped: []string{"ExitPlanMode"}},
		{in: []string{"TodoWrite"}, want: []string{}, dropped: []string{"TodoWrite"}},
	} {
		got, dropped := MapTools(tc.in)
		if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(dropped, tc.dropped) {
			t.Errorf("MapTools(%q) = %q, %q; want %q, %q", tc.in, got, dropped, tc.want, tc.dropped)
		}
	}
}

// Loading counts the files that name tools forge lacks, for one line.
func TestLoadCountsDroppedTools(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a.md": "---\ndescription: a\ntools: Read, TodoWrite\n---\nA.",
		"b.md": "---\ndescription: b\ntools: [TodoWrite, ExitPlanMode, LS]\n---\nB.",
	})
	agents, rep := LoadAgents([]Dir{{Path: dir, Scope: ScopeProject}})
	if len(agents) != 2 || !reflect.DeepEqual(agents[1].Tools, []string{"Glob"}) {
		t.Errorf("agents %+v", agents)
	}
	if !reflect.DeepEqual(rep.Dropped, map[string]int{"TodoWrite": 2, "ExitPlanMode": 1}) || len(rep.Warnings) != 0 {
		t.Errorf("dropped %v, warnings %v", rep.Dropped, rep.Warnings)
	}
}

func TestLoadSkills(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, user, map[string]string{
		"pdf/SKILL.md":    "---\nname: pdf\ndescription: The user's PDF skill\n---\nUser steps.",
		"notes/SKILL.md":  "---\ndescription: Take notes\nallowed-tools: Read, Write\n---\nWrite notes.",
		"notes/extra.md":  "not a skill file",
		"loose/SKILL.txt": "not a skill",
		"SKILL.md":        "not in a directory of its own",
		"a/b/SKILL.md":    "too deep",
	})
	write(t, project, map[string]string{
		"pdf/SKILL.md":         "---\nname: pdf\ndescription: Fill PDF forms. Use when the user has a PDF form.\n---\nRead forms.md first.",
		"pdf/forms.md":         "How to fill forms.",
		"hidden/SKILL.md":      "---\nname: hidden\ndescription: d\ndisable-model-invocation: true\n---\nH.",
		"renamed/SKILL.md":     "---\nname: other-name\ndescription: d\n---\nO.",
		"bad/SKILL.md":         "---\nname: bad name\n---\n",
		"nodesc/SKILL.md":      "Just a body.",
		".hidden-dir/SKILL.md": "skipped",
		"dup-a/SKILL.md":       "---\nname: dup\ndescription: first\n---\nFirst.",
		"dup-b/SKILL.md":       "---\nname: dup\ndescription: second\n---\nSecond.",
		"tools/SKILL.md":       "---\ndescription: t\nallowed-tools: TodoWrite, Bash(make:*)\n---\nT.",
		"binary/SKILL.md":      "\x00",
		"empty/SKILL.md":       "---\ndescription: nothing\n---\n",
		"unclosed/SKILL.md":    "---\nname: x\n",
		"notes-not-here/x.md":  "no skill file",
		"pdf/scripts/SKILL.md": "a file beside the skill, not a skill",
		"other/README.md":      "no skill",
		"other/sub/SKILL.md":   "too deep",
		"trailing/SKILL.md":    "---\nname: trailing\ndescription: d\n---\n\nBody.\n\n",
	})
	skills, rep := LoadSkills([]Dir{{Path: user, Scope: ScopeUser}, {Path: project, Scope: ScopeProject}})
	byName := map[string]Skill{}
	var names []string
	for _, s := range skills {
		byName[s.Name] = s
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "dup empty hidden nodesc notes other-name pdf tools trailing" {
		t.Errorf("skills %q", got)
	}
	pdf := byName["pdf"]
	if pdf.Body != "Read forms.md first." || pdf.Dir != filepath.Join(project, "pdf") || pdf.Source.Scope != ScopeProject {
		t.Errorf("pdf %+v", pdf)
	}
	if n := byName["notes"]; !reflect.DeepEqual(n.AllowedTools, []string{"Read", "Write"}) || n.Dir != filepath.Join(user, "notes") {
		t.Errorf("notes %+v", n)
	}
	if !byName["hidden"].NoModel || byName["pdf"].NoModel {
		t.Errorf("NoModel: hidden %v, pdf %v", byName["hidden"].NoModel, byName["pdf"].NoModel)
	}
	if d := byName["dup"]; d.Body != "First." {
		t.Errorf("dup %+v", d)
	}
	if tl := byName["tools"]; !reflect.DeepEqual(tl.AllowedTools, []string{"Bash(make:*)"}) || rep.Dropped["TodoWrite"] != 1 {
		t.Errorf("tools %+v, dropped %v", tl, rep.Dropped)
	}
	warns := warningsText(rep)
	for _, want := range []string{
		`bad name" cannot be a skill name`,
		"nodesc/SKILL.md: no description",
		`skill "dup" is already defined`,
		"binary/SKILL.md: not a text file",
		"empty/SKILL.md: the skill has no instructions",
		"unclosed/SKILL.md:1: front matter not closed",
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("warnings lack %q:\n%s", want, warns)
		}
	}
	if strings.Contains(warns, "too deep") || strings.Contains(warns, "hidden-dir") {
		t.Errorf("warnings about files that are not skills:\n%s", warns)
	}
}

// A project's skill that is a link is not followed, as for commands.
func TestLoadSkillsProjectLink(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	write(t, outside, map[string]string{"secret/SKILL.md": "---\ndescription: s\n---\nSECRET"})
	write(t, project, map[string]string{"ok/SKILL.md": "---\ndescription: ok\n---\nOK"})
	if err := os.MkdirAll(filepath.Join(project, "linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret", "SKILL.md"), filepath.Join(project, "linked", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	skills, rep := LoadSkills([]Dir{{Path: project, Scope: ScopeProject}})
	if len(skills) != 1 || skills[0].Name != "ok" {
		t.Errorf("skills %+v", skills)
	}
	if w := warningsText(rep); !strings.Contains(w, "linked/SKILL.md: a symbolic link") {
		t.Errorf("warnings:\n%s", w)
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"Reviews code.", 100, "Reviews code."},
		{"Use this agent when X. Examples:\n\n<example>\nuser: \"y\"\n</example>", 100, "Use this agent when X."},
		{`Use it. Examples: <example>Context: a\nuser: "b"</example>`, 100, "Use it."},
		{"Line one\\nline two\n\tthree", 100, "Line one line two three"},
		{"A long description that goes on and on about what the agent does", 30, "A long description that..."},
		{"Ünïcödé everywhere in this one", 10, "Ünïcödé..."},
		{"abcdef", 3, "abc"},
	} {
		if got := Summary(tc.in, tc.max); got != tc.want {
			t.Errorf("Summary(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestExpandShell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Status: !`git status`\nDiff: !`git diff HEAD`", "Status: <git status>\nDiff: <git diff HEAD>"},
		{"no commands, `code` and ! alone", "no commands, `code` and ! alone"},
		{"!`a` !`a`", "<a> <a>"},
		{"!`unterminated\n`", "!`unterminated\n`"},
	}
	for _, tt := range tests {
		var ran []string
		got := ExpandShell(tt.in, func(c string) string { ran = append(ran, c); return "<" + c + ">\n" })
		if got != tt.want {
			t.Errorf("ExpandShell(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if HasShell(tt.in) != (len(ran) > 0) {
			t.Errorf("HasShell(%q) = %v, ran %q", tt.in, HasShell(tt.in), ran)
		}
	}
}

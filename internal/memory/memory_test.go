package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files (path: content; a content "-> target" makes a
// symbolic link) under dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// labels are the files of m as "label" or "label (by)" with their note.
func labels(m Memory) []string {
	var out []string
	for _, f := range m.Files {
		s := f.Label
		if f.ImportedBy != "" {
			s += " <- " + f.ImportedBy
		}
		if f.Note != "" {
			s += ": " + f.Note
		}
		out = append(out, s)
	}
	return out
}

func TestLoad(t *testing.T) {
	const secret = "AKIA-SECRET"
	tests := []struct {
		name        string
		files       map[string]string // under a directory holding home/ and proj/
		wd          string            // under proj
		homeImports bool
		want        []string // labels, in order
		text        []string // in the text, in order
		notText     []string
		notice      string // in one notice; "" for none
	}{
		{name: "root down to the working directory, the person's first",
			files: map[string]string{
				"home/.claude/CLAUDE.md": "Mine.",
				"proj/AGENTS.md":         "Root agents.",
				"proj/CLAUDE.md":         "Root claude.",
				"proj/a/AGENTS.md":       "A.",
				"proj/a/b/CLAUDE.md":     "B.",
				"proj/other/AGENTS.md":   "Other.",
			},
			wd:      "a/b",
			want:    []string{"~/.claude/CLAUDE.md", "AGENTS.md", "CLAUDE.md", "a/AGENTS.md", "a/b/CLAUDE.md"},
			text:    []string{"Your instructions (~/.claude/CLAUDE.md):\nMine.", "Project instructions (AGENTS.md):\nRoot agents.", "Root claude.", "(a/AGENTS.md):\nA.", "(a/b/CLAUDE.md):\nB."},
			notText: []string{"Other."}},
		{name: "CLAUDE.local.md after CLAUDE.md, in each directory, under the same rules",
			files: map[string]string{
				"proj/CLAUDE.md":         "Team.",
				"proj/CLAUDE.local.md":   "Mine, not committed. @~/.aws/credentials @notes.md",
				"proj/notes.md":          "Notes.",
				"proj/a/CLAUDE.local.md": "A, mine.",
				"home/.aws/credentials":  secret,
			},
			wd:     "a",
			want:   []string{"CLAUDE.md", "CLAUDE.local.md", "notes.md <- CLAUDE.local.md", "a/CLAUDE.local.md"},
			text:   []string{"(CLAUDE.md):\nTeam.", "(CLAUDE.local.md):\nMine, not committed.", "(notes.md, imported by CLAUDE.local.md):\nNotes.", "(a/CLAUDE.local.md):\nA, mine."},
			notice: "@~/.aws/credentials is not read: it is outside the project"},
		{name: "a CLAUDE.local.md linked out of the project",
			files:  map[string]string{"proj/CLAUDE.local.md": "-> ../home/.aws/credentials", "home/.aws/credentials": secret},
			notice: "CLAUDE.local.md is not read: it is a symbolic link that leaves the project"},
		{name: "the same text under both names goes once",
			files: map[string]string{"proj/AGENTS.md": "Use tabs.\n", "proj/CLAUDE.md": "Use tabs."},
			want:  []string{"AGENTS.md", "CLAUDE.md: the same text as AGENTS.md, not sent again"},
			text:  []string{"Use tabs."}},
		{name: "CLAUDE.md importing AGENTS.md sends it once",
			files: map[string]string{"proj/AGENTS.md": "Use tabs.", "proj/CLAUDE.md": "@AGENTS.md"},
			want:  []string{"AGENTS.md", "CLAUDE.md"}},
		{name: "CLAUDE.md a link to AGENTS.md",
			files: map[string]string{"proj/AGENTS.md": "Use tabs.", "proj/CLAUDE.md": "-> AGENTS.md"},
			want:  []string{"AGENTS.md", "CLAUDE.md: the same file as AGENTS.md, not sent again"}},
		{name: "imports relative to the file, nested, each once, cycles end",
			files: map[string]string{
				"proj/AGENTS.md":        "See @docs/style.md and @docs/style.md. Mail me@example.com, `@code/x.md`, @nothing.md, https://x.io/@a.",
				"proj/docs/style.md":    "Style, see @../conventions.md.",
				"proj/conventions.md":   "Conventions; back to @AGENTS.md.",
				"proj/code/x.md":        secret,
				"proj/example.com/x.md": secret,
			},
			want: []string{"AGENTS.md", "docs/style.md <- AGENTS.md", "conventions.md <- docs/style.md"},
			text: []string{"(docs/style.md, imported by AGENTS.md):\nStyle", "(conventions.md, imported by docs/style.md):\nConventions"},
		},
		{name: "imports go five deep at most",
			files: map[string]string{
				"proj/AGENTS.md": "@1.md", "proj/1.md": "@2.md", "proj/2.md": "@3.md", "proj/3.md": "@4.md",
				"proj/4.md": "@5.md", "proj/5.md": "@6.md", "proj/6.md": secret,
			},
			want:   []string{"AGENTS.md", "1.md <- AGENTS.md", "2.md <- 1.md", "3.md <- 2.md", "4.md <- 3.md", "5.md <- 4.md"},
			notice: "5.md: its imports are not read: imports go 5 files deep at most"},
		{name: "an import outside the project",
			files:  map[string]string{"proj/AGENTS.md": "@../home/.aws/credentials", "home/.aws/credentials": secret},
			want:   []string{"AGENTS.md"},
			notice: "AGENTS.md: @../home/.aws/credentials is not read: it is outside the project"},
		{name: "an import of the home, from an untrusted project",
			files:  map[string]string{"proj/AGENTS.md": "@~/.aws/credentials", "home/.aws/credentials": secret},
			want:   []string{"AGENTS.md"},
			notice: "@~/.aws/credentials is not read: it is outside the project"},
		{name: "an import of the home, from a trusted project",
			files:       map[string]string{"proj/AGENTS.md": "@~/.claude/proj.md", "home/.claude/proj.md": "Mine for proj."},
			homeImports: true,
			want:        []string{"AGENTS.md", "~/.claude/proj.md <- AGENTS.md"},
			text:        []string{"Project instructions (~/.claude/proj.md, imported by AGENTS.md):\nMine for proj."}},
		{name: "an import through a link out",
			files:  map[string]string{"proj/AGENTS.md": "@docs/x.md", "proj/docs/x.md": "-> ../../home/.aws/credentials", "home/.aws/credentials": secret},
			want:   []string{"AGENTS.md"},
			notice: "docs/x.md is not read: it is a symbolic link that leaves the project"},
		{name: "an import through a linked directory out",
			files:  map[string]string{"proj/AGENTS.md": "@docs/credentials", "proj/docs": "-> ../home/.aws", "home/.aws/credentials": secret},
			want:   []string{"AGENTS.md"},
			notice: "docs/credentials is not read: it is a symbolic link that leaves the project"},
		{name: "the person's file imports from the home only",
			files:  map[string]string{"home/.claude/CLAUDE.md": "@~/notes.md @/etc/hostname", "home/notes.md": "Notes."},
			want:   []string{"~/.claude/CLAUDE.md", "~/notes.md <- ~/.claude/CLAUDE.md"},
			notice: "@/etc/hostname is not read: it is outside your home"},
		{name: "a directory named CLAUDE.md",
			files:  map[string]string{"proj/CLAUDE.md/x": "x", "proj/AGENTS.md": "A."},
			want:   []string{"AGENTS.md"},
			notice: "CLAUDE.md is not read: it is a directory, not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			tree(t, base, tt.files)
			proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
			wd := filepath.Join(proj, filepath.FromSlash(tt.wd))
			if err := os.MkdirAll(wd, 0o755); err != nil {
				t.Fatal(err)
			}
			m := Load(Options{WorkingDir: wd, Root: proj, Home: home, HomeImports: tt.homeImports,
				User: []string{filepath.Join(home, ".claude", "CLAUDE.md"), filepath.Join(home, ".config", "forge", "AGENTS.md")}})
			if got := labels(m); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("files\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if strings.Contains(m.Text, secret) {
				t.Errorf("the secret reached the text:\n%s", m.Text)
			}
			at := 0
			for _, w := range tt.text {
				i := strings.Index(m.Text[at:], w)
				if i < 0 {
					t.Errorf("text lacks %q after byte %d:\n%s", w, at, m.Text)
					break
				}
				at += i + len(w)
			}
			for _, w := range tt.notText {
				if strings.Contains(m.Text, w) {
					t.Errorf("text has %q", w)
				}
			}
			if strings.Count(m.Text, "Use tabs.") > 1 {
				t.Errorf("the same text went twice:\n%s", m.Text)
			}
			switch {
			case tt.notice == "" && len(m.Notices) > 0:
				t.Errorf("notices %q, want none", m.Notices)
			case tt.notice != "" && (len(m.Notices) != 1 || !strings.Contains(m.Notices[0], tt.notice)):
				t.Errorf("notices %q, want one with %q", m.Notices, tt.notice)
			}
		})
	}
}

// Past the cap, the files that do not fit are cut or left out, and both
// the text and a notice say so.
func TestLoadCap(t *testing.T) {
	proj := t.TempDir()
	big := strings.Repeat("x", MaxFile-100)
	tree(t, proj, map[string]string{"AGENTS.md": big, "a/AGENTS.md": big + "a", "a/b/AGENTS.md": big + "b", "a/b/c/AGENTS.md": big + "c"})
	m := Load(Options{WorkingDir: filepath.Join(proj, "a", "b", "c"), Root: proj})
	if len(m.Text) > MaxTotal+2048 {
		t.Errorf("text of %d bytes passes the cap", len(m.Text))
	}
	if !strings.Contains(m.Text, "[... not sent, as the instructions reached their cap of 48 KiB: a/b/c/AGENTS.md (the rest of it)]") &&
		!strings.Contains(m.Text, "not sent, as the instructions reached their cap of 48 KiB: a/b/c/AGENTS.md]") {
		t.Errorf("no note of the cap in the text:\n%s", m.Text[len(m.Text)-300:])
	}
	if len(m.Notices) != 1 || !strings.Contains(m.Notices[0], "the instructions files come to more than 48 KiB: a/b/c/AGENTS.md") {
		t.Errorf("notices %q", m.Notices)
	}
	if last := m.Files[len(m.Files)-1]; !strings.Contains(last.Note, "cap of 48 KiB") {
		t.Errorf("last file %+v", last)
	}
}

func TestImports(t *testing.T) {
	tests := []struct{ in, want string }{
		{"@a.md", "a.md"},
		{"See @docs/x.md, then @~/y.md.", "docs/x.md ~/y.md"},
		{"(@a.md) me@b.md @ @@x @~bob/x @-x", ""},
		{"- @./a.md\n\t@../b.md)", "./a.md ../b.md"},
		{"`@x.md` and ``` @y.md", ""},
		{"```\n@in.md\n```\n@out.md", "out.md"},
		{"~~~sh\n@in.md\n~~~\n", ""},
		{"http://h/@a.md @https://x", ""},
		{"@a.md @a.md", "a.md"},
	}
	for _, tt := range tests {
		if got := strings.Join(Imports(tt.in), " "); got != tt.want {
			t.Errorf("Imports(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzImports: any text gives paths that are non-empty, one word each,
// with no @, and never panics.
func FuzzImports(f *testing.F) {
	for _, s := range []string{"@a.md", "x @~/b.md\n```\n@c\n```", "`@x` @y", "@", "@\x00", "@~", "@é.md", "~~~\n@a\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range Imports(s) {
			if p == "" || strings.ContainsAny(p, " \t\n@") {
				t.Fatalf("Imports(%q) gave %q", s, p)
			}
		}
	})
}

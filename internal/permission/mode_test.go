package permission

import (
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Mode
		err  string
	}{
		{in: "", want: ModeAsk},
		{in: "ask", want: ModeAsk},
		{in: "auto-edit", want: ModeAutoEdit},
		{in: " YOLO ", want: ModeYolo},
		{in: "Plan", want: ModePlan},
		{in: "auto_edit", err: `unknown approval mode "auto_edit": use one of ask, auto-edit, yolo, plan`},
		{in: "bypass", err: "use one of ask, auto-edit, yolo, plan"},
	} {
		got, err := ParseMode(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseMode(%q) error = %v, want it to contain %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestModeString(t *testing.T) {
	if got := Mode("").String(); got != "ask" {
		t.Errorf(`Mode("").String() = %q, want "ask"`, got)
	}
	for _, m := range Modes() {
		back, err := ParseMode(m.String())
		if err != nil || back != m {
			t.Errorf("ParseMode(%q) = %q, %v; want the mode back", m, back, err)
		}
	}
}

// A mode set while the session goes on decides the next calls; the rules
// stay, and a policy moved to another directory keeps the mode it had.
func TestSetMode(t *testing.T) {
	wd := t.TempDir()
	p, err := New(Config{Mode: ModeAsk, WorkingDir: wd, Allow: []string{"Bash(go test:*)"}})
	if err != nil {
		t.Fatal(err)
	}
	edit := Call{Tool: "Write", Args: map[string]any{"file_path": wd + "/a.go", "content": "x"}, EditsFiles: true}
	test := Call{Tool: "Bash", Args: map[string]any{"command": "go test ./..."}}
	for _, tc := range []struct {
		mode       Mode
		edit, test Decision
	}{
		{ModeAsk, Ask, Allow},
		{ModeAutoEdit, Allow, Allow},
		{ModePlan, Deny, Deny},
		{ModeYolo, Allow, Allow},
		{ModeAsk, Ask, Allow},
	} {
		p.SetMode(tc.mode)
		if got := p.Mode(); got != tc.mode {
			t.Fatalf("Mode() = %q after SetMode(%q)", got, tc.mode)
		}
		if got := p.Decide(edit).Decision; got != tc.edit {
			t.Errorf("%s: the edit is %s, want %s", tc.mode, got, tc.edit)
		}
		if got := p.Decide(test).Decision; got != tc.test {
			t.Errorf("%s: the allowed command is %s, want %s", tc.mode, got, tc.test)
		}
	}
	p.SetMode(ModeAutoEdit)
	q, err := p.InDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if q.Mode() != ModeAutoEdit {
		t.Errorf("InDir: mode %q, want auto-edit", q.Mode())
	}
}

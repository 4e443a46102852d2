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

package app

import (
	"slices"
	"testing"
)

// --resume (-r) without an id becomes --resume= (pick one); with an id,
// or as another flag's value, it stays as typed.
func TestBareResume(t *testing.T) {
	for _, tc := range []struct {
		args, want []string
	}{
		{[]string{"-r"}, []string{"--resume="}},
		{[]string{"--resume"}, []string{"--resume="}},
		{[]string{"-r", "--approval", "yolo"}, []string{"--resume=", "--approval", "yolo"}},
		{[]string{"-r", "sess_7f8b4c0d1e90"}, []string{"-r", "sess_7f8b4c0d1e90"}},
		{[]string{"--resume=sess_x"}, []string{"--resume=sess_x"}},
		{[]string{"ask", "-r"}, []string{"ask", "--resume="}},
		{[]string{"ask", "-r", "--", "prompt"}, []string{"ask", "--resume=", "--", "prompt"}},
		{[]string{"-c", "-r"}, []string{"-c", "-r"}},
		{[]string{"--model", "-r", "-r"}, []string{"--model", "-r", "--resume="}},
		{[]string{"--dry-run", "-r"}, []string{"--dry-run", "--resume="}},
		{[]string{"ask", "--", "-r"}, []string{"ask", "--", "-r"}},
		{[]string{"nosuchcommand", "-r"}, []string{"nosuchcommand", "--resume="}},
	} {
		a := newApp(nil, nil, nil, Options{})
		if got := bareResume(a.rootCommand(), tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.args, got, tc.want)
		}
	}
}

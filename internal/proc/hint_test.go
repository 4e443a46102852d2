package proc

import "testing"

func TestExitHintAndSummary(t *testing.T) {
	hints := []struct {
		msg     string
		code    int
		hasCode bool
		want    string
	}{
		{"Operation not permitted", 1, true, "Check permissions and try again."},
		{"", 126, true, "Check permissions and try again."},
		{"", 127, true, "Check that the command and the files it names exist, then try again."},
		{"bash: foo: No such file or directory", 1, true, "Check that the command and the files it names exist, then try again."},
		{"", 143, true, "The command was stopped by a signal."},
		{"", 143, false, "Check the command and its output, then try again."},
		{"something else", 2, true, "Check the command and its output, then try again."},
	}
	for _, h := range hints {
		if got := ExitHint(h.msg, h.code, h.hasCode); got != h.want {
			t.Errorf("ExitHint(%q, %d, %v) = %q, want %q", h.msg, h.code, h.hasCode, got, h.want)
		}
	}
	if got := ExitSummary(3, true); got != "The command failed with exit code 3." {
		t.Errorf("ExitSummary(3) = %q", got)
	}
	if got := ExitSummary(0, false); got != "The command failed." {
		t.Errorf("ExitSummary without a code = %q", got)
	}
}

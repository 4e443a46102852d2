package proc

import (
	"strconv"
	"strings"
)

// ExitHint suggests what to do about a command that failed with msg and,
// when hasCode, exit status code (126 and 127 are the shell's "cannot
// execute" and "not found"; 130, 137 and 143 mean a signal ended it).
func ExitHint(msg string, code int, hasCode bool) string {
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "permission") || strings.Contains(low, "not permitted") || (hasCode && code == 126):
		return "Check permissions and try again."
	case strings.Contains(low, "not found") || strings.Contains(low, "no such file") || (hasCode && code == 127):
		return "Check that the command and the files it names exist, then try again."
	case hasCode && (code == 130 || code == 137 || code == 143):
		return "The command was stopped by a signal."
	}
	return "Check the command and its output, then try again."
}

// ExitSummary is the sentence that closes a failed command's report.
func ExitSummary(code int, hasCode bool) string {
	if !hasCode {
		return "The command failed."
	}
	return "The command failed with exit code " + strconv.Itoa(code) + "."
}

package commands

import "github.com/forgehq/forge/internal/tools"

// Exit statuses of forge, documented in the README.
const (
	ExitOK        = 0   // success, or a dry run
	ExitFailed    = 1   // the tool failed; in a session, some line failed
	ExitUsage     = 2   // usage error, validation error or unknown tool
	ExitTimedOut  = 124 // the tool timed out (as timeout(1))
	ExitCancelled = 130 // cancelled with Ctrl-C (128 + SIGINT)
)

// ResultStatus maps a tool result to the exit status of forge run.
func ResultStatus(r tools.Result) int {
	switch r.Status {
	case tools.StatusSuccess, tools.StatusDryRun:
		return ExitOK
	case tools.StatusTimedOut:
		return ExitTimedOut
	case tools.StatusCancelled:
		return ExitCancelled
	}
	switch r.ErrorKind {
	case tools.KindValidation, tools.KindUnknownTool:
		return ExitUsage
	}
	return ExitFailed
}

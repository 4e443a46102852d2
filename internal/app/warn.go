package app

import (
	"fmt"

	"github.com/forgehq/forge/internal/termsafe"
)

// warn tells the person about a problem that does not stop forge (a
// config key it does not know, a repaired session) on one plain line of
// standard error, "warning: ...", where a log line would bury it in a
// timestamp and a level. --log-level error or off silences it, as they do
// warnings; with --log-file the line is logged there too. Completion
// (quiet) never prints one.
func (a *App) warn(msg string) {
	if a.quiet {
		return
	}
	if a.cfg.LogFile != "" {
		a.log.Warn().Msg(msg)
	}
	switch a.cfg.LogLevel {
	case "error", "off":
		return
	}
	fmt.Fprintln(a.ios.Err, "warning: "+termsafe.Text(msg))
}

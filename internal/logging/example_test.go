package logging_test

import (
	"os"
	"time"

	"github.com/forgehq/forge/internal/logging"
)

func ExampleNew() {
	now := func() time.Time { return time.Date(2024, 1, 15, 10, 23, 45, 123_000_000, time.UTC) }
	log, err := logging.New(os.Stdout, "info", false, now)
	if err != nil {
		panic(err)
	}
	tools := log.With().Str(logging.ComponentField, "tools").Logger()
	tools.Info().Msg("Executing tool: Read")
	tools.Debug().Msg("not shown at info")
	tools.Warn().Int("errno", 2).Msg("Tool Read failed: File not found: /path/to/file")
	// Output:
	// 2024-01-15 10:23:45.123 INFO  [tools] Executing tool: Read
	// 2024-01-15 10:23:45.123 WARN  [tools] Tool Read failed: File not found: /path/to/file errno=2
}

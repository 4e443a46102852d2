// Package logging builds forge's zerolog loggers. They write one event per line, in
// a console format meant for people reading the shell's output:
//
//	2024-01-15 10:23:45.123 INFO  [tools] Executing tool: Read
//
// The time carries milliseconds, the level is padded to five upper-case letters, the
// event's "component" field is printed in brackets ([forge] when absent), other fields
// follow the message as key=value, and the continuation lines of a multi-line message
// (a stack trace) are indented under the message's first character.
//
// Nothing here touches zerolog's global settings (TimeFieldFormat, TimestampFunc,
// global level): the timestamp is added by a hook with an injected clock, so tests
// and concurrent loggers never interfere.
package logging

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// ComponentField is the event field naming the part of forge that logs ("tools",
// "repl", "mcp"); it is printed in brackets after the level.
const ComponentField = "component"

// DefaultComponent is printed when an event has no component field.
const DefaultComponent = "forge"

// TimeFormat is the layout of the timestamp at the start of every line.
const TimeFormat = "2006-01-02 15:04:05.000"

// levels lists the names accepted by ParseLevel, in order of verbosity.
var levels = [...]struct {
	name  string
	level zerolog.Level
}{
	{"debug", zerolog.DebugLevel},
	{"info", zerolog.InfoLevel},
	{"warn", zerolog.WarnLevel},
	{"error", zerolog.ErrorLevel},
	{"off", zerolog.Disabled},
}

// Levels returns the level names forge accepts, from the most verbose to "off".
func Levels() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.name
	}
	return names
}

// ParseLevel maps a level name (case-insensitive, surrounding spaces ignored) to a
// zerolog level; "off" is zerolog.Disabled. An unknown name is an error that lists
// the valid ones.
func ParseLevel(name string) (zerolog.Level, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, l := range levels {
		if l.name == n {
			return l.level, nil
		}
	}
	return zerolog.Disabled, fmt.Errorf("unknown log level %q: valid levels are %s", name, strings.Join(Levels(), ", "))
}

// New returns a logger that writes the console format to w at the given level,
// with ANSI colours only when color is true, stamping each event with now (nil
// means time.Now; tests pass a fixed clock). It is safe for concurrent use even
// when w is not: each event is written with one Write call under a lock.
func New(w io.Writer, level string, color bool, now func() time.Time) (zerolog.Logger, error) {
	lvl, err := ParseLevel(level)
	if err != nil {
		return zerolog.Nop(), err
	}
	if now == nil {
		now = time.Now
	}
	return zerolog.New(newConsole(zerolog.SyncWriter(w), color)).
		Level(lvl).
		Hook(clockHook{now: now}), nil
}

// clockHook stamps each event with the injected clock. It stands in for
// zerolog.Context.Timestamp, whose precision depends on the global TimeFieldFormat
// (seconds by default: the console format shows milliseconds).
type clockHook struct{ now func() time.Time }

// Run implements zerolog.Hook. RFC 3339 with nanoseconds keeps the zone and the
// milliseconds; the console writer reformats it with TimeFormat.
func (h clockHook) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	e.Str(zerolog.TimestampFieldName, h.now().Format(time.RFC3339Nano))
}

// Open opens the log destination: "" is standard error (which Close leaves open);
// any other path is opened for appending, created with mode 0600 (logs may hold
// what tools read and ran) and its parent directories with 0700.
func Open(path string) (io.WriteCloser, error) {
	if path == "" {
		return nopCloser{os.Stderr}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	return f, nil
}

// nopCloser keeps Close from closing standard error, which the process still needs.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

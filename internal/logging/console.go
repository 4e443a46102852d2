package logging

import (
	"github.com/forgehq/forge/internal/termsafe"

	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"
)

// ANSI colours used when colour is on.
const (
	ansiRed     = 31
	ansiGreen   = 32
	ansiYellow  = 33
	ansiBlue    = 34
	ansiMagenta = 35
	ansiCyan    = 36
	ansiGray    = 90
)

// newConsole returns the ConsoleWriter that draws the package's line format on out.
func newConsole(out io.Writer, color bool) zerolog.ConsoleWriter {
	noColor := !color
	return zerolog.ConsoleWriter{
		Out:        out,
		NoColor:    noColor,
		TimeFormat: TimeFormat,
		PartsOrder: []string{
			zerolog.TimestampFieldName,
			zerolog.LevelFieldName,
			ComponentField,
			zerolog.MessageFieldName,
		},
		FieldsExclude: []string{ComponentField},
		FormatTimestamp: func(v any) string {
			return paint(plainTimestamp(v), ansiGray, noColor)
		},
		FormatLevel: func(v any) string {
			name := plainLevel(v)
			return paint(name, levelColor(name), noColor)
		},
		FormatPartValueByName: func(v any, name string) string {
			if name == ComponentField {
				return paint(termsafe.String(plainComponent(v)), ansiCyan, noColor)
			}
			return termsafe.String(fmt.Sprint(v))
		},
		// Messages and values carry what tools, servers and models said:
		// they go through forge's terminal sanitiser like everything else.
		FormatMessage: func(v any) string {
			if v == nil {
				return ""
			}
			return termsafe.String(fmt.Sprint(v))
		},
		FormatFieldValue: func(v any) string {
			return termsafe.String(fmt.Sprint(v))
		},
		FormatFieldName: func(v any) string {
			return paint(fmt.Sprint(v)+"=", ansiCyan, noColor)
		},
		FormatErrFieldName: func(v any) string {
			return paint(fmt.Sprint(v)+"=", ansiRed, noColor)
		},
		FormatErrFieldValue: func(v any) string {
			return paint(termsafe.String(fmt.Sprintf("%s", v)), ansiRed, noColor)
		},
		FormatPrepare: indentMessage,
	}
}

// plainTimestamp renders the hook's RFC 3339 time with TimeFormat; anything else (a
// timestamp added by other means) is printed as it is.
func plainTimestamp(v any) string {
	s, ok := v.(string)
	if !ok {
		if v == nil {
			return ""
		}
		return fmt.Sprint(v)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.Format(TimeFormat)
}

// plainLevel is the level in upper case padded to five columns ("INFO ", "ERROR"), so
// components and messages line up; an event without a level gets five spaces.
func plainLevel(v any) string {
	s, _ := v.(string)
	s = strings.ToUpper(s)
	if n := utf8.RuneCountInString(s); n < 5 {
		s += strings.Repeat(" ", 5-n)
	}
	return s
}

// levelColor picks the colour of a padded level name.
func levelColor(level string) int {
	switch strings.TrimSpace(level) {
	case "TRACE":
		return ansiMagenta
	case "DEBUG":
		return ansiBlue
	case "INFO":
		return ansiGreen
	case "WARN":
		return ansiYellow
	case "", "NONE":
		return 0
	default: // ERROR, FATAL, PANIC
		return ansiRed
	}
}

// plainComponent is the bracketed component, [forge] when the event has none.
func plainComponent(v any) string {
	s, _ := v.(string)
	if s == "" {
		s = DefaultComponent
	}
	return "[" + s + "]"
}

// indentMessage indents the continuation lines of a multi-line message so they start
// under the message's first character: a stack trace reads as one block. The column
// is the visible width of the parts before the message, each followed by one space.
func indentMessage(evt map[string]any) error {
	msg, ok := evt[zerolog.MessageFieldName].(string)
	if !ok || !strings.ContainsAny(msg, "\r\n") {
		return nil
	}
	msg = strings.TrimRight(strings.ReplaceAll(msg, "\r\n", "\n"), "\n")
	col := 0
	for _, part := range []string{
		plainTimestamp(evt[zerolog.TimestampFieldName]),
		plainLevel(evt[zerolog.LevelFieldName]),
		plainComponent(evt[ComponentField]),
	} {
		if part != "" {
			col += utf8.RuneCountInString(part) + 1
		}
	}
	evt[zerolog.MessageFieldName] = strings.ReplaceAll(msg, "\n", "\n"+strings.Repeat(" ", col))
	return nil
}

// paint wraps s in an ANSI colour unless colour is off or c is 0.
func paint(s string, c int, noColor bool) string {
	if noColor || c == 0 || s == "" {
		return s
	}
	return fmt.Sprintf("\x1b[%dm%s\x1b[0m", c, s)
}

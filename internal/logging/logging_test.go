package logging

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// fixed is the instant of every test line: 2024-01-15 10:23:45.123, with
// milliseconds to show.
var fixed = time.Date(2024, 1, 15, 10, 23, 45, 123_000_000, time.FixedZone("CET", 3600))

func clock() time.Time { return fixed }

func newTest(t *testing.T, level string, color bool) (zerolog.Logger, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	l, err := New(&buf, level, color, clock)
	if err != nil {
		t.Fatalf("New(%q): %v", level, err)
	}
	return l, &buf
}

func TestConsoleFormat(t *testing.T) {
	tests := []struct {
		name string
		log  func(l zerolog.Logger)
		want string
	}{
		{
			name: "info",
			log:  func(l zerolog.Logger) { l.Info().Str("component", "tools").Msg("Executing tool: Read") },
			want: "2024-01-15 10:23:45.123 INFO  [tools] Executing tool: Read\n",
		},
		{
			name: "debug",
			log: func(l zerolog.Logger) {
				l.Debug().Str("component", "tools").Msg("Context: working_dir=/home/user, timeout=120")
			},
			want: "2024-01-15 10:23:45.123 DEBUG [tools] Context: working_dir=/home/user, timeout=120\n",
		},
		{
			name: "warn",
			log: func(l zerolog.Logger) {
				l.Warn().Str("component", "tools").Msg("Tool Read failed: File not found: /path/to/file")
			},
			want: "2024-01-15 10:23:45.123 WARN  [tools] Tool Read failed: File not found: /path/to/file\n",
		},
		{
			name: "error with a traceback indented under the message",
			log: func(l zerolog.Logger) {
				l.Error().Str("component", "tools").Msg("Traceback (most recent call last):\n" +
					"  File \"tools/base.py\", line 45, in execute\n" +
					"    result = await self._execute(context, **kwargs)\n" +
					"  ...\n")
			},
			want: "2024-01-15 10:23:45.123 ERROR [tools] Traceback (most recent call last):\n" +
				"                                        File \"tools/base.py\", line 45, in execute\n" +
				"                                          result = await self._execute(context, **kwargs)\n" +
				"                                        ...\n",
		},
		{
			name: "CRLF lines are indented too",
			log:  func(l zerolog.Logger) { l.Error().Msg("a\r\nb") },
			want: "2024-01-15 10:23:45.123 ERROR [forge] a\n" +
				"                                      b\n",
		},
		{
			name: "no component prints [forge]",
			log:  func(l zerolog.Logger) { l.Info().Msg("started") },
			want: "2024-01-15 10:23:45.123 INFO  [forge] started\n",
		},
		{
			name: "fields follow as key=value, sorted, error first, component excluded",
			log: func(l zerolog.Logger) {
				l.Warn().Str("component", "mcp").Int("attempt", 2).Str("server", "git hub").
					Err(errors.New("broken pipe")).Msg("reconnecting")
			},
			want: "2024-01-15 10:23:45.123 WARN  [mcp] reconnecting error=\"broken pipe\" attempt=2 server=\"git hub\"\n",
		},
		{
			name: "component from the logger's context",
			log: func(l zerolog.Logger) {
				c := l.With().Str(ComponentField, "repl").Logger()
				c.Info().Msg("ready")
			},
			want: "2024-01-15 10:23:45.123 INFO  [repl] ready\n",
		},
		{
			name: "no level",
			log:  func(l zerolog.Logger) { l.Log().Msg("plain") },
			want: "2024-01-15 10:23:45.123       [forge] plain\n",
		},
		{
			name: "no message",
			log:  func(l zerolog.Logger) { l.Info().Str("k", "v").Send() },
			want: "2024-01-15 10:23:45.123 INFO  [forge] k=v\n",
		},
		{
			name: "an explicit RFC 3339 timestamp is overridden by the clock",
			log: func(l zerolog.Logger) {
				c := l.With().Str("time", "garbage").Logger()
				c.Info().Msg("x")
			},
			want: "2024-01-15 10:23:45.123 INFO  [forge] x\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, buf := newTest(t, "debug", false)
			tt.log(l)
			if got := buf.String(); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestLevels(t *testing.T) {
	tests := []struct {
		level   string
		visible []string // among debug, info, warn, error
	}{
		{"debug", []string{"DEBUG", "INFO", "WARN", "ERROR"}},
		{"info", []string{"INFO", "WARN", "ERROR"}},
		{"warn", []string{"WARN", "ERROR"}},
		{"WARN", []string{"WARN", "ERROR"}},
		{" error ", []string{"ERROR"}},
		{"off", nil},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			l, buf := newTest(t, tt.level, false)
			l.Debug().Msg("m")
			l.Info().Msg("m")
			l.Warn().Msg("m")
			l.Error().Msg("m")
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				if f := strings.Fields(line); len(f) > 2 {
					got = append(got, f[2])
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.visible, ",") {
				t.Errorf("level %q printed %v, want %v", tt.level, got, tt.visible)
			}
		})
	}
}

func TestUnknownLevel(t *testing.T) {
	for _, level := range []string{"", "verbose", "warning", "trace"} {
		_, err := New(&bytes.Buffer{}, level, false, nil)
		if err == nil {
			t.Fatalf("New(%q) succeeded, want an error", level)
		}
		want := `unknown log level "` + level + `": valid levels are debug, info, warn, error, off`
		if err.Error() != want {
			t.Errorf("New(%q) error = %q, want %q", level, err, want)
		}
	}
	if got := strings.Join(Levels(), ","); got != "debug,info,warn,error,off" {
		t.Errorf("Levels() = %s", got)
	}
}

func TestColor(t *testing.T) {
	l, buf := newTest(t, "debug", true)
	l.Error().Str("component", "tools").Str("k", "v").Err(errors.New("e")).Msg("boom")
	got := buf.String()
	for _, want := range []string{
		"\x1b[90m2024-01-15 10:23:45.123\x1b[0m",
		"\x1b[31mERROR\x1b[0m",
		"\x1b[36m[tools]\x1b[0m",
		" boom ",
		"\x1b[31merror=\x1b[0m\x1b[31me\x1b[0m",
		"\x1b[36mk=\x1b[0mv",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured line %q lacks %q", got, want)
		}
	}
	for name, want := range map[string]int{
		"TRACE": ansiMagenta, "DEBUG": ansiBlue, "INFO ": ansiGreen, "WARN ": ansiYellow,
		"ERROR": ansiRed, "FATAL": ansiRed, "PANIC": ansiRed, "     ": 0,
	} {
		if got := levelColor(name); got != want {
			t.Errorf("levelColor(%q) = %d, want %d", name, got, want)
		}
	}
	l, buf = newTest(t, "info", false)
	l.Error().Msg("plain")
	if strings.Contains(buf.String(), "\x1b[") {
		t.Errorf("colour off but output has escapes: %q", buf.String())
	}
}

func TestPlainParts(t *testing.T) {
	if got := plainTimestamp(nil); got != "" {
		t.Errorf("plainTimestamp(nil) = %q", got)
	}
	if got := plainTimestamp(12); got != "12" {
		t.Errorf("plainTimestamp(12) = %q", got)
	}
	if got := plainTimestamp("yesterday"); got != "yesterday" {
		t.Errorf("plainTimestamp(yesterday) = %q", got)
	}
	if got := plainLevel("trace"); got != "TRACE" {
		t.Errorf("plainLevel(trace) = %q", got)
	}
}

func TestNilClockUsesNow(t *testing.T) {
	var buf bytes.Buffer
	l, err := New(&buf, "info", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	l.Info().Msg("x")
	stamp, _, _ := strings.Cut(buf.String(), " INFO")
	got, err := time.ParseInLocation(TimeFormat, stamp, time.Local)
	if err != nil {
		t.Fatalf("line %q: %v", buf.String(), err)
	}
	if got.Before(before.Truncate(time.Millisecond).Add(-time.Second)) {
		t.Errorf("timestamp %v is older than %v", got, before)
	}
}

func TestConcurrentUse(t *testing.T) {
	l, buf := newTest(t, "info", false)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				l.Info().Str("component", "tools").Msg("Tool Read succeeded")
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("got %d lines, want 400", len(lines))
	}
	for _, line := range lines {
		if line != "2024-01-15 10:23:45.123 INFO  [tools] Tool Read succeeded" {
			t.Fatalf("interleaved line %q", line)
		}
	}
}

func TestOpen(t *testing.T) {
	w, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	if nc, ok := w.(nopCloser); !ok || nc.Writer != os.Stderr {
		t.Errorf("Open(\"\") = %#v, want standard error", w)
	}
	if err := w.Close(); err != nil {
		t.Errorf("closing standard error's wrapper: %v", err)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "forge.log")
	for i, line := range []string{"one\n", "two\n"} {
		w, err := Open(path)
		if err != nil {
			t.Fatalf("Open #%d: %v", i, err)
		}
		if _, err := w.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "one\ntwo\n" {
		t.Errorf("log file holds %q, want both lines appended", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v", fi.Mode().Perm())
	}

	// A parent that is a file cannot hold the log.
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(blocker, "x.log")); err == nil || !strings.HasPrefix(err.Error(), "log file: ") {
		t.Errorf("Open under a file: err = %v, want a log file error", err)
	}
	// A directory cannot be opened as the log.
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Open(dir): err = %v, want an error naming %s", err, dir)
	}
}

func BenchmarkInfoLine(b *testing.B) {
	var buf bytes.Buffer
	l, err := New(&buf, "info", false, clock)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		l.Info().Str("component", "tools").Msg("Executing tool: Read")
	}
}

// What a tool or a server said reaches the log only through the terminal
// sanitiser: no escape sequence from outside forge gets to a terminal.
func TestLogSanitisesOutsideText(t *testing.T) {
	var buf bytes.Buffer
	l, err := New(&buf, "debug", false, clock)
	if err != nil {
		t.Fatal(err)
	}
	evil := "boom \x1b]0;owned\x07\x1b[2J"
	l.Warn().Str("component", "mcp").Str("detail", evil).Err(errors.New(evil)).Msg("Tool X failed: " + evil)
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("raw escapes in the log: %q", out)
	}
	if !strings.Contains(out, "Tool X failed: boom ^[]0;owned^G^[[2J") {
		t.Errorf("log line %q", out)
	}
}

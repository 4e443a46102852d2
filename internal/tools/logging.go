package tools

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of the parameters logged at debug level: a log line is for a
// person, and a 1 MB file content would drown it.
const (
	logMaxString = 200 // characters of a string value
	logMaxItems  = 20  // elements of an array, keys of an object
	logMaxDepth  = 8   // levels of nesting (a cyclic value must not recurse forever)
)

// logStart writes "Executing tool: NAME" at info level and the parameters
// and context at debug level. Messages are built only when their level is
// on, so a quiet logger costs next to nothing.
func (e *Executor) logStart(en *entry, ec *ExecutionContext, args Args) {
	if ev := e.log.Info(); ev != nil {
		ev.Msg(en.start)
	}
	if ev := e.log.Debug(); ev != nil {
		ev.Msg("Parameters: " + formatParams(args))
	}
	if ev := e.log.Debug(); ev != nil {
		ev.Msg("Context: working_dir=" + ec.WorkingDir + ", timeout=" + formatFloat(ec.Timeout.Seconds()))
	}
}

// logDone writes the result at debug level, then "Tool NAME succeeded" at
// info level or "Tool NAME failed: ERROR" at warning level. en, the
// registered tool, holds the messages ready; it is nil for an unknown name.
func (e *Executor) logDone(name string, en *entry, r *Result) {
	if ev := e.log.Debug(); ev != nil {
		ms := math.Round(r.DurationMS*1000) / 1000
		ev.Msg("Result: success=" + strconv.FormatBool(r.Success) +
			", output_size=" + strconv.Itoa(outputSize(*r)) +
			", duration_ms=" + formatFloat(ms))
	}
	if r.Success {
		if ev := e.log.Info(); ev != nil {
			if en != nil {
				ev.Msg(en.ok)
			} else {
				ev.Msg("Tool " + name + " succeeded")
			}
		}
		return
	}
	if ev := e.log.Warn(); ev != nil {
		if en != nil {
			ev.Msg(en.failed + r.Error)
		} else {
			ev.Msg("Tool " + name + " failed: " + r.Error)
		}
	}
}

// outputSize is the size in bytes of what the model would read.
func outputSize(r Result) int {
	if s, ok := r.Output.(string); ok {
		return len(s)
	}
	if !r.Success {
		return 0
	}
	return len(r.Display())
}

// formatParams writes args for the log line of a call:
// {"file_path": "/home/user/test.py", "limit": 100}, keys sorted, long
// values shortened.
func formatParams(args Args) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		writeLogJSON(&b, k)
		b.WriteString(": ")
		writeLogJSON(&b, shorten(args[k], 0))
	}
	b.WriteByte('}')
	return b.String()
}

func writeLogJSON(b *strings.Builder, v any) {
	out, err := json.Marshal(v)
	if err != nil {
		b.WriteString(strconv.Quote("<" + err.Error() + ">"))
		return
	}
	b.Write(out)
}

// shorten returns v with strings cut to logMaxString characters and
// collections to logMaxItems entries, recursively down to logMaxDepth.
func shorten(v any, depth int) any {
	if depth > logMaxDepth {
		return "..."
	}
	switch x := v.(type) {
	case string:
		if utf8.RuneCountInString(x) <= logMaxString {
			return x
		}
		n := 0
		for i := range x {
			if n == logMaxString {
				return x[:i] + "..."
			}
			n++
		}
		return x
	case []any:
		out := make([]any, 0, min(len(x), logMaxItems+1))
		for i, it := range x {
			if i == logMaxItems {
				out = append(out, "... ("+strconv.Itoa(len(x)-logMaxItems)+" more)")
				break
			}
			out = append(out, shorten(it, depth+1))
		}
		return out
	case map[string]any:
		out := make(map[string]any, min(len(x), logMaxItems))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i == logMaxItems {
				out["..."] = strconv.Itoa(len(x)-logMaxItems) + " more"
				break
			}
			out[k] = shorten(x[k], depth+1)
		}
		return out
	case Args:
		return shorten(map[string]any(x), depth)
	case time.Duration:
		return x.String()
	}
	return v
}

package builtin

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/forgehq/forge/builtin/internal/capture"
	"github.com/forgehq/forge/internal/tools"
)

var bashOutputDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "BashOutput",
	Description: "Get output from background shell. Returns what the command printed since the last read, with its status " +
		"(running, exited or killed) and exit code. The optional filter (an RE2 regular expression) keeps only matching lines; " +
		"lines it drops are not shown again. An unknown id gets the list of background shells.",
	Category: tools.CategoryExecution,
	Parameters: []tools.Parameter{
		{Name: "bash_id", Type: tools.TypeString, Description: "The ID of the background shell to read (e.g. bash_1)", Required: true},
		{Name: "filter", Type: tools.TypeString, Description: "Optional regular expression (RE2): only matching lines are returned"},
	},
}

// bashOutputTool reads background commands' output from the shell table.
type bashOutputTool struct {
	described
	shells *shellTable
}

func newBashOutput(h *shellHolder) tools.Factory {
	return func(context.Context, tools.Deps) (tools.Tool, error) {
		return &bashOutputTool{described: described{bashOutputDescriptor}, shells: h.table()}, nil
	}
}

// Close ends every background command (Registry.Close, when forge exits).
func (t *bashOutputTool) Close() error { return t.shells.Close() }

// DryRun says what would be read; reading does not change anything but the
// read position, which a dry run leaves alone.
func (t *bashOutputTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	return fmt.Sprintf("Would read the new output of background shell %s", args.String("bash_id"))
}

// Execute returns the output that is new since the last read.
func (t *bashOutputTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled before reading: " + err.Error())
	}
	id := args.String("bash_id")
	var re *regexp.Regexp
	if f := args.String("filter"); f != "" {
		var err error
		if re, err = regexp.Compile(f); err != nil {
			return tools.Fail(fmt.Sprintf("Invalid filter regular expression %q: %v", f, err))
		}
	}
	s, ok := t.shells.get(id)
	if !ok {
		return tools.Fail(t.shells.unknown(id))
	}
	// Status first: output printed before the command ended is then
	// certainly in the stream when it is read below.
	st, ex := s.status()
	if st != shellRunning {
		select { // let the last bytes arrive
		case <-s.drained:
		case <-time.After(50 * time.Millisecond):
		}
	}
	s.mu.Lock()
	data, dropped, next := s.out.Since(s.readOff)
	s.readOff = next
	s.mu.Unlock()

	text := string(data)
	if re != nil {
		text = filterLines(text, re)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Status: %s", st)
	if st != shellRunning {
		fmt.Fprintf(&b, " (%s)", ex)
	}
	fmt.Fprintf(&b, "\nCommand: %s\n", oneLine(s.command, 200))
	if dropped > 0 {
		fmt.Fprintf(&b, "[%d earlier bytes were dropped before they were read: only the newest %d bytes are kept]\n", dropped, streamSize)
	}
	switch {
	case text != "":
		b.WriteString("\n" + capture.Cap(text, outputLimit(ec)))
	case re != nil && len(data) > 0:
		b.WriteString("\n(no new lines match the filter)")
	default:
		b.WriteString("\n(no new output)")
	}
	meta := []any{"bash_id", s.id, "status", string(st), "bytes", len(data), "dropped", dropped}
	if st != shellRunning {
		meta = append(meta, "exit_code", ex.Code)
	}
	return tools.OK(b.String(), meta...)
}

// filterLines keeps the lines of text that re matches.
func filterLines(text string, re *regexp.Regexp) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if re.MatchString(strings.TrimRight(line, "\r\n")) {
			b.WriteString(line)
		}
	}
	return b.String()
}

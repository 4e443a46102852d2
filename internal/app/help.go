package app

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/render"
)

// helpAnnotation holds a command's help text until its help is shown.
const helpAnnotation = "forge-help"

// helpWidth is the width help is laid out to when the output is no
// terminal: what a pager or a file reads comfortably.
const helpWidth = 80

// wrapHelp lays out a command's help, on the way to being shown, to the
// terminal's width (helpWidth elsewhere): its text and its examples'
// comments wrapped between words, its flags' descriptions wrapped in their
// column, and what remains too wide (a command's summary) continued under
// its own column. It is done when the help is shown: wrapping every
// command's text cost each start of forge more than the rest of building
// the command tree.
func (a *App) wrapHelp(root *cobra.Command) {
	show := root.HelpFunc()
	root.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		w := a.width()
		if w <= 0 {
			w = helpWidth
		}
		long := cmd.Long
		if h, ok := cmd.Annotations[helpAnnotation]; ok {
			long = h
			delete(cmd.Annotations, helpAnnotation)
		}
		cmd.Long = render.WrapText(long, w)
		cmd.Example = wrapExamples(cmd.Example, w)
		cmd.SetUsageTemplate(strings.ReplaceAll(cmd.UsageTemplate(), ".FlagUsages ", ".FlagUsagesWrapped "+strconv.Itoa(w)+" "))
		out := cmd.OutOrStdout()
		var b bytes.Buffer
		cmd.SetOut(&b)
		show(cmd, args)
		cmd.SetOut(out)
		fmt.Fprint(out, render.Fit(b.String(), w))
	})
}

// minCommentWidth is the least room an example's comment keeps in its
// column.
const minCommentWidth = 24

// wrapExamples wraps the comments of examples ("  forge -r  # pick one")
// that pass width cells: the comment goes on under itself, each line a
// comment, or, when that leaves it less than minCommentWidth cells, on
// lines of its own under the command. A command without a comment that
// passes width is broken between its words (wrapCommand).
func wrapExamples(ex string, width int) string {
	lines := strings.Split(ex, "\n")
	var out []string
	for _, l := range lines {
		col := strings.Index(l, "  # ")
		switch {
		case len(l) <= width:
			out = append(out, l)
			continue
		case col < 0:
			out = append(out, wrapCommand(l, width)...)
			continue
		}
		code, comment := strings.TrimRight(l[:col], " "), strings.TrimSpace(l[col+4:])
		hang := col + 2
		if width-hang-2 < minCommentWidth {
			out = append(out, code)
			hang = len(code) - len(strings.TrimLeft(code, " "))
			code = ""
		}
		lead := code + strings.Repeat(" ", hang-len(code))
		for _, c := range strings.Split(render.WrapText(comment, max(width-hang-2, minCommentWidth)), "\n") {
			out = append(out, lead+"# "+c)
			lead = strings.Repeat(" ", hang)
		}
	}
	return strings.Join(out, "\n")
}

// wrapCommand breaks an example's command too long for width between its
// words; the lines after the first are indented two more, so that none
// reads as a command of its own. A word longer than a line stays whole.
func wrapCommand(l string, width int) []string {
	indent := len(l) - len(strings.TrimLeft(l, " "))
	var out []string
	line := l[:indent]
	for i, w := range strings.Split(l[indent:], " ") {
		if i > 0 && len(line)+1+len(w) > width && strings.TrimSpace(line) != "" {
			out = append(out, line)
			line = strings.Repeat(" ", indent+2) + w
			continue
		}
		if i > 0 {
			line += " "
		}
		line += w
	}
	return append(out, line)
}

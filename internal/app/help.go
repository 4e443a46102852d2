package app

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"

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
		cmd.SetUsageFunc(func(c *cobra.Command) error { return writeUsage(c.OutOrStderr(), c, w) })
		out := cmd.OutOrStdout()
		var b bytes.Buffer
		cmd.SetOut(&b)
		show(cmd, args)
		cmd.SetOut(out)
		fmt.Fprint(out, render.Fit(b.String(), w))
	})
}

// writeUsage writes c's usage as cobra's own usage does, its flags'
// descriptions wrapped in their column at width. It is written out here
// rather than given to cobra as a template: a template links
// text/template, whose use of reflection keeps every method of every type
// in the binary (5 MB more, and 2 MiB more memory for every start).
func writeUsage(w io.Writer, c *cobra.Command, width int) error {
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\nAliases:\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		writeSubcommands(&b, c)
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\nFlags:\n" + strings.TrimRightFunc(c.LocalFlags().FlagUsagesWrapped(width), unicode.IsSpace))
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString("\n\nGlobal Flags:\n" + strings.TrimRightFunc(c.InheritedFlags().FlagUsagesWrapped(width), unicode.IsSpace))
	}
	if c.HasHelpSubCommands() {
		b.WriteString("\n\nAdditional help topics:")
		for _, sub := range c.Commands() {
			if sub.IsAdditionalHelpTopicCommand() {
				fmt.Fprintf(&b, "\n  %-*s %s", sub.CommandPathPadding(), sub.CommandPath(), sub.Short)
			}
		}
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\n\nUse \"%s [command] --help\" for more information about a command.", c.CommandPath())
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSubcommands lists c's commands as cobra's usage does: by group when
// it has groups, the rest under "Additional Commands".
func writeSubcommands(b *strings.Builder, c *cobra.Command) {
	shown := func(sub *cobra.Command) bool { return sub.IsAvailableCommand() || sub.Name() == "help" }
	line := func(sub *cobra.Command) { fmt.Fprintf(b, "\n  %-*s %s", sub.NamePadding(), sub.Name(), sub.Short) }
	if len(c.Groups()) == 0 {
		b.WriteString("\n\nAvailable Commands:")
		for _, sub := range c.Commands() {
			if shown(sub) {
				line(sub)
			}
		}
		return
	}
	for _, g := range c.Groups() {
		b.WriteString("\n\n" + g.Title)
		for _, sub := range c.Commands() {
			if sub.GroupID == g.ID && shown(sub) {
				line(sub)
			}
		}
	}
	if !c.AllChildCommandsHaveGroup() {
		b.WriteString("\n\nAdditional Commands:")
		for _, sub := range c.Commands() {
			if sub.GroupID == "" && shown(sub) {
				line(sub)
			}
		}
	}
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

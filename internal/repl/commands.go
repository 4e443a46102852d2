package repl

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Command is one slash command of the shell.
type Command struct {
	Name    string   // "/tools"
	Aliases []string // "/quit" for "/exit"
	Usage   string   // "/tools [--category C] [NAME]"
	Summary string   // one line for /help
	Help    string   // more, for /help NAME
	Example string
	// Run executes the command; rest is the line after the command word.
	// It prints its own output and returns the status (see Shell.Exec).
	Run func(ctx context.Context, s *Shell, rest string) int
	// Complete, when set, offers completions for the word being typed;
	// words are the complete words before it (the command word excluded).
	Complete func(s *Shell, words []string, partial string) []string
}

// commands is the command table in the order /help lists them: the core
// commands, the extensions' (ext.go), then /exit.
func (s *Shell) commands() []Command {
	core := coreCommands()
	last := len(core) - 1 // /exit stays last in /help
	cmds := append(core[:last:last], extCommands()...)
	return append(cmds, core[last])
}

func coreCommands() []Command {
	return []Command{
		{Name: "/help", Usage: "/help [COMMAND]", Summary: "List the commands, or explain one",
			Example: "/help run", Run: cmdHelp, Complete: completeHelp},
		{Name: "/tools", Usage: "/tools [--category C] [NAME]", Summary: "List the tools by category, or show one tool's details",
			Help:    "Without NAME, lists every tool grouped by category; --category keeps one category. With NAME, shows the tool's parameters: type, required or optional, default and constraints.",
			Example: "/tools --category file\n/tools Read", Run: cmdTools, Complete: completeTools},
		{Name: "/run", Usage: "/run NAME [key=value ...] | /run NAME {JSON}", Summary: "Run a tool",
			Help:    "Arguments are key=value words. A bare value is typed by the parameter's declared type (offset=100 is an integer, file_path=123 the string \"123\"); a value in double quotes is a JSON string; single quotes keep text as it is; [..] and {..} are JSON arrays and objects; key=@path reads the value from a file. One JSON object may replace the words. A line that starts with a tool's name runs that tool too.",
			Example: "/run Read file_path=go.mod limit=5\n/run Read {\"file_path\": \"go.mod\"}\n/run Write file_path=notes.txt content=@draft.txt",
			Run:     cmdRun, Complete: completeRun},
		{Name: "/schema", Usage: "/schema [NAME ...] [--format F] [--category C]", Summary: "Print tool schemas for an LLM provider",
			Help:    "Prints the JSON Schema definitions, ready to paste into a provider's request: one object for one tool, an array for several or all. Formats: openai (default), anthropic, langchain, gemini, mcp.",
			Example: "/schema Read --format anthropic\n/schema --category file", Run: cmdSchema, Complete: completeSchema},
		{Name: "/history", Usage: "/history [N] [--failed] [--clear]", Summary: "Show the executions of this session",
			Example: "/history 5\n/history --failed", Run: cmdHistory, Complete: completeFlags("--failed", "--clear")},
		{Name: "/context", Usage: "/context", Summary: "Show the execution context", Run: cmdContext},
		{Name: "/set", Usage: "/set [KEY VALUE]", Summary: "Change a setting, or show them all",
			Help:    "dry_run true|false; timeout a duration (30s, 2m) or seconds; working_dir an existing directory; max_output_size bytes (> 0); output text|json. Without arguments, shows the settings.",
			Example: "/set dry_run true\n/set timeout 30s", Run: cmdSet, Complete: completeSet},
		{Name: "/registry", Usage: "/registry", Summary: "Show the registry's state", Run: cmdRegistry},
		{Name: "/exit", Aliases: []string{"/quit"}, Usage: "/exit", Summary: "Leave the shell (also /quit, Ctrl-D)", Run: cmdExit},
	}
}

// newFlags returns a flag set for a command's options; pflag's own output
// is discarded because the shell reports errors its way.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags splits rest into words and parses them with fs.
func (s *Shell) parseFlags(cmd string, fs *pflag.FlagSet, rest string) ([]string, int, bool) {
	words, err := Fields(rest)
	if err == nil {
		err = fs.Parse(words)
	}
	if err != nil {
		return nil, s.usage(cmd, err.Error()), false
	}
	return fs.Args(), ExitOK, true
}

type helpEntry struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	Usage   string   `json:"usage"`
	Summary string   `json:"summary"`
	Help    string   `json:"help,omitempty"`
	Example string   `json:"example,omitempty"`
}

func cmdHelp(_ context.Context, s *Shell, rest string) int {
	words, err := Fields(rest)
	if err != nil {
		return s.usage("/help", err.Error())
	}
	if len(words) > 1 {
		return s.usage("/help", "too many arguments")
	}
	if len(words) == 1 {
		name := words[0]
		if !strings.HasPrefix(name, "/") {
			name = "/" + name
		}
		c, ok := s.lookup(name)
		if !ok {
			return s.unknownCommand(name)
		}
		e := helpEntry{Name: c.Name, Aliases: c.Aliases, Usage: c.Usage, Summary: c.Summary, Help: c.Help, Example: c.Example}
		if s.jsonMode() {
			writeJSONLine(s.out, map[string]any{"command": e})
			return ExitOK
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Usage: %s\n\n%s.\n", c.Usage, c.Summary)
		if c.Help != "" {
			fmt.Fprintf(&b, "\n%s\n", reflow(c.Help))
		}
		if c.Example != "" {
			b.WriteString("\nExamples:\n")
			for _, l := range strings.Split(c.Example, "\n") {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
		s.print(s.r.Panel("Help: "+c.Name, strings.TrimRight(b.String(), "\n")))
		return ExitOK
	}
	cmds := s.commands()
	if s.jsonMode() {
		es := make([]helpEntry, len(cmds))
		for i, c := range cmds {
			es[i] = helpEntry{Name: c.Name, Aliases: c.Aliases, Usage: c.Usage, Summary: c.Summary}
		}
		writeJSONLine(s.out, map[string]any{"commands": es})
		return ExitOK
	}
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "%s\n    %s\n", c.Usage, c.Summary)
	}
	b.WriteString("\nA tool's name first runs it too: Read file_path=go.mod\nTab completes. Ctrl-C cancels a running tool; Ctrl-D leaves.")
	s.print(s.r.Panel("Commands", b.String()))
	return ExitOK
}

func cmdExit(_ context.Context, s *Shell, rest string) int {
	if strings.TrimSpace(rest) != "" {
		return s.usage("/exit", "/exit takes no arguments")
	}
	s.quit = true
	if s.jsonMode() {
		writeJSONLine(s.out, map[string]any{"exit": true})
	}
	return ExitOK
}

// reflow joins the lines of each paragraph of text, so that the panel wraps
// it to its own width; paragraphs stay separated by a blank line.
func reflow(text string) string {
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

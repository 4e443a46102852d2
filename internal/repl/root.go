package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/tools"
	"github.com/forgehq/forge/internal/version"
)

// RootCommand builds forge's cobra command tree on a.
func (a *App) RootCommand() *cobra.Command {
	var line string
	root := &cobra.Command{
		Use:   "forge",
		Short: "A tool system for LLM agents, and a shell to drive it",
		Long: `forge registers tools, validates their arguments, runs them safely (timeouts,
cancellation, dry run, output caps) and exports their schemas for LLM providers.

Without a subcommand, forge opens its shell: on a terminal an interactive REPL
(Tab completion, history, Ctrl-C cancels a running tool, Ctrl-D leaves); with
standard input or output not a terminal, it reads one command per line and
exits 0 when every command succeeded, 1 otherwise. Type /help in the shell.`,
		Example: `  forge                                   # the interactive shell
  forge -c '/run Read file_path=go.mod limit=5'
  printf '/tools\n/run Bash command="echo hi"\n' | forge
  forge -o json < commands.txt | jq .`,
		Args:          cobra.NoArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if isCompletionRequest(cmd) || isCompletionScript(cmd) {
				return nil // completion functions set up leniently themselves
			}
			// forge version works even while the config file is broken.
			return a.setup(cmd.Context(), cmd, cmd.Name() == "version")
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := newShell(a)
			if cmd.Flags().Changed("command") {
				s.ask = a.stdinAsker()
				return exitWith(s.Exec(cmd.Context(), line))
			}
			if a.stdinTTY && a.stdoutTTY {
				return exitWith(s.runInteractive(cmd.Context()))
			}
			return exitWith(s.runScript(cmd.Context(), a.Stdin, a.cfg.FailFast, 0))
		},
	}
	root.Flags().StringVarP(&line, "command", "c", "", "run one shell line (e.g. '/tools') and exit with its status")
	config.AddFlags(root.PersistentFlags())
	a.flagCompletions(root)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	root.AddCommand(a.runCommand(), a.toolsCommand(), a.schemaCommand(), a.versionCommand())
	root.AddCommand(extSubcommands(a)...)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Example = `  source <(forge completion bash)
  forge completion zsh > "${fpath[1]}/_forge"
  forge completion fish > ~/.config/fish/completions/forge.fish`
			for _, sub := range c.Commands() {
				sub.Example = "  forge completion " + sub.Name() + " --help"
			}
		}
	}
	return root
}

// isCompletionRequest reports whether cmd is cobra's hidden __complete.
func isCompletionRequest(cmd *cobra.Command) bool {
	n := cmd.Name()
	return n == cobra.ShellCompRequestCmd || n == cobra.ShellCompNoDescRequestCmd
}

// isCompletionScript reports whether cmd is "forge completion SHELL",
// which needs no configuration.
func isCompletionScript(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if c.Name() == "completion" && c.Parent() != nil && !c.Parent().HasParent() {
			return true
		}
	}
	return false
}

// flagCompletions completes --output, --log-level and --format values.
func (a *App) flagCompletions(root *cobra.Command) {
	_ = root.RegisterFlagCompletionFunc("output", fixedCompletion("text", "json"))
	_ = root.RegisterFlagCompletionFunc("log-level", fixedCompletion("debug", "info", "warn", "error", "off"))
}

func fixedCompletion(vals ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// completionShell sets a up leniently for a completion function: a broken
// config file gives the defaults, and nothing is logged.
func (a *App) completionShell(cmd *cobra.Command) (*Shell, bool) {
	if err := a.setup(cmd.Context(), cmd, true); err != nil {
		return nil, false
	}
	s := newShell(a)
	s.out, s.errOut = io.Discard, io.Discard
	return s, true
}

// toolNameCompletion completes tool names.
func (a *App) toolNameCompletion(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	s, ok := a.completionShell(cmd)
	if !ok {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return filterPrefix(s.app.reg.ListNames(), toComplete), cobra.ShellCompDirectiveNoFileComp
}

func (a *App) runCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run TOOL [key=value ...] | run TOOL '{JSON}' | run TOOL -",
		Short: "Run one tool and exit with its status",
		Long: `Run one tool. Arguments are key=value words: a bare value is typed by the
parameter's declared type (offset=100 is an integer, file_path=123 the string
"123"); a value that is a JSON string literal ('offset="100"'), array or object
is JSON; key=@path reads the value from a file. One JSON object may replace the
words, and - reads that object from standard input.

Exit status:
  0    the tool succeeded, or it was a dry run
  1    the tool failed
  2    usage error, validation error or unknown tool
  124  the tool timed out
  130  cancelled (Ctrl-C)

Parameters whose names begin with a dash (Grep's -i, -n, -A, -B, -C) go
after "--", so that they are not taken for forge's own flags.`,
		Example: `  forge run Read file_path=go.mod limit=5
  forge run Bash command="ls -la" timeout=5000
  forge run Read '{"file_path": "go.mod"}'
  echo '{"file_path": "go.mod"}' | forge run Read -
  forge run Write file_path=out.txt content=@draft.txt --dry-run
  forge run Read file_path=go.mod -o json | jq -r .output
  forge run Grep pattern=todo output_mode=content -- -i=true -n=true`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s := newShell(a)
			name, words := args[0], args[1:]
			var params []tools.Parameter
			if t, ok := a.lookupTool(cmd.Context(), name); ok {
				params = t.Parameters()
			}
			var (
				targs tools.Args
				err   error
			)
			if len(words) == 1 && words[0] == "-" {
				raw, rerr := io.ReadAll(io.LimitReader(a.Stdin, maxLineSize+1))
				if rerr != nil {
					return usageErr(fmt.Errorf("read arguments from standard input: %w", rerr))
				}
				text := strings.TrimSpace(string(raw))
				targs, err = ParseArgLine(text, params, s.readArgFile)
				if err == nil && !strings.HasPrefix(text, "{") && len(raw) > 0 {
					err = errors.New("standard input must hold one JSON object")
				}
			} else {
				targs, err = ParseArgWords(words, params, s.readArgFile)
				s.ask = a.stdinAsker()
			}
			if err != nil {
				return exitWith(s.fail(ExitUsage, "usage", err.Error()))
			}
			return exitWith(s.runArgs(cmd.Context(), name, targs))
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			s, ok := a.completionShell(cmd)
			if !ok {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var cands []string
			if len(args) == 0 {
				cands = s.app.reg.ListNames()
			} else {
				cands = completeArgs(s, args[0], args[1:], toComplete)
			}
			dir := cobra.ShellCompDirectiveNoFileComp
			for i, c := range cands {
				cands[i] = strings.TrimSuffix(c, " ")
				if strings.HasSuffix(c, "=") {
					dir |= cobra.ShellCompDirectiveNoSpace
				}
			}
			return filterPrefix(cands, toComplete), dir
		},
	}
	return cmd
}

func (a *App) toolsCommand() *cobra.Command {
	var cat string
	cmd := &cobra.Command{
		Use:   "tools [NAME]",
		Short: "List the tools, or show one tool's parameters",
		Example: `  forge tools
  forge tools --category file
  forge tools Read
  forge tools -o json | jq -r '.tools[].name'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return exitWith(newShell(a).showTools(cat, name))
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return a.toolNameCompletion(cmd, args, toComplete)
		},
	}
	cmd.Flags().StringVar(&cat, "category", "", "only the tools of this category: "+strings.Join(categoryNames(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("category", fixedCompletion(categoryNames()...))
	return cmd
}

func (a *App) schemaCommand() *cobra.Command {
	var format, cat string
	cmd := &cobra.Command{
		Use:   "schema [TOOL ...]",
		Short: "Print tool schemas for an LLM provider",
		Long: `Print the tools' definitions in a provider's format, ready to paste into a
request: one object for one tool, an array for several or all tools.`,
		Example: `  forge schema Read
  forge schema Read Write --format anthropic
  forge schema --category file --format gemini
  forge schema -o json | jq '.schemas | length'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exitWith(newShell(a).showSchemas(args, format, cat))
		},
		ValidArgsFunction: a.toolNameCompletion,
	}
	cmd.Flags().StringVarP(&format, "format", "f", string(tools.FormatOpenAI), "schema format: "+strings.Join(formatNames(), ", "))
	cmd.Flags().StringVar(&cat, "category", "", "only the tools of this category: "+strings.Join(categoryNames(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(formatNames()...))
	_ = cmd.RegisterFlagCompletionFunc("category", fixedCompletion(categoryNames()...))
	return cmd
}

func (a *App) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print forge's version",
		Example: "  forge version\n  forge version -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.cfg.Output == "json" {
				writeJSONLine(a.Stdout, map[string]any{"version": version.Version, "go": runtime.Version(),
					"os": runtime.GOOS, "arch": runtime.GOARCH})
				return nil
			}
			fmt.Fprintf(a.Stdout, "forge %s (%s %s/%s)\n", version.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

// stdinAsker answers a tool's question (ask_question) with the next line
// of standard input, which forge run and forge -c leave unused. On a
// terminal the question is shown on standard error first.
func (a *App) stdinAsker() func(context.Context, string) (string, error) {
	var lr *lineReader
	return func(_ context.Context, question string) (string, error) {
		if lr == nil {
			lr = newLineReader(a.Stdin, 0)
		}
		if a.stdinTTY {
			fmt.Fprintln(a.Stderr, question)
		}
		return lr.next()
	}
}

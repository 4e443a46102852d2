package app

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/config"
)

// rootCommand builds forge's cobra tree: the root opens the shell, and
// every command of the table that belongs on the command line becomes a
// subcommand.
func (a *App) rootCommand() *cobra.Command {
	var line string
	root := &cobra.Command{
		Use:   "forge",
		Short: "An agent shell: chat with a model that works in your project with tools, or drive the tools yourself",
		Long: `forge is an agent shell. Chat with a model that reads, searches, edits and runs
things in your project with tools, each call checked against your approval mode
and rules (and put to you when they say so); or list, run and debug those tools
directly, by hand or from a script.

Without a subcommand, forge opens its shell: on a terminal, a line is a prompt to
the agent and /commands drive the tools (/help lists them; Tab completes, Ctrl-C
cancels, Ctrl-D leaves); with standard input not a terminal, it runs one line
at a time and exits 0 when every line succeeded, 1 otherwise. forge ask gives the
agent one prompt, for scripts and CI.

A model: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or start Ollama, or point
--base-url at any OpenAI-compatible server (vLLM, llama.cpp, LM Studio).`,
		Example: `  forge                            # chat with the agent in this directory
  forge --approval auto-edit       # ... and let it edit files without asking
  forge --continue                 # resume this directory's last conversation
  forge -r                         # ... or pick one of them
  forge ask "why does go test ./... fail?"
  git diff | forge ask "review this change"
  forge --provider openai --base-url http://localhost:8000/v1 --model qwen3
  forge tools                      # the tools the agent has
  forge run Read file_path=go.mod  # run one yourself
  printf '/tools\n/run Bash command="echo hi"\n' | forge -o json`,
		Args:          a.noSubcommand,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if isCompletionRequest(cmd) || isCompletionScript(cmd) {
				return nil // completion functions set up leniently themselves
			}
			// forge version works even while the config file is broken.
			return a.setup(cmd.Context(), cmd, asksVersion(cmd))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksVersion(cmd) {
				return a.runE(commands.VersionCommand().Bind(cmd.Flags()))(cmd, args)
			}
			if cmd.Flags().Changed("command") {
				return exitWith(a.runLine(cmd.Context(), line))
			}
			return exitWith(a.runShell(cmd.Context()))
		},
	}
	root.Flags().StringVarP(&line, "command", "c", "", "run one shell line (e.g. '/tools') and exit with its status")
	root.Flags().BoolP("version", "v", false, "print forge's version and exit, as forge version does")
	config.AddFlags(root.PersistentFlags())
	addSessionFlags(root.PersistentFlags())
	_ = root.RegisterFlagCompletionFunc("output", fixedCompletion("text", "json"))
	_ = root.RegisterFlagCompletionFunc("log-level", fixedCompletion("debug", "info", "warn", "error", "off"))
	_ = root.RegisterFlagCompletionFunc("provider", fixedCompletion(config.Providers()...))
	_ = root.RegisterFlagCompletionFunc("approval", fixedCompletion(config.ApprovalModes()...))
	_ = root.RegisterFlagCompletionFunc("tool-format", fixedCompletion(config.ToolFormats()...))
	_ = root.RegisterFlagCompletionFunc("sandbox", fixedCompletion(config.SandboxModes()...))
	root.SetFlagErrorFunc(a.flagError)
	for _, c := range commands.Table() {
		if c.InCLI() {
			root.AddCommand(a.cobraCommand(c, ""))
		}
	}
	root.AddCommand(a.acpCommand())
	a.addCompletionCommand(root)
	a.wrapHelp(root)
	return root
}

// cobraCommand makes the cobra command of one table entry, or of a
// subcommand of parent.
func (a *App) cobraCommand(c commands.Command, parent string) *cobra.Command {
	cmd := &cobra.Command{
		Use:     strings.TrimPrefix(c.CLIUsage(), parent+" "),
		Short:   c.Summary,
		Long:    c.Summary + ".",
		Example: c.CLIExamples(),
	}
	if c.Help != "" {
		// Wrapped when the help is shown (see wrapHelp), not at every start.
		cmd.Annotations = map[string]string{helpAnnotation: c.Help}
	}
	if len(c.Subcommands) > 0 {
		a.addVerbs(cmd, c)
		return cmd
	}
	cmd.Args = positionalArgs(c.Args)
	cmd.RunE = a.runE(c.Bind(cmd.Flags()))
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return a.complete(cmd, c, args, toComplete)
	}
	for flag, vals := range c.FlagValues {
		if strings.HasPrefix(flag, "--") {
			_ = cmd.RegisterFlagCompletionFunc(strings.TrimPrefix(flag, "--"), fixedCompletion(vals...))
		}
	}
	return cmd
}

// addVerbs adds c's subcommands to cmd; cmd alone runs the first of them,
// as the shell does (forge mcp lists the servers).
func (a *App) addVerbs(cmd *cobra.Command, c commands.Command) {
	var first *commands.Command
	for i, sub := range c.Subcommands {
		if !sub.InCLI() {
			continue
		}
		cmd.AddCommand(a.cobraCommand(sub, c.Name))
		if first == nil {
			first = &c.Subcommands[i]
		}
	}
	if first != nil {
		cmd.Args = a.noSubcommand
		cmd.RunE = a.runE(first.Bind(cmd.Flags()))
	}
}

// runE runs a command of the table for cobra, Ctrl-C cancelling it and
// standard input answering a tool's questions.
func (a *App) runE(run commands.Run) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
		defer stop()
		a.env.Ask = a.stdinAsker()
		a.commandLine = true
		a.env.RefreshPrinter()
		return exitWith(run(ctx, a.env, commands.Invocation{Args: args}))
	}
}

// positionalArgs is cobra's check of a command's argument count.
func positionalArgs(r commands.ArgRange) cobra.PositionalArgs {
	switch {
	case !r.Checked():
		return cobra.ArbitraryArgs
	case r.Max == 0:
		return func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("%s takes no arguments (it was given %q)", cmd.CommandPath(), strings.Join(args, " "))
			}
			return nil
		}
	case r.Max < 0:
		return cobra.MinimumNArgs(r.Min)
	case r.Min == 0:
		return cobra.MaximumNArgs(r.Max)
	}
	return cobra.RangeArgs(r.Min, r.Max)
}

// complete answers cobra's Tab completion with the table's completer, on
// an environment set up leniently.
func (a *App) complete(cmd *cobra.Command, c commands.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if err := a.setup(cmd.Context(), cmd, true); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	cands := commands.FilterPrefix(commands.CompleteCommand(a.env, c, args, toComplete), toComplete)
	dir := cobra.ShellCompDirectiveNoFileComp
	for i, cand := range cands {
		cands[i] = strings.TrimSuffix(cand, " ")
		if strings.HasSuffix(cand, "=") {
			dir |= cobra.ShellCompDirectiveNoSpace
		}
	}
	return cands, dir
}

// addCompletionCommand adds cobra's completion command with examples.
func (a *App) addCompletionCommand(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Example = `  source <(forge completion bash)
  forge completion zsh > "${fpath[1]}/_forge"
  forge completion fish > ~/.config/fish/completions/forge.fish`
		for _, sub := range c.Commands() {
			sub.Example = "  forge completion " + sub.Name() + " --help"
		}
	}
}

// asksVersion says cmd only prints the version: forge version, or the
// root's --version (-v), which every other agent CLI has.
func asksVersion(cmd *cobra.Command) bool {
	if cmd.Name() == "version" {
		return true
	}
	v, err := cmd.Flags().GetBool("version")
	return err == nil && v && !cmd.HasParent()
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

func fixedCompletion(vals ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// runLine runs forge -c LINE: one shell line, Ctrl-C cancelling it.
func (a *App) runLine(ctx context.Context, line string) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	code, _ := commands.NewShell(a.env).Dispatch(ctx, line, a.stdinAsker())
	return code
}

package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// maxStdinArgs bounds what forge run TOOL - reads from standard input.
const maxStdinArgs = 64 << 20

func runCommand() Command {
	return Command{
		Name: "run", Usage: "/run NAME [key=value ...] | /run NAME {JSON}", Summary: "Run a tool",
		Help: `Arguments are key=value words. A bare value is typed by the parameter's declared type (offset=100 is an integer, file_path=123 the string "123"); a value in double quotes is a JSON string (offset="100" is the string "100"); single quotes keep text as it is; [..] and {..} are JSON arrays and objects; key=@path reads the value from a file. One JSON object may replace the words; on the command line, - reads that object from standard input. A line that starts with a tool's name runs that tool too.

Exit status:
  0    the tool succeeded, or it was a dry run
  1    the tool failed
  2    usage error, validation error or unknown tool
  124  the tool timed out
  130  cancelled (Ctrl-C)

On the command line, parameters whose names begin with a dash (Grep's -i, -n, -A, -B, -C) go after "--", so that they are not taken for forge's own flags.`,
		Example: "/run Read file_path=go.mod limit=5\n/run Bash command=\"ls -la\" timeout=5000\n/run Write file_path=notes.txt content=@draft.txt",
		CLIExample: `forge run Read '{"file_path": "go.mod"}'
echo '{"file_path": "go.mod"}' | forge run Read -
forge run Read file_path=go.mod -o json | jq -r .output
forge run Grep pattern=todo output_mode=content -- -i=true -n=true`,
		RawLine: true,
		Args:    AtLeast(1),
		Run:     runRun,
		Complete: func(env *Env, words []string, partial string) []string {
			if len(words) == 0 {
				return toolNames(env, words, partial)
			}
			return CompleteArgs(env, words[0], words[1:], partial)
		},
	}
}

func runRun(ctx context.Context, env *Env, inv Invocation) int {
	if inv.Shell {
		name, rest := cutWord(inv.Line)
		if name == "" {
			return env.Usage(runCommand(), inv, "missing tool name")
		}
		return runToolLine(ctx, env, name, rest)
	}
	if len(inv.Args) == 0 {
		return env.Usage(runCommand(), inv, "missing tool name")
	}
	name, words := inv.Args[0], inv.Args[1:]
	params := toolParams(ctx, env, name)
	var (
		args tools.Args
		err  error
	)
	if len(words) == 1 && words[0] == "-" {
		args, err = stdinArgs(env, params)
	} else {
		args, err = ParseArgWords(words, params, env.ReadArgFile)
	}
	if err != nil {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	return env.RunTool(ctx, name, args)
}

// runToolLine parses a shell argument line for tool name and runs it.
func runToolLine(ctx context.Context, env *Env, name, line string) int {
	args, err := ParseArgLine(line, toolParams(ctx, env, name), env.ReadArgFile)
	if err != nil {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	return env.RunTool(ctx, name, args)
}

// toolParams are the parameters of the named tool, nil when it is unknown
// (values are then typed by their look, and the call fails as unknown).
func toolParams(ctx context.Context, env *Env, name string) []tools.Parameter {
	if t, ok := env.LookupTool(ctx, name); ok {
		return t.Parameters()
	}
	return nil
}

// stdinArgs reads the call's arguments, one JSON object, from standard input.
func stdinArgs(env *Env, params []tools.Parameter) (tools.Args, error) {
	raw, err := io.ReadAll(io.LimitReader(env.IO.In, maxStdinArgs+1))
	if err != nil {
		return nil, fmt.Errorf("read arguments from standard input: %w", err)
	}
	text := strings.TrimSpace(string(raw))
	args, err := ParseArgLine(text, params, env.ReadArgFile)
	if err == nil && !strings.HasPrefix(text, "{") && len(raw) > 0 {
		err = errors.New("standard input must hold one JSON object")
	}
	return args, err
}

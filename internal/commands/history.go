package commands

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/tools"
)

func historyCommand() Command {
	return Command{
		Name: "history", Usage: "/history [N] [--failed] [--clear]", Summary: "Show the executions of this session",
		Help:    "The tool calls of this session, oldest first: the last N, only the failed ones, or --clear to forget them.",
		Example: "/history 5\n/history --failed",
		Flags: func(fs *pflag.FlagSet) Run {
			failed := fs.Bool("failed", false, "only the failed executions")
			clear := fs.Bool("clear", false, "forget the executions")
			return func(_ context.Context, env *Env, inv Invocation) int {
				return runHistory(env, inv, *failed, *clear)
			}
		},
	}
}

func runHistory(env *Env, inv Invocation, failed, clear bool) int {
	words := inv.Args
	if len(words) > 1 {
		return env.Usage(historyCommand(), inv, "too many arguments")
	}
	if clear {
		if len(words) > 0 || failed {
			return env.Usage(historyCommand(), inv, "--clear takes no other arguments")
		}
		env.Executor.ClearExecutions()
		env.Printer().HistoryCleared()
		return ExitOK
	}
	n := -1
	if len(words) == 1 {
		v, err := strconv.Atoi(words[0])
		if err != nil || v < 0 {
			return env.Usage(historyCommand(), inv, fmt.Sprintf("N must be a number of entries, got %q", words[0]))
		}
		n = v
	}
	xs := env.Executor.Executions()
	if failed {
		kept := xs[:0]
		for _, x := range xs {
			if !x.Result.Success {
				kept = append(kept, x)
			}
		}
		xs = kept
	}
	if n >= 0 && len(xs) > n {
		xs = xs[len(xs)-n:]
	}
	env.Printer().History(env.Executor.TotalExecutions(), xs)
	return ExitOK
}

// ParamOrder gives the declared parameter order of a tool, so that history
// shows each call's arguments in that order.
func ParamOrder(reg *tools.Registry) func(string) []string {
	return func(tool string) []string {
		t, ok := reg.Get(tool)
		if !ok {
			return nil
		}
		ps := t.Parameters()
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = p.Name
		}
		return names
	}
}

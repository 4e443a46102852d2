package commands

import (
	"context"
	"fmt"
	"strconv"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/render"
)

// keptCalls is how many of the agent's finished calls /last can show:
// enough to look back over a prompt's work, few enough that their outputs
// (each within the output cap) weigh little.
const keptCalls = 20

// recentCalls are the agent's last finished calls, newest last.
type recentCalls struct{ list []finishedCall }

type finishedCall struct {
	call   agent.Call
	result agent.CallResult
}

// note keeps the result of a call of the person's agent (a subagent's
// calls are its own business; its report is the Task call's output).
func (rc *recentCalls) note(e agent.Event) {
	if e.Type != agent.EventToolResult || e.ParentID != "" || e.Call == nil || e.Result == nil {
		return
	}
	if len(rc.list) == keptCalls {
		copy(rc.list, rc.list[1:])
		rc.list = rc.list[:keptCalls-1]
	}
	rc.list = append(rc.list, finishedCall{call: *e.Call, result: *e.Result})
}

func lastCommand() Command {
	return Command{
		Name: "last", Usage: "/last [N]", Summary: "Show the whole output of the agent's last tool call",
		Help:    `Under each call the agent makes, the shell shows the first lines of its output ("… +40 lines"), how many lines of a file it read, or the diff of an edit it made without asking (only its +/- counts when the question showed the diff). /last shows the last call's whole output (what the tool returned), or the whole diff of an edit, asked or not; /last N shows the Nth call back (/last 1 is the last), of the last ` + strconv.Itoa(keptCalls) + ` this session kept.`,
		Example: "/last\n/last 2",
		Where:   ShellOnly,
		Args:    AtMost(1),
		Run:     runLast,
	}
}

func runLast(_ context.Context, env *Env, inv Invocation) int {
	if len(inv.Args) > 1 {
		return env.Usage(lastCommand(), inv, "/last takes at most one argument")
	}
	n := 1
	if len(inv.Args) == 1 {
		v, err := strconv.Atoi(inv.Args[0])
		if err != nil || v < 1 {
			return env.Usage(lastCommand(), inv, fmt.Sprintf("%q is not a count of calls back (1 is the last)", inv.Args[0]))
		}
		n = v
	}
	list := env.calls.list
	switch {
	case len(list) == 0:
		env.Printer().Value("No tool calls yet: the agent's calls show here once it makes some.", map[string]any{"calls": 0})
		return ExitOK
	case n > len(list) && len(list) == keptCalls:
		return env.Usage(lastCommand(), inv, fmt.Sprintf("only the last %d calls are kept: /last 1 to /last %d", keptCalls, keptCalls))
	case n > len(list):
		return env.Usage(lastCommand(), inv, fmt.Sprintf("the agent has made %s so far: /last 1 to /last %d", plural(len(list), "call"), len(list)))
	}
	fc := list[len(list)-n]
	headline := render.CallHeadline(&fc.call, env.Registry.Get)
	v := map[string]any{"id": fc.call.ID, "name": fc.call.Name, "status": fc.result.Status, "output": fc.result.Output}
	if fc.result.Error != "" {
		v["error"] = fc.result.Error
	}
	res := fc.result
	if res.Change != nil {
		v["diff"] = render.ChangePreview(*res.Change)
		// On the terminal the diff names the file as the call's line
		// does: relative to the working directory.
		c := *res.Change
		c.Path = render.RelPaths(env.workingDir(), []string{c.Path})[0]
		res.Change = &c
	}
	env.Printer().Verbatim(render.LastCall(headline, &res), v)
	return ExitOK
}

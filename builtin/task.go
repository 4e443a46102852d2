package builtin

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// The loop-breaking tools: the model calls one to end its turn (the task
// done, a question for the user, a reply), and the agent loop stops after it.

var taskCompletionDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "task_completion",
	Description: "Signal that the task is complete. Call it once the user's request is done, with a summary of what was done " +
		"and the outcome; the agent loop stops after it.",
	Category:     tools.CategoryTask,
	LoopBreaking: true,
	Parameters: []tools.Parameter{
		{Name: "summary", Type: tools.TypeString, Description: "What was done and the outcome, for the user", Required: true, MinLength: tools.Int(1)},
	},
}

var askQuestionDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "ask_question",
	Description: "Ask the user a question and wait for the answer. Use it when the request is ambiguous or a decision " +
		"belongs to the user; optional options are shown numbered, and an answer given as a number picks that option. " +
		"The agent loop stops until the user answers.",
	Category:     tools.CategoryTask,
	LoopBreaking: true,
	Parameters: []tools.Parameter{
		{Name: "question", Type: tools.TypeString, Description: "The question to ask", Required: true, MinLength: tools.Int(1)},
		{Name: "options", Type: tools.TypeArray, Description: "Optional answers to choose from",
			Items: &tools.Parameter{Type: tools.TypeString, Description: "One possible answer"}},
	},
}

var converseDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "converse",
	Description: "Reply to the user in natural conversation. Use it for a turn that needs no other tool " +
		"(a greeting, an explanation, an answer); the agent loop stops after it.",
	Category:     tools.CategoryTask,
	LoopBreaking: true,
	Parameters: []tools.Parameter{
		{Name: "message", Type: tools.TypeString, Description: "The message to the user", Required: true, MinLength: tools.Int(1)},
	},
}

// loopBreaker is embedded by the three task tools.
type loopBreaker struct{}

// IsLoopBreaking is true: the agent loop stops after this tool.
func (loopBreaker) IsLoopBreaking() bool { return true }

// taskCompletionTool returns the summary: the task's final answer.
type taskCompletionTool struct {
	described
	loopBreaker
}

func newTaskCompletion(context.Context, tools.Deps) (tools.Tool, error) {
	return taskCompletionTool{described: described{taskCompletionDescriptor}}, nil
}

// DryRun says what would be reported.
func (taskCompletionTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	return "Would complete the task with: " + oneLine(args.String("summary"), 200)
}

// Execute returns the summary.
func (taskCompletionTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled: " + err.Error())
	}
	return tools.OK(args.String("summary"), "loop_breaking", true)
}

// converseTool returns the message: the turn's reply.
type converseTool struct {
	described
	loopBreaker
}

func newConverse(context.Context, tools.Deps) (tools.Tool, error) {
	return converseTool{described: described{converseDescriptor}}, nil
}

// DryRun says what would be said.
func (converseTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	return "Would say: " + oneLine(args.String("message"), 200)
}

// Execute returns the message.
func (converseTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled: " + err.Error())
	}
	return tools.OK(args.String("message"), "loop_breaking", true)
}

// askQuestionTool puts the question to the person through the context's
// Asker.
type askQuestionTool struct {
	described
	loopBreaker
}

func newAskQuestion(context.Context, tools.Deps) (tools.Tool, error) {
	return askQuestionTool{described: described{askQuestionDescriptor}}, nil
}

// askTimeout is how long a person may take to answer: a human answer must
// not be cut by the 120 s default meant for commands.
const askTimeout = 24 * time.Hour

// CallTimeout gives the person time to answer.
func (askQuestionTool) CallTimeout(tools.ExecutionContext, tools.Args) time.Duration {
	return askTimeout
}

// DryRun says what would be asked.
func (askQuestionTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	return "Would ask: " + questionText(args.String("question"), args.Strings("options"))
}

// Execute asks and returns the answer; a numeric answer to a question with
// options returns that option.
func (askQuestionTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	if ec.Asker == nil {
		return tools.Fail("ask_question needs a person to answer, but none is attached to this session " +
			"(forge is serving tools or running a script). Decide with the information you have, or ask in your final answer.")
	}
	opts := args.Strings("options")
	answer, err := ec.Asker.Ask(ctx, questionText(args.String("question"), opts))
	if err != nil {
		if ctx.Err() != nil {
			return tools.Fail("The question was not answered: " + ctx.Err().Error())
		}
		return tools.Fail(fmt.Sprintf("The question could not be asked: %v", err))
	}
	answer = strings.TrimSpace(answer)
	if n, err := strconv.Atoi(answer); err == nil && n >= 1 && n <= len(opts) {
		return tools.OK(opts[n-1], "loop_breaking", true, "option", n)
	}
	return tools.OK(answer, "loop_breaking", true)
}

// questionText is the question followed by its numbered options.
func questionText(q string, opts []string) string {
	if len(opts) == 0 {
		return q
	}
	var b strings.Builder
	b.WriteString(q)
	for i, o := range opts {
		fmt.Fprintf(&b, "\n  %d. %s", i+1, o)
	}
	return b.String()
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// TodoToolName is the tool with which the model keeps its task list, as
// models trained on other agents know it.
const TodoToolName = "TodoWrite"

// TodoRecord is the kind of the session record that keeps the task list
// each time it changes, so that a resumed conversation has it again.
const TodoRecord = "todos"

// TodoStatus is where an item of the task list stands.
type TodoStatus string

// The statuses of a task list's items.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
)

// Todo is one item of the model's task list.
type Todo struct {
	// Content is the step, in the imperative ("Run the tests").
	Content string     `json:"content"`
	Status  TodoStatus `json:"status"`
	// ActiveForm is the step while it is under way ("Running the
	// tests"); "" when the model gave none.
	ActiveForm string `json:"activeForm,omitempty"`
}

// Todos is a task list.
type Todos []Todo

// Unfinished are the items not completed.
func (ts Todos) Unfinished() Todos {
	var out Todos
	for _, t := range ts {
		if t.Status != TodoCompleted {
			out = append(out, t)
		}
	}
	return out
}

// Done counts the completed items.
func (ts Todos) Done() int { return len(ts) - len(ts.Unfinished()) }

// DecodeTodos reads a task list as TodoRecord keeps it; nil data is none.
func DecodeTodos(data json.RawMessage) (Todos, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var ts Todos
	if err := json.Unmarshal(data, &ts); err != nil {
		return nil, fmt.Errorf("task list: %w", err)
	}
	return ts, nil
}

var todoDescriptor = tools.Descriptor{
	Name: TodoToolName,
	Description: "Keep a task list for the current work and show the person where you are. Use it for a task of three " +
		"steps or more, or when the person gives several tasks: write the steps first, mark one in_progress when you " +
		"start it and completed as soon as it is done (one in progress at a time), add steps you discover, remove " +
		"those that no longer apply. Each call replaces the whole list. Skip it for a single simple step.",
	Category: tools.CategoryTask,
	ReadOnly: true,
	Parameters: []tools.Parameter{{Name: "todos", Type: tools.TypeArray, Required: true, Description: "The whole updated list",
		Items: &tools.Parameter{Type: tools.TypeObject, Properties: []tools.Parameter{
			{Name: "content", Type: tools.TypeString, Required: true, MinLength: tools.Int(1), Description: "The step, imperative: \"Run the tests\""},
			{Name: "status", Type: tools.TypeString, Required: true, Enum: []any{string(TodoPending), string(TodoInProgress), string(TodoCompleted)}},
			{Name: "activeForm", Type: tools.TypeString, Description: "The step while under way: \"Running the tests\""},
		}}}},
}

// todoTool is TodoWrite as the agent's own registry holds it: its Execute
// checks and words the list; the run keeps it (keepTodos).
type todoTool struct{}

func (todoTool) Name() string                  { return todoDescriptor.Name }
func (todoTool) Description() string           { return todoDescriptor.Description }
func (todoTool) Category() tools.Category      { return todoDescriptor.Category }
func (todoTool) Parameters() []tools.Parameter { return todoDescriptor.Parameters }
func (todoTool) IsReadOnly() bool              { return true }

func (todoTool) Execute(_ context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	ts, err := todosOf(args)
	if err != nil {
		return tools.Fail(err.Error())
	}
	if n := ts.inProgress(); n > 1 {
		return tools.Fail(fmt.Sprintf("%d items are in_progress: keep one at a time in progress, the others pending", n))
	}
	msg := fmt.Sprintf("The task list is updated: %d of %d done.", ts.Done(), len(ts))
	if len(ts.Unfinished()) > 0 {
		msg += " Go on with the next step, and mark each one completed as soon as it is done."
	}
	return tools.OK(msg)
}

// todosOf reads a TodoWrite call's validated arguments.
func todosOf(args tools.Args) (Todos, error) {
	b, err := json.Marshal(args["todos"])
	if err != nil {
		return nil, fmt.Errorf("todos: %w", err)
	}
	var ts Todos
	if err := json.Unmarshal(b, &ts); err != nil {
		return nil, fmt.Errorf("todos: %w", err)
	}
	for i := range ts {
		ts[i].Content = strings.TrimSpace(ts[i].Content)
		ts[i].ActiveForm = strings.TrimSpace(ts[i].ActiveForm)
	}
	return ts, nil
}

func (ts Todos) inProgress() int {
	n := 0
	for _, t := range ts {
		if t.Status == TodoInProgress {
			n++
		}
	}
	return n
}

// keepTodos makes a TodoWrite call that succeeded the conversation's task
// list, records it, and shows it.
func (r *run) keepTodos(p *pending) {
	ts, err := todosOf(p.call.Args)
	if err != nil {
		return // Execute refused these arguments already
	}
	r.conv.setTodos(ts)
	r.todosChanged = true
	r.emit(Event{Type: EventTodo, Todos: ts})
}

// setTodos makes ts the task list, recording it.
func (c *Conversation) setTodos(ts Todos) {
	c.Todos = ts
	if c.Log != nil {
		c.noteLogErr(c.Log.Record(TodoRecord, ts))
	}
}

// remindTodos reminds the model, once a run, of the items it left
// unfinished in the task list it kept during the run, when it stops
// without a call: it may have forgotten them, or the list may be stale.
// It reports whether the run goes on for it. A list of an earlier prompt
// is not reminded of: the person may have moved on.
func (r *run) remindTodos() bool {
	left := r.conv.Todos.Unfinished()
	if r.todosReminded || !r.todosChanged || len(left) == 0 || r.a.planMode() {
		return false
	}
	r.todosReminded = true
	var b strings.Builder
	b.WriteString(reminderOpen + "\nYour task list still has unfinished items:\n")
	for _, t := range left {
		fmt.Fprintf(&b, "- [%s] %s\n", t.Status, t.Content)
	}
	b.WriteString("If the work is not done, go on with them. If they are done or no longer needed, update the list with " +
		TodoToolName + ". Then give your answer.\n" + reminderClose)
	r.conv.append(llm.Message{Role: llm.RoleUser, Text: b.String()})
	r.notice(fmt.Sprintf("the model stopped with %d unfinished %s in its task list; it was reminded of them", len(left), pluralWord(len(left), "item")))
	return true
}

// A reminder forge gives the model comes as a user message in these
// tags, as models trained on other agents know them: it is not the
// person's, and a resumed conversation does not show it as a prompt.
const (
	reminderOpen  = "<system-reminder>"
	reminderClose = "</system-reminder>"
)

// IsReminder says m is a reminder forge gave the model, not a prompt.
func IsReminder(m llm.Message) bool {
	return m.Role == llm.RoleUser && strings.HasPrefix(m.Text, reminderOpen) && strings.HasSuffix(m.Text, reminderClose)
}

func pluralWord(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

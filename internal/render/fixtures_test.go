package render

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// The values behind the panels drawn in testdata/wireframe.

func readDescriptor() tools.Descriptor {
	return tools.Descriptor{
		Name:        "Read",
		Category:    tools.CategoryFile,
		Description: "Read contents of a file from the filesystem. Supports reading partial files with offset and limit parameters.",
		Parameters: []tools.Parameter{
			{Name: "file_path", Type: tools.TypeString, Description: "Absolute path to the file to read", Required: true},
			{Name: "offset", Type: tools.TypeInteger, Description: "Line number to start reading from", Default: 0, Minimum: tools.Float(0)},
			{Name: "limit", Type: tools.TypeInteger, Description: "Maximum number of lines to read", Default: 2000, Minimum: tools.Float(1), Maximum: tools.Float(10000)},
		},
	}
}

func schemaGeneratorDescriptor() tools.Descriptor {
	return tools.Descriptor{
		Name:        "SchemaGenerator",
		Category:    tools.CategoryOther,
		Description: "Generate tool schemas.",
		Parameters: []tools.Parameter{
			{Name: "format", Type: tools.TypeString, Description: "Output format", Required: true, Enum: []any{"openai", "anthropic", "langchain"}},
		},
	}
}

// wireframeTools are the twelve tools of the wireframe's tool list, in its
// order.
func wireframeTools() []tools.Descriptor {
	d := func(name string, c tools.Category, desc string) tools.Descriptor {
		return tools.Descriptor{Name: name, Category: c, Description: desc}
	}
	return []tools.Descriptor{
		d("Read", tools.CategoryFile, "Read contents of a file"),
		d("Write", tools.CategoryFile, "Write content to a file."),
		d("Edit", tools.CategoryFile, "Edit a file with find/replace. Exact matches only."),
		d("Glob", tools.CategoryFile, "Find files matching a pattern\nSorted by modification time."),
		d("Grep", tools.CategoryFile, "Search file contents"),
		d("Bash", tools.CategoryExecution, "Execute a bash command"),
		d("BashOutput", tools.CategoryExecution, "Get output from background shell"),
		d("KillShell", tools.CategoryExecution, "Kill a background shell"),
		d("WebSearch", tools.CategoryWeb, "Search the web"),
		d("WebFetch", tools.CategoryWeb, "Fetch a URL"),
		d("Task", tools.CategoryTask, "Launch a subagent"),
		d("NotebookEdit", tools.CategoryNotebook, "Edit Jupyter notebook cells"),
	}
}

func wireframeStats() tools.Stats {
	names := []string{"Bash", "BashOutput", "Edit", "Glob", "Grep", "KillShell", "NotebookEdit", "Read", "Task", "WebFetch", "WebSearch", "Write"}
	return tools.Stats{
		ID:    "0x7f8b4c0d1e90",
		Total: 12,
		ByCategory: map[tools.Category]int{
			tools.CategoryFile: 5, tools.CategoryExecution: 3, tools.CategoryWeb: 2, tools.CategoryTask: 1,
			tools.CategoryNotebook: 1, tools.CategoryMCP: 0, tools.CategoryOther: 0,
		},
		Names: names,
	}
}

func wireframeHistory() []tools.Execution {
	at := func(sec int) time.Time {
		return time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC).Add(time.Duration(sec) * time.Second)
	}
	ok := func() tools.Result { return tools.OK("done") }
	failed := func(msg string) tools.Result { return tools.Fail(msg) }
	timedOut := tools.Fail("Tool timed out after 5s")
	timedOut.Status = tools.StatusTimedOut
	return []tools.Execution{
		{Seq: 1, ToolName: "Read", Parameters: tools.Args{"file_path": "/home/user/test.py"}, StartedAt: at(0), DurationMS: 12, Result: ok()},
		{Seq: 2, ToolName: "Bash", Parameters: tools.Args{"command": "python test.py"}, StartedAt: at(2), DurationMS: 1543.2, Result: ok()},
		{Seq: 3, ToolName: "Write", Parameters: tools.Args{"file_path": "/home/user/output.txt", "content": "Hello, World!"}, StartedAt: at(5), DurationMS: 5, Result: failed("Permission denied")},
		{Seq: 4, ToolName: "Read", Parameters: tools.Args{"file_path": "/home/user/missing.txt"}, StartedAt: at(7), DurationMS: 3, Result: failed("File not found")},
		{Seq: 5, ToolName: "Bash", Parameters: tools.Args{"command": "sleep 300", "timeout": json.Number("5000")}, StartedAt: at(15), DurationMS: 5000, Result: timedOut},
	}
}

// declaredOrder is the parameter order of the wireframe's tools, for
// Options.ParamOrder.
func declaredOrder(tool string) []string {
	switch tool {
	case "Write":
		return []string{"file_path", "content"}
	case "Bash":
		return []string{"command", "timeout", "description"}
	case "Read":
		return []string{"file_path", "offset", "limit"}
	}
	return nil
}

func wireframeContext() tools.ExecutionContext {
	ec := tools.NewExecutionContext("/home/user/my-project")
	ec.SessionID = "sess_abc123def456"
	ec.AgentID = "agent_main_001"
	ec.Metadata = map[string]any{"user_id": "user_12345", "request_id": "req_xyz789"}
	return ec
}

// validation is the result the executor gives a call of d with the JSON
// arguments args: the panels are drawn from what the core really reports.
func validation(d tools.Descriptor, args string) tools.Result {
	reg := tools.NewRegistry()
	if err := reg.Register(describedTool{d}); err != nil {
		panic(err)
	}
	res := tools.NewExecutor(reg).ExecuteJSON(context.Background(), d.Name, tools.ExecutionContext{}, []byte(args))
	if res.ErrorKind != tools.KindValidation {
		panic(fmt.Sprintf("%s %s: not a validation failure: %+v", d.Name, args, res))
	}
	return res
}

// describedTool is a tool with a given descriptor that succeeds.
type describedTool struct{ d tools.Descriptor }

func (x describedTool) Name() string                  { return x.d.Name }
func (x describedTool) Description() string           { return x.d.Description }
func (x describedTool) Category() tools.Category      { return x.d.Category }
func (x describedTool) Parameters() []tools.Parameter { return x.d.Parameters }
func (x describedTool) Execute(context.Context, tools.ExecutionContext, tools.Args) tools.Result {
	return tools.OK("")
}

func timedOutResult() tools.Result {
	r := tools.Fail("Tool timed out after 120s")
	r.Status, r.ErrorKind, r.DurationMS = tools.StatusTimedOut, tools.KindTimeout, 120000
	return r
}

func withDuration(r tools.Result, ms float64) tools.Result {
	r.DurationMS = ms
	return r
}

// panelCase is one panel drawn by a Renderer.
type panelCase struct {
	name      string // golden file name
	wireframe bool   // testdata/wireframe/<name>.txt draws the same content
	draw      func(r *Renderer) string
}

// panelCases are every panel: the wireframe's examples and the variants
// around them.
func panelCases() []panelCase {
	dry := tools.OK("[Dry Run] Would write 150 bytes to /path/to/file.txt")
	dry.Status, dry.DurationMS = tools.StatusDryRun, 1
	cancelled := tools.Fail("Tool execution cancelled")
	cancelled.Status, cancelled.ErrorKind, cancelled.DurationMS = tools.StatusCancelled, tools.KindCancelled, 2310.6
	bashFail := tools.Fail("Operation not permitted", "exit_code", 1)
	editDesc := tools.Descriptor{
		Name: "MultiEdit", Category: tools.CategoryFile, Description: "Apply several edits to one file.\nEach edit replaces exact text.",
		Parameters: []tools.Parameter{
			{Name: "file_path", Type: tools.TypeString, Description: "Absolute path", Required: true, MinLength: tools.Int(1)},
			{Name: "edits", Type: tools.TypeArray, Description: "The edits, applied in order", Required: true, Items: &tools.Parameter{
				Type: tools.TypeObject, Properties: []tools.Parameter{
					{Name: "old_string", Type: tools.TypeString, Description: "Text to find", Required: true},
					{Name: "new_string", Type: tools.TypeString, Description: "Replacement", Required: true},
					{Name: "replace_all", Type: tools.TypeBoolean, Description: "Replace every occurrence", Default: false},
				},
			}},
			{Name: "mode", Type: tools.TypeString, Description: "How to write", Enum: []any{"overwrite", "append"}, Default: "overwrite"},
		},
	}
	return []panelCase{
		{"result_success", true, func(r *Renderer) string {
			res := withDuration(tools.OK("Line 1: Hello, World!\nLine 2: This is a test file.\nLine 3: It has multiple lines."), 12)
			return r.Result("Read", res, tools.Presentation{})
		}},
		{"result_failed", true, func(r *Renderer) string {
			return r.Result("Read", withDuration(tools.Fail("File not found: /path/to/missing/file.txt"), 3), tools.Presentation{})
		}},
		{"result_dryrun", true, func(r *Renderer) string {
			return r.Result("Write", dry, tools.Presentation{})
		}},
		{"result_timeout", true, func(r *Renderer) string {
			return r.Result("Bash", timedOutResult(), commandDetail("sleep 300"))
		}},
		{"result_cancelled", false, func(r *Renderer) string {
			return r.Result("Bash", cancelled, commandDetail("make test"))
		}},
		{"result_json_output", false, func(r *Renderer) string {
			out := map[string]any{"files": []any{"a.go", "b.go"}, "count": 2, "truncated": false}
			return r.Result("Glob", withDuration(tools.OK(out), 0.4), tools.Presentation{})
		}},
		{"result_empty_output", false, func(r *Renderer) string {
			return r.Result("Write", withDuration(tools.OK(""), 0.02), tools.Presentation{})
		}},
		{"result_long_and_unsafe", false, func(r *Renderer) string {
			out := "\x1b[31mred\x1b[0m\tcol\x07bell\r\n" +
				"a very long line that goes on and on and on, well past the right border of the panel, and must wrap at word boundaries\n" +
				"/a/path/without/any/spaces/that/is/much/longer/than/the/panel/is/wide/so/it/breaks/hard/somewhere.txt\n" +
				"wide: 日本語のテキストと絵文字 😀👍 mixed with ascii"
			return r.Result("Bash", withDuration(tools.OK(out), 48.5), commandDetail("cat notes.txt"))
		}},
		{"result_failed_with_output", false, func(r *Renderer) string {
			res := withDuration(tools.Fail("Command exited with status 2", "exit_code", 2), 31)
			res.Output = "grep: foo: No such file or directory"
			return r.Result("Bash", res, commandDetail("grep x foo"))
		}},
		{"tool_list", true, func(r *Renderer) string { return r.ToolList(wireframeTools()) }},
		{"tool_list_long_name", false, func(r *Renderer) string {
			long := tools.Descriptor{Name: "mcp__github__create_pull_request_review_comment", Category: "custom",
				Description: "Create a review comment on a pull request, anchored to a line of its diff. Needs a token."}
			return r.ToolList(append(wireframeTools()[:2], long))
		}},
		{"tool_list_empty", false, func(r *Renderer) string { return r.ToolList(nil) }},
		{"tool_details", true, func(r *Renderer) string { return r.ToolDetails(readDescriptor()) }},
		{"tool_details_nested", false, func(r *Renderer) string { return r.ToolDetails(editDesc) }},
		{"tool_details_no_params", false, func(r *Renderer) string {
			return r.ToolDetails(tools.Descriptor{Name: "task_completion", Category: tools.CategoryTask, LoopBreaking: true})
		}},
		{"validation_missing", true, func(r *Renderer) string {
			return r.ValidationError(readDescriptor(), validation(readDescriptor(), `{}`))
		}},
		{"validation_type", true, func(r *Renderer) string {
			return r.ValidationError(readDescriptor(), validation(readDescriptor(), `{"file_path": "/a", "offset": "100"}`))
		}},
		{"validation_enum", true, func(r *Renderer) string {
			return r.ValidationError(schemaGeneratorDescriptor(),
				validation(schemaGeneratorDescriptor(), `{"format": "unknown"}`))
		}},
		{"validation_range", true, func(r *Renderer) string {
			return r.ValidationError(readDescriptor(), validation(readDescriptor(), `{"file_path": "/a", "limit": 50000}`))
		}},
		{"validation_length", false, func(r *Renderer) string {
			return r.ValidationError(editDesc, validation(editDesc, `{"file_path": "", "edits": []}`))
		}},
		{"validation_nested_missing", false, func(r *Renderer) string {
			return r.ValidationError(editDesc, validation(editDesc, `{"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b"}, {"new_string": "c"}]}`))
		}},
		{"validation_unknown_parameter", false, func(r *Renderer) string {
			return r.ValidationError(readDescriptor(),
				validation(readDescriptor(), `{"path": "/etc/hosts"}`))
		}},
		{"registry", true, func(r *Renderer) string { return r.Registry(wireframeStats()) }},
		{"history", true, func(r *Renderer) string { return r.History(5, wireframeHistory()) }},
		{"history_long_params", false, func(r *Renderer) string {
			return r.History(2, []tools.Execution{
				{Seq: 41, ToolName: "Write", Parameters: tools.Args{"file_path": "/srv/" + strings.Repeat("deep/", 20) + "file.txt"}, DurationMS: 0.3,
					Result: tools.OK("ok")},
				{Seq: 142, ToolName: "Edit", Parameters: tools.Args{"old_string": "a\nb", "new_string": "\x1b[2J", "replace_all": true},
					DurationMS: 7, Result: tools.Fail("String not found in file.\nCheck whitespace.")},
			})
		}},
		{"history_empty", false, func(r *Renderer) string { return r.History(0, nil) }},
		{"history_dropped", false, func(r *Renderer) string { return r.History(1500, wireframeHistory()[3:]) }},
		{"context", true, func(r *Renderer) string { return r.Context(wireframeContext()) }},
		{"context_empty", false, func(r *Renderer) string { return r.Context(tools.ExecutionContext{}) }},
		{"tool_not_found", true, func(r *Renderer) string { return r.ToolNotFound("UnknownTool", []string{"Task", "Bash"}) }},
		{"tool_not_found_none", false, func(r *Renderer) string { return r.ToolNotFound("Zzz", nil) }},
		{"registration_failed", true, func(r *Renderer) string {
			return r.RegistrationFailed("Read", &tools.ToolError{ToolName: "Read", Message: "Tool already registered", Err: tools.ErrAlreadyRegistered})
		}},
		{"registration_failed_invalid", false, func(r *Renderer) string {
			return r.RegistrationFailed("bad name", &tools.ToolError{ToolName: "bad name",
				Message: "invalid name: must match ^[a-zA-Z0-9_-]{1,64}$", Err: tools.ErrInvalidTool})
		}},
		{"execution_failed", true, func(r *Renderer) string {
			pres := commandDetail("rm -rf /")
			pres.Failure = &tools.Failure{Error: "Operation not permitted", Summary: "The command failed with exit code 1.",
				Hint: "Check permissions and try again."}
			return r.ExecutionFailed("Bash", bashFail, pres)
		}},
		{"panel", false, func(r *Renderer) string {
			return r.Panel("Unknown command", "Unknown command: /hepl\nDid you mean /help? Use /help to list the commands.")
		}},
	}
}

func okResult(out any) tools.Result { return tools.OK(out) }

// commandDetail is how Bash presents a call of cmd.
func commandDetail(cmd string) tools.Presentation {
	return tools.Presentation{Details: []tools.Detail{{Label: "Command", Value: cmd}}}
}

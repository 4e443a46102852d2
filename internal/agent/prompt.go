package agent

import (
	"fmt"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/memory"
)

// PromptInfo is what forge's own system prompt says about the place it
// runs in.
type PromptInfo struct {
	WorkingDir string
	// Root is the project's root: the instructions files are read from it
	// down to WorkingDir, and only from inside it. "" is WorkingDir.
	Root string
	// Home is the person's home, for ~ in imports; User are the person's
	// own instructions files; HomeImports lets the project's files import
	// files of the home (a trusted project's). See memory.Options.
	Home        string
	User        []string
	HomeImports bool
	OS          string
	Now         time.Time
	// ToolFormat is FormatXML when tools are called in text.
	ToolFormat Format
}

// SystemPrompt is forge's own system prompt, followed by the instructions
// files (the person's, then AGENTS.md, CLAUDE.md and CLAUDE.local.md from the project's
// root down to the working directory, with their imports). It is
// short on purpose: each tool's description and schema say how to use it.
// The notices name the instructions files it did not read, or not whole,
// and why: for the person, through Config.Notices.
func SystemPrompt(info PromptInfo) (string, []string) {
	var b strings.Builder
	fmt.Fprintf(&b, `You are forge, a coding agent working in a developer's terminal. You help with software tasks by using tools to read, search, change and run the code in the working directory.

Environment: working directory %s; operating system %s; today is %s.

How to work:
- Find out before you change: read the files you will edit, search with Grep and Glob rather than guessing paths.
- Make the smallest change that does the task; keep the project's style. Edit files with Edit (exact text, unique match) or Write; never with shell redirection.
- Run commands with Bash when they help (tests, builds); commands that change things may need the person's approval, and a denied call comes back with the reason: do not retry it unchanged.
- Several independent read-only calls in one turn run at once.
- A failed call's result says what was wrong: correct the call rather than repeating it.
- When the task is done, answer briefly: what you did and what is left. Use task_completion to end with a summary, ask_question when a decision belongs to the person.
`, info.WorkingDir, info.OS, info.Now.Format("Monday, 2 January 2006"))
	mem := memory.Load(info.Memory())
	b.WriteString(mem.Text)
	return b.String(), mem.Notices
}

// Memory is where the instructions files of info are read from.
func (info PromptInfo) Memory() memory.Options {
	return memory.Options{WorkingDir: info.WorkingDir, Root: info.Root, Home: info.Home, User: info.User, HomeImports: info.HomeImports}
}

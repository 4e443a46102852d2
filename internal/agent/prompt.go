package agent

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// projectInstructions are the files a project's instructions are read
// from, the shared convention first.
var projectInstructions = []string{"AGENTS.md", "CLAUDE.md"}

// maxInstructions bounds the project instructions sent with every request:
// tokens are the user's money.
const maxInstructions = 16 << 10

// PromptInfo is what forge's own system prompt says about the place it
// runs in.
type PromptInfo struct {
	WorkingDir string
	OS         string
	Now        time.Time
	// ToolFormat is FormatXML when tools are called in text.
	ToolFormat Format
}

// SystemPrompt is forge's own system prompt, followed by the project's
// instructions (AGENTS.md in the working directory) when present. It is
// short on purpose: each tool's description and schema say how to use it.
func SystemPrompt(info PromptInfo) string {
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
	if text, name := readInstructions(info.WorkingDir); text != "" {
		fmt.Fprintf(&b, "\nProject instructions (%s):\n%s\n", name, text)
	}
	return b.String()
}

// readInstructions returns the first project instructions file of dir, cut
// at maxInstructions.
func readInstructions(dir string) (string, string) {
	for _, name := range projectInstructions {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		buf, _ := io.ReadAll(io.LimitReader(f, maxInstructions+1))
		f.Close()
		text := strings.TrimSpace(string(buf[:min(len(buf), maxInstructions)]))
		if len(buf) > maxInstructions {
			text += "\n[... cut: the file is longer than 16 KiB]"
		}
		if text != "" {
			return text, name
		}
	}
	return "", ""
}

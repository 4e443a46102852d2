package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/memory"
)

func memoryCommand() Command {
	return Command{
		Name: "memory", Usage: "/memory", Summary: "List the instructions files sent with every prompt",
		Help: `Lists the instructions files the agent gets with every prompt, in the order they are sent: yours (~/.claude/CLAUDE.md, then AGENTS.md in forge's configuration directory), then AGENTS.md, CLAUDE.md and CLAUDE.local.md of each directory from the repository's root down to the working directory, each followed by the files it imports with @path (relative to it, ` +
			fmt.Sprint(memory.MaxDepth) + ` deep at most, inside the project, or your home for your own files and a trusted project's). A file with the same text as one already sent goes once. Each file is cut at ` +
			fmt.Sprint(memory.MaxFile>>10) + ` KiB, all of them at ` + fmt.Sprint(memory.MaxTotal>>10) + ` KiB. The files not read are listed with why.`,
		Example:    "/memory",
		CLIExample: "forge memory -o json",
		Args:       AtMost(0),
		Run:        runMemory,
	}
}

// memoryFile is one file as the list shows it in JSON.
type memoryFile struct {
	Path       string `json:"path"`
	Scope      string `json:"scope"`
	ImportedBy string `json:"imported_by,omitempty"`
	Bytes      int    `json:"bytes"`
	Note       string `json:"note,omitempty"`
}

func runMemory(_ context.Context, env *Env, inv Invocation) int {
	if len(inv.Args) > 0 {
		return env.Usage(memoryCommand(), inv, "/memory takes no arguments")
	}
	if env.Memory == nil {
		return env.Fail(ExitFailed, "model", "this forge has no agent")
	}
	m := env.Memory()
	views := []memoryFile{}
	var b strings.Builder
	if len(m.Files) == 0 {
		b.WriteString("No instructions files: the agent gets forge's own prompt only (AGENTS.md or CLAUDE.md in the project add to it).\n")
	} else {
		b.WriteString("Sent with every prompt, in this order:\n")
	}
	for i, f := range m.Files {
		views = append(views, memoryFile{Path: f.Path, Scope: string(f.Scope), ImportedBy: f.ImportedBy, Bytes: f.Bytes, Note: f.Note})
		fmt.Fprintf(&b, "  %d. %s (%s", i+1, f.Label, f.Scope)
		if f.ImportedBy != "" {
			fmt.Fprintf(&b, ", imported by %s", f.ImportedBy)
		}
		if f.Bytes > 0 || f.Note == "" {
			fmt.Fprintf(&b, ", %s", size(f.Bytes))
		}
		b.WriteString(")")
		if f.Note != "" {
			b.WriteString(": " + f.Note)
		}
		b.WriteString("\n")
	}
	if len(m.Notices) > 0 {
		b.WriteString("Not read, or not whole:\n")
		for _, n := range m.Notices {
			b.WriteString("  " + n + "\n")
		}
	}
	env.Printer().Value(strings.TrimSuffix(b.String(), "\n"), map[string]any{"files": views, "notices": append([]string{}, m.Notices...)})
	return ExitOK
}

// size is a byte count as people read it.
func size(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/1024)
}

package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/session"
)

// rewindText is the most of a prompt a /rewind list shows.
const rewindText = 60

func rewindCommand() Command {
	return Command{
		Name: "rewind", Usage: "/rewind [N [files|conversation|both]] [--force]",
		Summary: "Go back to before a prompt: files, conversation or both",
		Help: `Without N, lists the prompts of this conversation with the files each changed, numbered as the session counts them (a prompt a rewind took out of the conversation leaves a gap).

/rewind N goes back to before prompt N: the files that prompt N and every later one changed (through Write, Edit and NotebookEdit) are put back as they were, and the conversation is cut back to before prompt N, so the model forgets it. "files" does only the first, "conversation" only the second; both is the default. The cut is kept in the session log, so a resumed session (--continue) goes on from it.

A file changed since forge wrote it is handled as /undo handles it: asked about on a terminal, else nothing is done and the file is named (--force overwrites). Changes made through Bash are not tracked.`,
		Example: "/rewind\n/rewind 2\n/rewind 2 files",
		Where:   ShellOnly,
		Args:    AtMost(2),
		Complete: func(_ *Env, words []string, _ string) []string {
			if len(words) == 1 {
				return []string{"files", "conversation", "both"}
			}
			return nil
		},
		Flags: func(fs *pflag.FlagSet) Run {
			force := fs.Bool("force", false, "overwrite files changed since forge wrote them")
			return func(ctx context.Context, env *Env, inv Invocation) int {
				return runRewind(ctx, env, inv, *force)
			}
		},
	}
}

func runRewind(ctx context.Context, env *Env, inv Invocation, force bool) int {
	h := env.History()
	prompts := h.Prompts()
	if len(inv.Args) == 0 {
		env.Printer().Value(promptsText(env, prompts), promptsJSON(env, prompts))
		return ExitOK
	}
	n, err := strconv.Atoi(inv.Args[0])
	if err != nil || !slices.ContainsFunc(prompts, func(p session.PromptInfo) bool { return p.Turn == n }) {
		msg := fmt.Sprintf("no prompt %q: /rewind lists the prompts", inv.Args[0])
		if len(prompts) == 0 {
			msg = "this conversation has no prompts yet"
		}
		return env.Usage(rewindCommand(), inv, msg)
	}
	what := "both"
	if len(inv.Args) == 2 {
		what = inv.Args[1]
	}
	if what != "files" && what != "conversation" && what != "both" {
		return env.Usage(rewindCommand(), inv, "rewind files, conversation or both, not "+strconv.Quote(what))
	}
	turn := n
	if what != "conversation" {
		plan, err := h.PlanRewind(turn)
		if err != nil {
			return env.Fail(ExitFailed, "rewind", err.Error())
		}
		if len(plan.Turns) == 0 {
			env.Printer().Value(fmt.Sprintf("No file changes to undo since prompt %d.", n), map[string]any{"undo": undoJSON(env, env.Exec.SessionID, nil, nil, "nothing")})
		} else if code := restoreFiles(ctx, env, h, env.Exec.SessionID, plan, force, "Rewound"); code != ExitOK {
			return code
		}
	}
	if what == "files" {
		return ExitOK
	}
	msgs, err := h.Rewind(turn)
	if err != nil {
		return env.Fail(ExitFailed, "rewind", "the conversation was not rewound: "+err.Error())
	}
	env.Conversation = agent.Conversation{Messages: msgs, Log: env.Conversation.Log, Todos: env.Conversation.Todos}
	env.Printer().Value(fmt.Sprintf("Conversation rewound to before prompt %d (%s).", n, plural(len(msgs), "message")),
		map[string]any{"rewound": map[string]any{"prompt": turn, "messages": len(msgs)}})
	return ExitOK
}

// promptsText lists prompts for /rewind, numbered from 1.
func promptsText(env *Env, prompts []session.PromptInfo) string {
	if len(prompts) == 0 {
		return "No prompts yet in this conversation."
	}
	var b strings.Builder
	for _, p := range prompts {
		fmt.Fprintf(&b, "%3d  %q\n", p.Turn, shortPrompt(p.Text))
		switch {
		case len(p.Files) == 0:
			b.WriteString("     no files changed\n")
		default:
			files := make([]string, len(p.Files))
			for j, f := range p.Files {
				files[j] = env.relPath(f)
			}
			note := ""
			switch {
			case p.Restored && len(p.Kept) > 0:
				kept := make([]string, len(p.Kept))
				for j, f := range p.Kept {
					kept[j] = env.relPath(f)
				}
				note = " (partly undone: " + strings.Join(kept, ", ") + " kept)"
			case p.Restored:
				note = " (undone)"
			}
			fmt.Fprintf(&b, "     %s: %s%s\n", plural(len(files), "file"), strings.Join(files, ", "), note)
		}
	}
	b.WriteString("/rewind N [files|conversation|both] goes back to before prompt N.")
	return b.String()
}

type promptView struct {
	Prompt   int      `json:"prompt"`
	Text     string   `json:"text"`
	Files    []string `json:"files"`
	Restored bool     `json:"restored"`
	// Kept are the files the undo kept: the prompt is partly undone.
	Kept []string `json:"kept,omitempty"`
}

func promptsJSON(env *Env, prompts []session.PromptInfo) map[string]any {
	out := make([]promptView, len(prompts))
	for i, p := range prompts {
		files := make([]string, len(p.Files))
		for j, f := range p.Files {
			files[j] = env.relPath(f)
		}
		out[i] = promptView{Prompt: p.Turn, Text: p.Text, Files: files, Restored: p.Restored}
		for _, f := range p.Kept {
			out[i].Kept = append(out[i].Kept, env.relPath(f))
		}
	}
	return map[string]any{"prompts": out}
}

// shortPrompt is a prompt's first line, cut to rewindText characters.
func shortPrompt(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if r := []rune(line); len(r) > rewindText {
		return string(r[:rewindText-1]) + "…"
	}
	return line
}

package commands

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/session"
)

// Exit statuses of forge undo (and /undo, /rewind), besides 0, 1 and 2.
const (
	ExitNothingToUndo = 3 // no prompt has file changes left to undo
	ExitConflict      = 5 // a file changed since forge wrote it: nothing was restored
)

func undoCommand() Command {
	return Command{
		Name: "undo", Usage: "/undo [--force] [--session ID]", Summary: "Undo the file changes of the last prompt",
		Help: `Puts back every file that the last prompt's Write, Edit and NotebookEdit calls changed, as it was before the prompt (content and mode): a file the prompt created is removed (and the directories forge created for it, when they are empty), a file it emptied gets its content back. A second /undo undoes the prompt before. The conversation stays as it is (/rewind takes it back too).

Changes made through Bash are not tracked, and neither is anything outside forge.

A file changed since forge wrote it (by you, an editor, a Bash command) is not overwritten without asking: on a terminal forge asks, file by file; without one nothing is restored, the files are named, and --force overwrites them.

forge undo reverts the last prompt of a kept session: --session ID (forge sessions lists them), or the latest session of the working directory.

Exit status:
  0  the files were restored
  1  a file could not be restored (its saved content is missing or damaged, or it cannot be written), or is
     not undoable (forge was stopped, or its log failed, before it recorded what the edit did: the file is
     left as it is, the others are restored)
  2  usage error
  3  nothing to undo
  5  a file changed since forge wrote it: nothing restored (--force overwrites)`,
		Example:    "/undo",
		CLIExample: "forge ask -o json \"fix the test\" | jq -r 'select(.type==\"done\") | .session_id' > sid\nforge undo --session $(cat sid)",
		Args:       AtMost(0),
		Flags: func(fs *pflag.FlagSet) Run {
			force := fs.Bool("force", false, "overwrite files changed since forge wrote them")
			id := fs.String("session", "", "the session to undo the last prompt of (default: this one, or the latest of the working directory)")
			return func(ctx context.Context, env *Env, inv Invocation) int {
				if len(inv.Args) > 0 {
					return env.Usage(undoCommand(), inv, "undo takes no arguments")
				}
				if fs.Changed("session") && !session.ValidID(*id) {
					// An empty --session must not quietly mean the latest.
					return env.Usage(undoCommand(), inv, fmt.Sprintf("--session %q is not a session id: %s", *id, session.IDShape))
				}
				return withHistory(env, inv, *id, func(h *session.History, id string) int {
					plan, err := h.PlanUndo()
					if errors.Is(err, session.ErrNothingToUndo) {
						return undoFailed(env, ExitNothingToUndo, "nothing_to_undo", "",
							"Nothing to undo: no prompt of this session has file changes left to undo.", undoView{Status: "nothing", SessionID: id})
					}
					if err != nil {
						return env.Fail(ExitFailed, "undo", err.Error())
					}
					return restoreFiles(ctx, env, h, id, plan, *force, "Undid")
				})
			}
		},
	}
}

// withHistory runs f on the file history of session id: the shell's
// current conversation when id is "" or its own; else the kept session,
// opened for the records f adds and closed after (forge undo without
// --session takes the latest of the working directory).
func withHistory(env *Env, inv Invocation, id string, f func(h *session.History, id string) int) int {
	if id == "" && inv.Shell || id != "" && id == env.Exec.SessionID && env.Sessions != nil && env.Sessions.log != nil {
		return f(env.History(), env.Exec.SessionID)
	}
	if env.Sessions == nil {
		return env.Fail(ExitFailed, "session", "sessions are not kept (sessions_dir is empty), so there is no session to undo")
	}
	if id == "" {
		latest, err := env.Sessions.Store.Latest(env.Exec.WorkingDir)
		if errors.Is(err, session.ErrNoSession) {
			return undoFailed(env, ExitNothingToUndo, "nothing_to_undo", "",
				"Nothing to undo: no session in "+env.Exec.WorkingDir+" (--session ID names one)", undoView{Status: "nothing"})
		}
		if err != nil {
			return env.Fail(ExitFailed, "session", err.Error())
		}
		id = latest
	}
	log, _, err := env.Sessions.Store.Resume(id)
	if errors.Is(err, session.ErrNoSession) {
		// A session id that names none is a mistake in the command line.
		return env.Fail(ExitUsage, "usage", "no session "+id+" (forge sessions lists them)")
	}
	if err != nil {
		return env.Fail(ExitFailed, "session", err.Error())
	}
	code := f(log.History(), id)
	if err := log.Close(); err != nil && code == ExitOK {
		return env.Fail(ExitFailed, "session", err.Error())
	}
	return code
}

// restoreFiles carries out plan and says what it did, a line per file.
// A file changed since forge wrote it is put to the person on a terminal;
// without one, nothing is restored unless force says to overwrite.
func restoreFiles(ctx context.Context, env *Env, h *session.History, id string, plan session.Plan, force bool, verb string) int {
	var conflicts []string
	for _, f := range plan.Files {
		if f.Conflict() {
			conflicts = append(conflicts, env.relPath(f.Path))
		}
	}
	asking := env.IO.InTerminal && env.Ask != nil
	if len(conflicts) > 0 && !force && !asking {
		v := undoJSON(env, id, plan.Turns, nil, "conflict")
		v.Conflicts = conflicts
		return undoFailed(env, ExitConflict, "conflict", plannedText(env, plan), fmt.Sprintf("Nothing restored: %s changed since forge wrote %s: %s. "+
			"Look at the changes, then use --force to overwrite them.", plural(len(conflicts), "file"), pronoun(len(conflicts)),
			strings.Join(conflicts, ", ")), v)
	}
	overwrite := func(f session.FileRestore) bool {
		if force {
			return true
		}
		if !asking {
			return false
		}
		q := env.relPath(f.Path) + " changed since forge wrote it. Overwrite it with the version before? [y/N] "
		if f.Current == nil {
			q = env.relPath(f.Path) + " was deleted since forge wrote it. Put back the version before? [y/N] "
		}
		ans, err := env.Ask(ctx, q)
		ans = strings.ToLower(strings.TrimSpace(ans))
		return err == nil && (ans == "y" || ans == "yes")
	}
	done, err := h.Restore(plan, overwrite)
	text := restoredText(env, verb, plan, done)
	if err != nil {
		return undoFailed(env, ExitFailed, "undo", text, err.Error(), undoJSON(env, id, plan.Turns, done, "failed"))
	}
	env.Printer().Value(text, map[string]any{"undo": undoJSON(env, id, plan.Turns, done, "restored")})
	return ExitOK
}

// undoFailed reports a restore that did not happen, or not whole, as one
// value: for a program, the undo object with its status and the message;
// for a person, what was planned or done (text, if any) and the message
// as an error, or, when there was nothing to undo, as information.
func undoFailed(env *Env, code int, kind, text, msg string, v undoView) int {
	if env.JSON() {
		v.Message = msg
		if v.Prompts == nil {
			v.Prompts = []int{}
		}
		if v.Files == nil {
			v.Files = []restoredView{}
		}
		env.Printer().Value("", map[string]any{"undo": v})
		return code
	}
	if text != "" {
		env.Printer().Value(text, nil)
	}
	if code == ExitNothingToUndo {
		// A normal state, not an error: said plainly; the status tells a
		// script.
		env.Printer().Value(msg, nil)
		return code
	}
	return env.Fail(code, kind, msg)
}

// restoredText is what a restore did, a line per file. When every file
// was already as before (another forge undid them), it says so.
func restoredText(env *Env, verb string, plan session.Plan, done []session.Restored) string {
	if len(done) == 0 {
		return ""
	}
	already := true
	for _, r := range done {
		already = already && r.Action == session.ActionUnchanged
	}
	var b strings.Builder
	if already {
		fmt.Fprintf(&b, "The file changes of %s were already undone:", promptNames(plan.Turns))
	} else {
		fmt.Fprintf(&b, "%s the file changes of %s:", verb, promptNames(plan.Turns))
	}
	for _, r := range done {
		line := fmt.Sprintf("\n  %-9s %s", strings.ReplaceAll(r.Action, "_", " "), env.restoredPath(r))
		switch r.Action {
		case session.ActionRemoved:
			line += " (the prompt created it)"
		case session.ActionUnchanged:
			line += " (already as before)"
		case session.ActionNotUndoable:
			line += " (" + r.Reason + "; left as it is)"
		case session.ActionKept:
			if i := slices.IndexFunc(plan.Files, func(f session.FileRestore) bool { return f.Path == r.Path }); i >= 0 {
				line += " (" + conflictNote(plan.Files[i]) + ")"
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// conflictNote is how a file changed since forge wrote it.
func conflictNote(f session.FileRestore) string {
	if f.Current == nil {
		return "deleted since forge wrote it"
	}
	return "changed since forge wrote it"
}

// plannedText is a restore not carried out: what each file would be.
func plannedText(env *Env, plan session.Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Not undone: the file changes of %s:", promptNames(plan.Turns))
	for _, f := range plan.Files {
		state := "as forge left it"
		switch {
		case f.Unchanged():
			state = "already as before"
		case f.NotUndoable():
			state = "not undoable: " + f.Lost
		case f.Conflict():
			state = conflictNote(f)
		}
		fmt.Fprintf(&b, "\n  %s (%s)", env.relPath(f.Path), state)
	}
	return b.String()
}

// promptNames names prompts by their numbers: "prompt 3", "prompts 5, 4".
func promptNames(turns []int) string {
	nums := make([]string, len(turns))
	for i, t := range turns {
		nums[i] = fmt.Sprint(t)
	}
	if len(turns) == 1 {
		return "prompt " + nums[0]
	}
	return "prompts " + strings.Join(nums, ", ")
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

type restoredView struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
}

// undoView is a restore as JSON: its status (restored, conflict, failed,
// nothing), the prompts, each file relative to the working directory, the
// files changed since forge wrote them (conflict), and why it did not
// restore (all but restored).
type undoView struct {
	Status    string         `json:"status"`
	Prompts   []int          `json:"prompts"`
	Files     []restoredView `json:"files"`
	Conflicts []string       `json:"conflicts,omitempty"`
	SessionID string         `json:"session_id,omitempty"`
	Message   string         `json:"message,omitempty"`
}

func undoJSON(env *Env, id string, turns []int, done []session.Restored, status string) undoView {
	files := make([]restoredView, 0, len(done))
	for _, r := range done {
		files = append(files, restoredView{Path: env.restoredPath(r), Action: r.Action, Reason: r.Reason})
	}
	if turns == nil {
		turns = []int{}
	}
	return undoView{Status: status, Prompts: turns, Files: files, SessionID: id}
}

// restoredPath is the path of what a restore did, a directory's with a
// trailing slash.
func (e *Env) restoredPath(r session.Restored) string {
	if r.Dir {
		return e.relPath(r.Path) + string(filepath.Separator)
	}
	return e.relPath(r.Path)
}

// relPath is path as the person reads it: relative to the working
// directory when inside it.
func (e *Env) relPath(path string) string {
	return render.RelPaths(e.Exec.WorkingDir, []string{path})[0]
}

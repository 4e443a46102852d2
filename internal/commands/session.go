package commands

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/session"
)

// Sessions are where conversations are kept, for --continue and
// /sessions. A nil *Sessions keeps none (sessions_dir is "").
type Sessions struct {
	Store *session.Store
	// NewID names a new session (after /clear).
	NewID func() string
	// log is the current conversation's, opened on its first prompt.
	log *session.Log
	// failed says the store could not be written: it is not tried again,
	// and the person was told once.
	failed bool
}

// record opens the current conversation's log on its first prompt, so
// that commands that never prompt leave no session behind. A store that
// cannot be written is reported once; the conversation goes on unrecorded.
func (e *Env) record(info agentInfo) {
	s := e.Sessions
	if s == nil || s.failed || e.Conversation.Log != nil {
		return
	}
	log, err := s.create(e, info)
	if err != nil {
		s.failed = true
		e.Printer().Error("session", "this conversation is not being saved: "+err.Error())
		return
	}
	s.log, e.Conversation.Log = log, log
}

// create makes the log of the current conversation. An id already taken
// (ids are random: only a replayed randomness repeats one) gets a new one.
func (s *Sessions) create(e *Env, info agentInfo) (*session.Log, error) {
	for tries := 0; ; tries++ {
		log, err := s.Store.Create(session.Meta{ID: e.Exec.SessionID, CWD: e.Exec.WorkingDir,
			Provider: info.provider, Model: info.model})
		if err == nil || !errors.Is(err, fs.ErrExist) || s.NewID == nil || tries == maxIDTries {
			return log, err
		}
		e.Exec.SessionID = s.NewID()
	}
}

// maxIDTries bounds the new ids create tries.
const maxIDTries = 8

// agentInfo is what a session's meta names of the agent.
type agentInfo struct{ provider, model string }

// History is the current conversation's file checkpoints, for /undo and
// /rewind: its session log's, or, when no session is kept, a history in
// memory that lasts as long as the shell.
func (e *Env) History() *session.History {
	if e.Sessions != nil && e.Sessions.log != nil {
		return e.Sessions.log.History()
	}
	if e.files == nil {
		e.files = session.NewMemoryHistory()
	}
	return e.files
}

// historyOf is the agent's Checkpointer: the history of the conversation
// at the time of the call, whose log opens on the first prompt.
type historyOf struct{ env *Env }

func (h historyOf) Checkpoint(paths []string) (func() error, error) {
	return h.env.History().Checkpoint(paths)
}

// NewConversation ends the current conversation (its log closed) and
// starts an empty one under a new session id.
func (e *Env) NewConversation() {
	e.CloseSession()
	e.files = nil
	e.resumed = session.Shown{}
	e.Conversation = agent.Conversation{}
	e.Spending = Spending{}
	if e.Sessions != nil && e.Sessions.NewID != nil {
		e.Exec.SessionID = e.Sessions.NewID()
	}
}

// CloseSession closes the current conversation's log, if one is open.
func (e *Env) CloseSession() {
	if e.Sessions == nil || e.Sessions.log == nil {
		return
	}
	_ = e.Sessions.log.Close()
	e.Sessions.log, e.Conversation.Log = nil, nil
}

// Resume continues a kept session: id, or with latest the newest of the
// working directory. It returns the warnings loading gave (a torn last
// line, a repaired call) for the person.
func (e *Env) Resume(id string, latest bool) ([]string, error) {
	if e.Sessions == nil {
		return nil, errors.New("sessions are not kept (sessions_dir is empty)")
	}
	if latest {
		var err error
		if id, err = e.Sessions.Store.Latest(e.Exec.WorkingDir); errors.Is(err, session.ErrNoSession) {
			return nil, fmt.Errorf("no session to continue in %s", e.Exec.WorkingDir)
		} else if err != nil {
			return nil, err
		}
	}
	log, st, err := e.Sessions.Store.Resume(id)
	if errors.Is(err, session.ErrNoSession) {
		return nil, fmt.Errorf("no session %s (forge sessions lists them)", id)
	}
	if err != nil {
		return nil, err
	}
	e.CloseSession()
	e.files = nil
	e.Exec.SessionID = id
	e.Conversation = agent.Conversation{Messages: st.Messages, Log: log}
	var warnings []string
	if ts, err := agent.DecodeTodos(st.LastEvents[agent.TodoRecord]); err != nil {
		warnings = append(warnings, "the task list was not restored: "+err.Error())
	} else {
		e.Conversation.Todos = ts
	}
	e.Sessions.log = log
	e.resumed = st.Shown
	e.Spending = Spending{Prompts: st.Turns, Requests: st.Requests, Usage: st.Usage, Cost: st.CostUSD, Priced: st.CostUSD > 0}
	return append(st.Warnings, warnings...), nil
}

func sessionsCommand() Command {
	return Command{
		Name: "sessions", Usage: "/sessions [--all]", Summary: "List the kept conversations, or delete one",
		Help: "Lists the kept conversations, newest first: id, when, prompts, tokens and cost, directory and first prompt. " +
			"Runs that never reached a model (no key, the server down) are left out unless --all is given. " +
			"forge -r ID (or /resume ID in the shell) goes on from one; forge -r alone picks among this directory's.",
		Example: "/sessions\n/sessions --all", CLIExample: "forge sessions -o json", Args: AtMost(0),
		Subcommands: []Command{
			{Name: "list", Usage: "/sessions list [--all]", Summary: "List the kept conversations, newest first", Args: AtMost(0), Flags: listSessionsFlags},
			{Name: "rm", Usage: "/sessions rm ID", Summary: "Delete a kept conversation", Args: ArgRange{Min: 1, Max: 1, checked: true}, Run: removeSession},
		},
	}
}

func listSessionsFlags(fs *pflag.FlagSet) Run {
	all := fs.Bool("all", false, "also list the runs that never reached a model")
	return func(_ context.Context, env *Env, inv Invocation) int {
		return listSessions(env, inv, *all)
	}
}

func listSessions(env *Env, inv Invocation, all bool) int {
	if env.Sessions == nil {
		env.Printer().Value("Sessions are not kept (sessions_dir is empty).", map[string]any{"sessions": []any{}})
		return ExitOK
	}
	list, err := env.Sessions.Store.List()
	if err != nil && len(list) == 0 {
		return env.Fail(ExitFailed, "session", err.Error())
	}
	shown, hidden := []session.Summary{}, 0
	for _, s := range list {
		if all || s.ReachedModel() {
			shown = append(shown, s)
		} else {
			hidden++
		}
	}
	text := sessionsText(shown)
	if len(shown) == 0 && hidden > 0 {
		text = "No conversation reached a model yet."
	}
	if hidden > 0 {
		cmd := "forge sessions --all"
		if inv.Shell {
			cmd = "/sessions --all"
		}
		text += fmt.Sprintf("\n(%s that never reached a model not shown: %s lists them)", plural(hidden, "run"), cmd)
	}
	env.Printer().Value(text, map[string]any{"sessions": shown})
	if err != nil {
		env.Printer().Error("session", err.Error())
	}
	return ExitOK
}

func removeSession(_ context.Context, env *Env, inv Invocation) int {
	if env.Sessions == nil {
		return env.Fail(ExitFailed, "session", "sessions are not kept (sessions_dir is empty)")
	}
	id := inv.Args[0]
	if id == env.Exec.SessionID && env.Sessions.log != nil {
		return env.Fail(ExitFailed, "session", "session "+id+" is this one; /clear first")
	}
	if err := env.Sessions.Store.Remove(id); err != nil {
		if errors.Is(err, session.ErrNoSession) {
			return env.Fail(ExitFailed, "session", "no session "+id+" (forge sessions lists them)")
		}
		return env.Fail(ExitFailed, "session", err.Error())
	}
	env.Printer().Value("Deleted session "+id+".", map[string]any{"deleted": id})
	return ExitOK
}

// sessionLine is the most of a first prompt a list shows.
const sessionLine = 50

func sessionsText(list []session.Summary) string {
	if len(list) == 0 {
		return "No sessions yet."
	}
	var b strings.Builder
	for _, s := range list {
		prompt := strings.Join(strings.Fields(s.FirstPrompt), " ")
		if r := []rune(prompt); len(r) > sessionLine {
			prompt = string(r[:sessionLine-1]) + "…"
		}
		used := render.UsageLine(s.Usage, s.CostUSD, s.CostUSD > 0)
		if used == "" {
			used = "no model answered"
		}
		fmt.Fprintf(&b, "%s  %s  %s  %s\n    %s\n    %q\n", s.ID, s.LastActivity.UTC().Format("2006-01-02 15:04 UTC"),
			plural(s.Turns, "prompt"), used, s.CWD, prompt)
	}
	return strings.TrimRight(b.String(), "\n")
}

// plural is n and the noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

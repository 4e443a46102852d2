package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/session"
)

// recapExchanges is how many of a resumed conversation's last exchanges
// are shown again.
const recapExchanges = 2

func resumeCommand() Command {
	return Command{
		Name: "resume", Usage: "/resume [ID]", Summary: "Go on from another conversation of this directory",
		Help: "Without an ID, lists the conversations kept for the working directory, newest first (when, how many prompts, " +
			"the log's size, the first prompt; this one marked), and asks which one to go on from. With an ID, goes on " +
			"from that session. The current conversation stays kept, for /resume or forge -r later. Its last exchanges " +
			"are shown again, so that you see where it was.",
		Example: "/resume\n/resume sess_7f8b4c0d1e90", Where: ShellOnly, Args: AtMost(1),
		Run: runResume,
	}
}

func runResume(ctx context.Context, env *Env, inv Invocation) int {
	if env.Sessions == nil {
		return env.Fail(ExitFailed, "session", "sessions are not kept (sessions_dir is empty)")
	}
	id := ""
	if len(inv.Args) == 1 {
		var err error
		if id, err = env.sessionNamed(inv.Args[0]); err != nil {
			return env.Fail(ExitFailed, "session", err.Error())
		}
	} else {
		var ask Asker
		if env.IO.InTerminal {
			ask = env.Ask
		}
		var err error
		id, err = PickSession(ctx, env, ask)
		var named *NameSessionError
		switch {
		case errors.As(err, &named):
			env.Printer().Value(named.List+"\n\n/resume ID goes on from one of them.", map[string]any{"sessions": named.Sessions})
			return ExitOK
		case errors.Is(err, context.Canceled) || errors.Is(err, io.EOF):
			// Ctrl-C or Ctrl-D at the question: none chosen, said so.
			id, err = "", nil
		case err != nil:
			return env.Fail(ExitFailed, "session", err.Error())
		}
		if id == "" {
			env.Printer().Value("The conversation goes on as it was.", map[string]any{"resumed": false})
			return ExitOK
		}
	}
	if id == env.Exec.SessionID && env.Sessions.log != nil {
		env.Printer().Value("That is this conversation: it goes on as it was.", map[string]any{"resumed": false, "session_id": id})
		return ExitOK
	}
	warnings, err := env.Resume(id, false)
	if err != nil {
		return env.Fail(ExitFailed, "session", err.Error())
	}
	for _, w := range warnings {
		env.Printer().Error("session", w)
	}
	env.Printer().Resumed(env.Resumed())
	return ExitOK
}

// sessionNamed is the session /resume ARG names: a number of the list
// /resume shows, or an id.
func (e *Env) sessionNamed(arg string) (string, error) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		if !session.ValidID(arg) {
			return "", fmt.Errorf("%q is not a session: %s", arg, session.IDShape)
		}
		return arg, nil
	}
	list, err := e.resumable()
	if err != nil {
		return "", err
	}
	if n < 1 || n > len(list) {
		return "", fmt.Errorf("no conversation %d here: /resume lists the %s of %s", n, plural(len(list), "conversation"), e.Exec.WorkingDir)
	}
	return list[n-1].ID, nil
}

// Resumed is the conversation that goes on, as the shell shows it: which
// it is, and its last exchanges as the person saw them.
func (e *Env) Resumed() render.ResumedView {
	outcomes := map[string]render.CallOutcome{}
	for id, o := range e.resumed.Outcomes {
		outcomes[id] = render.CallOutcome{Status: agent.Status(o.Status), Note: o.Note, Exit: o.Exit}
	}
	return render.ResumedView{
		Header: fmt.Sprintf("Continuing session %s: %s, %s.", e.Exec.SessionID, plural(e.Spending.Prompts, "prompt"),
			plural(len(e.Conversation.Messages), "message")),
		Messages: e.Conversation.Messages,
		Todos:    e.Conversation.Todos,
		Recap: render.RecapOptions{Exchanges: recapExchanges, Prompt: "forge> ", ParamOrder: ParamOrder(e.Registry),
			Typed: e.resumed.Typed, Outcomes: outcomes},
		Value: map[string]any{"resumed": true, "session_id": e.Exec.SessionID, "prompts": e.Spending.Prompts,
			"messages": len(e.Conversation.Messages), "todos": todosValue(e.Conversation.Todos)},
	}
}

// ResumedText is Resumed as the shell's banner shows it, on the terminal.
func (e *Env) ResumedText() string {
	color := false
	if e.Renderer != nil {
		color = e.Renderer().Color()
	}
	return render.ResumedText(e.Resumed(), e.TermWidth(), color)
}

// KeptSession is the id of the conversation a session log keeps, "" when
// none does (sessions are not kept, or no prompt was sent yet).
func (e *Env) KeptSession() string {
	if e.Sessions == nil || e.Sessions.log == nil {
		return ""
	}
	return e.Exec.SessionID
}

// NameSessionError is PickSession's answer when nobody can pick: the
// sessions there are, listed, for the person to name one.
type NameSessionError struct {
	List     string
	Sessions []session.Summary
}

func (e *NameSessionError) Error() string { return "name the session to resume" }

// PickSession asks, through ask, which of the working directory's
// sessions to go on from, and returns its id; "" when the person chose
// none. The sessions are those a model answered in, newest first. With
// ask nil (no terminal) it asks nothing and returns a *NameSessionError
// with the list; with no session at all, an error that says so.
func PickSession(ctx context.Context, env *Env, ask Asker) (string, error) {
	if env.Sessions == nil {
		return "", errors.New("sessions are not kept (sessions_dir is empty)")
	}
	list, err := env.resumable()
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "", fmt.Errorf("no conversation to resume in %s", env.Exec.WorkingDir)
	}
	menu := env.sessionMenu(list)
	if ask == nil {
		return "", &NameSessionError{List: menu, Sessions: list}
	}
	env.Printer().Value(menu, map[string]any{"sessions": list})
	numbers := "1"
	if len(list) > 1 {
		numbers = fmt.Sprintf("1-%d", len(list))
	}
	// Answered on the question's line (it ends with a space), as the
	// shell and forge -r both ask it.
	question := fmt.Sprintf("Resume which one? (%s, or an id; Enter for none) ", numbers)
	for {
		answer, err := ask(ctx, question)
		if err != nil {
			return "", err
		}
		id, ok := pickAnswer(strings.TrimSpace(answer), list)
		switch {
		case ok && (id == "" || env.sessionExists(id, list)):
			return id, nil
		case ok:
			question = fmt.Sprintf("There is no session %s (%s, or an id; Enter for none): ", id, numbers)
		default:
			question = fmt.Sprintf("%q is none of them (%s, or an id; Enter for none): ", clipRunes(strings.TrimSpace(answer), 20), numbers)
		}
	}
}

// sessionExists says whether session id is kept: one of list, or of
// another directory.
func (e *Env) sessionExists(id string, list []session.Summary) bool {
	for _, s := range list {
		if s.ID == id {
			return true
		}
	}
	all, _ := e.Sessions.Store.List()
	for _, s := range all {
		if s.ID == id {
			return true
		}
	}
	return false
}

// pickAnswer reads an answer to the picker: a number of the list, a
// session id (of any directory), or nothing.
func pickAnswer(answer string, list []session.Summary) (string, bool) {
	if answer == "" {
		return "", true
	}
	if n, err := strconv.Atoi(answer); err == nil {
		if n < 1 || n > len(list) {
			return "", false
		}
		return list[n-1].ID, true
	}
	// Another directory's session is named by its id; a word that only
	// has an id's shape ("later") is more likely a slip.
	if strings.HasPrefix(answer, "sess_") && session.ValidID(answer) {
		return answer, true
	}
	return "", false
}

// resumable is the sessions of the working directory that a model
// answered in, newest first. A session another forge holds stays in the
// list: resuming it says so.
func (e *Env) resumable() ([]session.Summary, error) {
	all, err := e.Sessions.Store.List()
	if err != nil && len(all) == 0 {
		return nil, err
	}
	wd := filepath.Clean(e.Exec.WorkingDir)
	var list []session.Summary
	for _, s := range all {
		if filepath.Clean(s.CWD) == wd && s.ReachedModel() {
			list = append(list, s)
		}
	}
	return list, nil
}

// sessionMenu numbers sessions for the person to pick from: when, how
// many prompts, the log's size and the first prompt; the current
// conversation marked.
func (e *Env) sessionMenu(list []session.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Conversations in %s, newest first:", e.Exec.WorkingDir)
	now := e.now()
	for i, s := range list {
		mark := ""
		if s.ID == e.KeptSession() {
			mark = "  ← this one"
		}
		fmt.Fprintf(&b, "\n%3d  %-14s  %-11s %7s  %s  %s%s", i+1, age(now, s.LastActivity), plural(s.Turns, "prompt"),
			byteSize(s.Size), s.ID, quotedPrompt(s.FirstPrompt), mark)
	}
	return b.String()
}

// now is the time by the env's clock.
func (e *Env) now() time.Time {
	if e.Clock != nil {
		return e.Clock()
	}
	return time.Now()
}

// clipRunes cuts s to n runes, marking the cut.
func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// quotedPrompt is a first prompt on one line, cut for a list.
func quotedPrompt(p string) string {
	p = strings.Join(strings.Fields(p), " ")
	if r := []rune(p); len(r) > sessionLine {
		p = string(r[:sessionLine-1]) + "…"
	}
	return strconv.Quote(p)
}

// age says how long ago t was, as a person says it.
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return agoText(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return agoText(int(d/time.Hour), "hour")
	case d < 30*24*time.Hour:
		return agoText(int(d/(24*time.Hour)), "day")
	}
	return t.UTC().Format("2006-01-02")
}

func agoText(n int, unit string) string {
	if n == 1 && unit == "day" {
		return "yesterday"
	}
	return plural(n, unit) + " ago"
}

// byteSize is n bytes for a person: 812 B, 48 KB, 3.2 MB.
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%d KB", (n+500)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

package commands

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/session"
)

// sessionsShell is a test shell whose store holds, for its working
// directory, an older and a newer conversation a model answered in and a
// run no model answered, and one conversation of another directory.
func sessionsShell(t *testing.T) (*Shell, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errOut bytes.Buffer
	sh := testShell(t, &out, &errOut)
	env := sh.Env()
	clock := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	env.Sessions = &Sessions{Store: session.NewStore(filepath.Join(t.TempDir(), "sessions"), now)}
	env.Exec.SessionID = "sess_new"
	add := func(id, cwd string, msgs ...llm.Message) {
		log, err := env.Sessions.Store.Create(session.Meta{ID: id, CWD: cwd})
		must(t, err)
		for _, m := range msgs {
			if m.Role == llm.RoleUser {
				must(t, log.Prompt(m.Text))
			} else {
				must(t, log.Append(m))
			}
		}
		must(t, log.Close())
		clock = clock.Add(time.Hour)
	}
	wd := env.Exec.WorkingDir
	add("sess_old", wd, user("explain the build"), said("It uses make."))
	add("sess_failed", wd, user("never answered"))
	add("sess_elsewhere", "/somewhere/else", user("not here"), said("no"))
	add("sess_recent", wd, user("fix the failing test"), said("Fixed."), user("and the docs?"), said("Updated the README."))
	env.Clock = func() time.Time { return clock.Add(time.Hour) }
	return sh, &out, &errOut
}

func user(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Text: text} }
func said(text string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Text: text} }
func asking(answers ...string) Asker {
	return func(context.Context, string) (string, error) {
		if len(answers) == 0 {
			return "", errors.New("no more answers")
		}
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
}

// The picker lists this directory's sessions a model answered in, newest
// first, with their age, prompts and size, and takes a number, an id or
// nothing; an answer that names none is asked again.
func TestPickSession(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers []string
		want    string
	}{
		{"a number", []string{"2"}, "sess_old"},
		{"an id", []string{"sess_recent"}, "sess_recent"},
		{"nothing", []string{""}, ""},
		{"again after a wrong answer", []string{"7", "later", " 1 "}, "sess_recent"},
		{"again after an id of no session", []string{"sess_nothere", "sess_elsewhere"}, "sess_elsewhere"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh, out, _ := sessionsShell(t)
			id, err := PickSession(context.Background(), sh.Env(), asking(tc.answers...))
			if err != nil || id != tc.want {
				t.Fatalf("picked %q, %v; want %q", id, err, tc.want)
			}
			menu := out.String()
			for _, want := range []string{"  1  2 hours ago     2 prompts ", ` sess_recent  "fix the failing test"`,
				"  2  5 hours ago     1 prompt  ", ` sess_old  "explain the build"`} {
				if !strings.Contains(menu, want) {
					t.Errorf("the menu lacks %q:\n%s", want, menu)
				}
			}
			if strings.Contains(menu, "sess_failed") || strings.Contains(menu, "sess_elsewhere") || strings.Contains(menu, "this one") {
				t.Errorf("the menu shows a session it should not, or marks one:\n%s", menu)
			}
		})
	}
}

// An answer that names no session is asked again, saying why; Ctrl-C or
// Ctrl-D at the question of /resume chooses none, and says the
// conversation goes on.
func TestPickSessionSaysWhy(t *testing.T) {
	sh, out, errOut := sessionsShell(t)
	var questions []string
	answers := []string{"later", "sess_nothere", ""}
	ask := func(_ context.Context, q string) (string, error) {
		questions = append(questions, q)
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	if id, err := PickSession(context.Background(), sh.Env(), ask); id != "" || err != nil {
		t.Fatalf("picked %q, %v", id, err)
	}
	want := []string{"Resume which one? (1-2, or an id; Enter for none) ",
		`"later" is none of them (1-2, or an id; Enter for none): `,
		"There is no session sess_nothere (1-2, or an id; Enter for none): "}
	if !slices.Equal(questions, want) {
		t.Errorf("questions %q, want %q", questions, want)
	}

	for _, stop := range []error{context.Canceled, io.EOF} {
		out.Reset()
		sh.Env().Ask = func(context.Context, string) (string, error) { return "", stop }
		sh.Env().IO.InTerminal = true
		if code := sh.Exec(context.Background(), "/resume"); code != ExitOK {
			t.Errorf("%v: /resume exit %d: %s", stop, code, errOut)
		}
		if !strings.HasSuffix(out.String(), "The conversation goes on as it was.\n") || errOut.Len() != 0 {
			t.Errorf("%v: /resume printed %q, %q", stop, out, errOut)
		}
	}
}

// Without a terminal nobody can pick: the sessions are listed for the
// person to name one; with none, the error says so.
func TestPickSessionWithoutATerminal(t *testing.T) {
	sh, out, _ := sessionsShell(t)
	_, err := PickSession(context.Background(), sh.Env(), nil)
	var named *NameSessionError
	if !errors.As(err, &named) || len(named.Sessions) != 2 || !strings.Contains(named.List, "sess_recent") {
		t.Fatalf("err %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed %q", out.String())
	}
	sh.Env().Exec.WorkingDir = t.TempDir()
	if _, err := PickSession(context.Background(), sh.Env(), asking("1")); err == nil || !strings.Contains(err.Error(), "no conversation to resume in") {
		t.Errorf("err %v", err)
	}
}

// /resume N goes on from the Nth conversation of the list and shows its
// last exchanges; /resume then marks it as this one; a second /resume of
// it changes nothing; a bad argument says what a session is.
func TestResumeCommand(t *testing.T) {
	sh, out, errOut := sessionsShell(t)
	ctx := context.Background()
	if code := sh.Exec(ctx, "/resume 2"); code != ExitOK {
		t.Fatalf("/resume 2: %d %s", code, errOut)
	}
	want := "Continuing session sess_old: 1 prompt, 2 messages. Where it left off:\n\nforge> explain the build\nIt uses make."
	if !strings.Contains(out.String(), want) {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	env := sh.Env()
	if env.Exec.SessionID != "sess_old" || len(env.Conversation.Messages) != 2 || env.KeptSession() != "sess_old" {
		t.Errorf("session %s, %d messages", env.Exec.SessionID, len(env.Conversation.Messages))
	}
	out.Reset()
	env.IO.InTerminal, env.Ask = true, asking("")
	if code := sh.Exec(ctx, "/resume"); code != ExitOK || !strings.Contains(out.String(), `"explain the build"  ← this one`) ||
		!strings.Contains(out.String(), "goes on as it was") {
		t.Errorf("/resume on a terminal: %d\n%s", code, out)
	}
	out.Reset()
	if code := sh.Exec(ctx, "/resume sess_old"); code != ExitOK || !strings.Contains(out.String(), "That is this conversation") {
		t.Errorf("/resume of this one: %d %s", code, out)
	}
	for _, arg := range []string{"9", "../x"} {
		errOut.Reset()
		if code := sh.Exec(ctx, "/resume "+arg); code != ExitFailed || errOut.Len() == 0 {
			t.Errorf("/resume %s: %d %q", arg, code, errOut)
		}
	}
}

// /resume in a script lists the sessions and says how to name one.
func TestResumeCommandWithoutATerminal(t *testing.T) {
	sh, out, _ := sessionsShell(t)
	if code := sh.Exec(context.Background(), "/resume"); code != ExitOK {
		t.Fatalf("/resume: %d", code)
	}
	if !strings.Contains(out.String(), "sess_recent") || !strings.HasSuffix(out.String(), "/resume ID goes on from one of them.\n") {
		t.Errorf("output:\n%s", out)
	}
}

// /sessions leaves out the runs no model answered, and says how many;
// --all lists them too.
func TestSessionsHidesRunsThatNeverReachedAModel(t *testing.T) {
	sh, out, _ := sessionsShell(t)
	if code := sh.Exec(context.Background(), "/sessions"); code != ExitOK {
		t.Fatal(code)
	}
	if strings.Contains(out.String(), "sess_failed") || !strings.Contains(out.String(), "sess_elsewhere") ||
		!strings.Contains(out.String(), "(1 run that never reached a model not shown: /sessions --all lists them)") {
		t.Errorf("/sessions:\n%s", out)
	}
	out.Reset()
	if code := sh.Exec(context.Background(), "/sessions --all"); code != ExitOK || !strings.Contains(out.String(), "sess_failed") ||
		strings.Contains(out.String(), "not shown") {
		t.Errorf("/sessions --all: %d\n%s", code, out)
	}
}

func TestAgeAndSize(t *testing.T) {
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{10 * time.Second, "just now"}, {time.Minute, "1 minute ago"}, {59 * time.Minute, "59 minutes ago"},
		{2 * time.Hour, "2 hours ago"}, {30 * time.Hour, "yesterday"}, {3 * 24 * time.Hour, "3 days ago"},
		{40 * 24 * time.Hour, "2025-01-29"},
	} {
		if got := age(now, now.Add(-tc.ago)); got != tc.want {
			t.Errorf("age of %v: %q, want %q", tc.ago, got, tc.want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1 KB", 48_400: "48 KB", 3_240_000: "3.2 MB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// Decision is what a hook says about the action of its event.
type Decision int

// The decisions, weakest first: combining answers keeps the strongest.
const (
	// None leaves the decision to forge (the policy, the person).
	None Decision = iota
	// Allow runs a call without asking the person.
	Allow
	// Ask puts the call to the person, whatever the approval mode.
	Ask
	// Deny refuses the call (or blocks the prompt, or, for Stop, makes
	// the agent go on).
	Deny
)

// String is the decision as hooks write it.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return ""
}

// Answer is one hook's answer.
type Answer struct {
	Decision Decision
	// Reason says why: the standard error of an exit 2, or the JSON's
	// reason.
	Reason string
	// UpdatedInput, when set, replaces a PreToolUse call's arguments.
	UpdatedInput tools.Args
	// RewriteErr is an updatedInput that is not a JSON object.
	RewriteErr error
	// Context is text for the model: plain standard output of a
	// SessionStart or UserPromptSubmit hook, or additionalContext.
	Context string
	// Message is the JSON's systemMessage, for the person.
	Message string
	// Err says the hook failed: an exit status other than 0 and 2, a
	// timeout, a command that could not start, an answer that is not
	// JSON although it looks like it. The decision is then None.
	Err error
	// stdoutCut says forge kept only the start of the hook's output.
	stdoutCut bool
}

// wireAnswer is the JSON a hook may print: forge's and Claude Code's
// legacy shape (decision, reason) and its current one (hookSpecificOutput).
// Other fields (continue, suppressOutput...) are accepted and ignored.
type wireAnswer struct {
	Decision      string          `json:"decision"`
	Reason        string          `json:"reason"`
	UpdatedInput  json.RawMessage `json:"updatedInput"`
	SystemMessage string          `json:"systemMessage"`
	Specific      *struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        string          `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// DecodeAnswer reads a hook's answer from its exit status and output.
func DecodeAnswer(event Event, exit int, stdout, stderr []byte) Answer {
	switch exit {
	case 0:
	case 2:
		reason := strings.TrimSpace(string(stderr))
		if reason == "" {
			// A fact, not a message: who reads it says a hook blocked.
			reason = "exit status 2, nothing on standard error"
		}
		return Answer{Decision: Deny, Reason: reason}
	default:
		msg := fmt.Sprintf("exit status %d", exit)
		if s := strings.TrimSpace(string(stderr)); s != "" {
			msg += ": " + firstLine(s)
		}
		return Answer{Err: errors.New(msg)}
	}
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 || out[0] != '{' {
		if event == SessionStart || event == UserPromptSubmit {
			return Answer{Context: string(out)}
		}
		return Answer{}
	}
	var w wireAnswer
	if err := json.Unmarshal(out, &w); err != nil {
		return Answer{Err: fmt.Errorf("its answer is not valid JSON: %w", err)}
	}
	a := Answer{Reason: strings.TrimSpace(w.Reason), Message: strings.TrimSpace(w.SystemMessage)}
	decision, rewrite := w.Decision, w.UpdatedInput
	if s := w.Specific; s != nil {
		if s.PermissionDecision != "" {
			decision = s.PermissionDecision
			if r := strings.TrimSpace(s.PermissionDecisionReason); r != "" {
				a.Reason = r
			}
		}
		if len(s.UpdatedInput) > 0 {
			rewrite = s.UpdatedInput
		}
		a.Context = strings.TrimSpace(s.AdditionalContext)
	}
	d, err := parseDecision(decision)
	if err != nil {
		return Answer{Err: err}
	}
	a.Decision = d
	if len(rewrite) > 0 && string(bytes.TrimSpace(rewrite)) != "null" {
		args, err := tools.DecodeArgs(rewrite)
		if err != nil {
			a.RewriteErr = fmt.Errorf("updatedInput: %w", err)
		} else {
			a.UpdatedInput = args
		}
	}
	return a
}

// parseDecision reads a decision in any case: forge's words and Claude
// Code's ("approve" and "block" of its legacy answers).
func parseDecision(s string) (Decision, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return None, nil
	case "allow", "approve":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny", "block":
		return Deny, nil
	}
	return None, fmt.Errorf("unknown decision %q (want allow, deny or ask)", s)
}

// firstLine is s's first line, for a one-line message.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

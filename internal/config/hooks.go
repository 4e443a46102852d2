package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Hook is one command of the hooks section, in Claude Code's format:
//
//	hooks:
//	  PreToolUse:
//	    - matcher: "Bash|Write"
//	      hooks:
//	        - {type: command, command: "./check.sh", timeout: 30}
//
// Config.Hooks lists them flat, by event in HookEvents order and then as
// written, each with the file it came from, so that a layer can drop the
// hooks of a file it does not trust.
type Hook struct {
	Event   string        // one of HookEvents, in its canonical case
	Matcher string        // PreToolUse, PostToolUse: a regular expression over the whole tool name; "" or "*" = every tool
	Command string        // run with sh -c in the working directory
	Timeout time.Duration // 0 = the runner's default (60 s)
	File    string        // the config file that holds it
}

// HookEvents are the events forge runs hooks for.
var HookEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}

// otherHookEvents are Claude Code's events that forge does not have: a
// file written for Claude Code may name them, and gets a warning, not an
// error.
var otherHookEvents = []string{"Notification", "SubagentStop", "PreCompact", "SessionEnd", "PermissionRequest",
	"PostToolUseFailure", "PermissionDenied"}

// hookMatcherFields are the keys of a hooks.<Event>[i] entry; hookFields
// those of one of its hooks.
var (
	hookMatcherFields = []string{"matcher", "hooks"}
	hookFields        = []string{"type", "command", "timeout"}
)

// toolHookEvent says the event's hooks match tool names.
func toolHookEvent(e string) bool { return e == "PreToolUse" || e == "PostToolUse" }

// parseHooks reads hooks: {<Event>: [{matcher, hooks: [{type, command, timeout}]}]}.
func parseHooks(path string, v any) ([]Hook, []string, error) {
	if v == nil {
		return nil, nil, nil
	}
	m, ok := asMap(v)
	if !ok {
		return nil, nil, &ValueError{Source: "config file " + path, Key: "hooks", Value: display(v),
			Reason: "want a mapping of events (" + strings.Join(HookEvents, ", ") + ") to lists of matchers"}
	}
	if err := duplicateInCase(m); err != nil {
		return nil, nil, fmt.Errorf("config file %s: hooks: %w", path, err)
	}
	byEvent := map[string][]Hook{}
	var warnings []string
	for _, k := range sortedKeys(m) {
		event, known := canonicalEvent(k)
		switch {
		case known && slices.Contains(otherHookEvents, event):
			warnings = append(warnings, fmt.Sprintf("config file %s: hooks.%s: forge does not run %s hooks; they are ignored", path, k, event))
			continue
		case !known:
			msg := fmt.Sprintf("config file %s: hooks.%s: unknown event; forge runs hooks for %s", path, k, strings.Join(HookEvents, ", "))
			return nil, nil, errors.New(msg)
		}
		hs, w, err := parseHookEvent(path, event, m[k])
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, w...)
		byEvent[event] = hs
	}
	var out []Hook
	for _, e := range HookEvents {
		out = append(out, byEvent[e]...)
	}
	return out, warnings, nil
}

// canonicalEvent is name as forge (and Claude Code) spells it, matched
// ignoring case like every other key.
func canonicalEvent(name string) (string, bool) {
	for _, e := range slices.Concat(HookEvents, otherHookEvents) {
		if strings.EqualFold(e, name) {
			return e, true
		}
	}
	return "", false
}

// parseHookEvent reads the list of matchers of one event.
func parseHookEvent(path, event string, v any) ([]Hook, []string, error) {
	key := "hooks." + event
	l, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, nil, nil
		}
		return nil, nil, &ValueError{Source: "config file " + path, Key: key, Value: display(v),
			Reason: `want a list of {matcher: "Bash", hooks: [{type: command, command: "..."}]}`}
	}
	var out []Hook
	var warnings []string
	for i, e := range l {
		at := fmt.Sprintf("%s[%d]", key, i)
		hs, w, err := parseHookMatcher(path, event, at, e)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, hs...)
		warnings = append(warnings, w...)
	}
	return out, warnings, nil
}

// parseHookMatcher reads one {matcher, hooks} entry.
func parseHookMatcher(path, event, at string, v any) ([]Hook, []string, error) {
	bad := func(key string, val any, reason string) error {
		return &ValueError{Source: "config file " + path, Key: key, Value: display(val), Reason: reason}
	}
	m, ok := asMap(v)
	if !ok {
		return nil, nil, bad(at, v, `want a mapping {matcher: "Bash", hooks: [...]}`)
	}
	if err := duplicateInCase(m); err != nil {
		return nil, nil, fmt.Errorf("config file %s: %s: %w", path, at, err)
	}
	var warnings []string
	matcher, hooksVal, hasHooks := "", any(nil), false
	for _, k := range sortedKeys(m) {
		switch strings.ToLower(k) {
		case "matcher":
			s, err := toString(m[k])
			if err != nil {
				return nil, nil, bad(at+".matcher", m[k], err.Error())
			}
			if s == "*" {
				s = "" // Claude Code's "every tool"
			}
			if _, err := regexp.Compile(s); err != nil && toolHookEvent(event) {
				return nil, nil, bad(at+".matcher", m[k], "not a regular expression: "+err.Error())
			}
			matcher = s
		case "hooks":
			hooksVal, hasHooks = m[k], true
		default:
			warnings = append(warnings, unknownKey(path, k, at+".", hookMatcherFields))
		}
	}
	if matcher != "" && !toolHookEvent(event) {
		warnings = append(warnings, fmt.Sprintf("config file %s: %s.matcher: ignored: only PreToolUse and PostToolUse hooks match tool names", path, at))
		matcher = ""
	}
	l, ok := hooksVal.([]any)
	if !hasHooks || !ok {
		return nil, nil, bad(at+".hooks", hooksVal, `want a list of {type: command, command: "...", timeout: 30}`)
	}
	out := make([]Hook, 0, len(l))
	for j, e := range l {
		h, w, err := parseHook(path, fmt.Sprintf("%s.hooks[%d]", at, j), e)
		if err != nil {
			return nil, nil, err
		}
		h.Event, h.Matcher, h.File = event, matcher, path
		out = append(out, h)
		warnings = append(warnings, w...)
	}
	return out, warnings, nil
}

// parseHook reads one {type: command, command, timeout}.
func parseHook(path, at string, v any) (Hook, []string, error) {
	var h Hook
	bad := func(key string, val any, reason string) error {
		return &ValueError{Source: "config file " + path, Key: key, Value: display(val), Reason: reason}
	}
	m, ok := asMap(v)
	if !ok {
		return h, nil, bad(at, v, `want a mapping {type: command, command: "...", timeout: 30}`)
	}
	if err := duplicateInCase(m); err != nil {
		return h, nil, fmt.Errorf("config file %s: %s: %w", path, at, err)
	}
	var warnings []string
	for _, k := range sortedKeys(m) {
		val := m[k]
		switch strings.ToLower(k) {
		case "type":
			if s, err := toString(val); err != nil || s != "command" {
				return h, nil, bad(at+".type", val, `forge runs hooks of type "command" only`)
			}
		case "command":
			s, err := toString(val)
			switch {
			case err != nil:
				return h, nil, bad(at+".command", val, err.Error())
			case strings.TrimSpace(s) == "":
				return h, nil, bad(at+".command", val, "a hook needs a command to run")
			}
			h.Command = s
		case "timeout":
			d, err := toDuration(val)
			if err != nil {
				return h, nil, bad(at+".timeout", val, err.Error()+" (seconds, as in Claude Code, or a duration such as 90s)")
			}
			h.Timeout = d
		default:
			warnings = append(warnings, unknownKey(path, k, at+".", hookFields))
		}
	}
	if h.Command == "" {
		return h, nil, bad(at+".command", nil, "a hook needs a command to run")
	}
	return h, warnings, nil
}

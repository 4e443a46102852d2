package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/permission"
)

// modes are forge's approval modes as the editor offers them, in the
// order a person moves through them.
var modes = []struct {
	mode        permission.Mode
	name, about string
}{
	{permission.ModeAsk, "Ask", "Edits and commands are put to you first"},
	{permission.ModeAutoEdit, "Auto-edit", "Edits in the project run without asking; commands are put to you first"},
	{permission.ModePlan, "Plan", "Read-only: the agent reads, searches and plans, and changes nothing"},
	{permission.ModeYolo, "Yolo", "Every call runs without asking (deny rules still hold)"},
}

// modeState is the editor's view of the modes, current among them.
func modeState(current permission.Mode) *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(current.String())}
	for _, m := range modes {
		about := m.about
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.mode), Name: m.name, Description: &about})
	}
	return st
}

// modeOf is the mode an editor's mode id names.
func modeOf(id sdk.SessionModeId) (permission.Mode, bool) {
	for _, m := range modes {
		if string(m.mode) == string(id) {
			return m.mode, true
		}
	}
	return "", false
}

// syncMode tells the editor of a mode the session switched to by itself
// (an approved plan): the editor shows the mode it last knew of.
func (s *server) syncMode(ctx context.Context, l *live) {
	s.mu.Lock()
	cur := l.sess.Mode()
	changed := cur != l.mode
	l.mode = cur
	s.mu.Unlock()
	if changed {
		s.update(ctx, l.id, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(cur)}})
	}
}

// setMode is the editor's switch of the mode, which it knows of.
func (s *server) setMode(l *live, m permission.Mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l.sess.SetMode(m)
	l.mode = m
}

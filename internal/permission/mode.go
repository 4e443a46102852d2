package permission

import (
	"fmt"
	"strings"
)

// Mode is the approval mode: how much runs without asking the person.
type Mode string

// The approval modes. The zero Mode behaves as ModeAsk.
const (
	// ModeAsk runs read-only tools and asks before everything else.
	ModeAsk Mode = "ask"
	// ModeAutoEdit also allows file edits inside the working directory and
	// the allowed roots.
	ModeAutoEdit Mode = "auto-edit"
	// ModeYolo allows every call that no deny rule denies.
	ModeYolo Mode = "yolo"
	// ModePlan runs read-only tools only and denies everything else, allow
	// rules included: plan mode promises that nothing changes.
	ModePlan Mode = "plan"
)

// Modes lists the valid modes, in the order help texts show them.
func Modes() []Mode { return []Mode{ModeAsk, ModeAutoEdit, ModeYolo, ModePlan} }

// ParseMode turns a name such as "auto-edit" into a Mode. Case and
// surrounding spaces are ignored; "" is ModeAsk.
func ParseMode(s string) (Mode, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "" {
		return ModeAsk, nil
	}
	for _, m := range Modes() {
		if name == string(m) {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown approval mode %q: use one of ask, auto-edit, yolo, plan", s)
}

// String returns the mode's name; the zero Mode is "ask".
func (m Mode) String() string {
	if m == "" {
		return string(ModeAsk)
	}
	return string(m)
}

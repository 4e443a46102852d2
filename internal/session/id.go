package session

import (
	"fmt"
)

// maxIDLen bounds an ID, which becomes part of three file names.
const maxIDLen = 128

// IDShape says what a session id looks like, for messages that refuse one.
const IDShape = "a session id is letters, digits, '_' and '-', as sess_7f8b4c0d1e90; forge sessions lists them"

// ValidID says id has the shape of a session id: a malformed one is a
// mistake in a command line, not a session that is missing.
func ValidID(id string) bool { return checkID(id) == nil }

// checkID refuses an ID that could name anything but its own files: only
// letters, digits, '_' and '-' pass, so there is no separator, no "..",
// no hidden file and nothing a filesystem treats specially.
func checkID(id string) error {
	if id == "" || len(id) > maxIDLen {
		return fmt.Errorf("session id %q: %w", id, ErrBadID)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("session id %q: %w", id, ErrBadID)
		}
	}
	return nil
}

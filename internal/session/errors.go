package session

import "errors"

var (
	// ErrNoSession says there is no such session (Load, Resume, Remove),
	// or none for a working directory (Latest).
	ErrNoSession = errors.New("no such session")
	// ErrBadID says an ID has characters that cannot be a file name of
	// the store.
	ErrBadID = errors.New("invalid session id")
	// ErrClosed says a record was written to a closed Log.
	ErrClosed = errors.New("session log closed")
)

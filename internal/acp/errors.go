package acp

import (
	"errors"

	sdk "github.com/coder/acp-go-sdk"
)

// ErrBadPrompt marks a Session.Run error that is the prompt's own (a
// mistyped command, a custom command's arguments): the editor sent
// something forge cannot run, rather than forge failing.
var ErrBadPrompt = errors.New("the prompt cannot run")

// invalidParams and internalError are error answers whose message is the
// person's to read: editors show an error's message, seldom its data.
func invalidParams(msg string) *sdk.RequestError {
	return &sdk.RequestError{Code: -32602, Message: msg}
}

func internalError(msg string) *sdk.RequestError {
	return &sdk.RequestError{Code: -32603, Message: msg}
}

package commands

import (
	"errors"
	"fmt"

	"github.com/forgehq/forge/internal/agent"
)

// adviseContext words what the person can do about a conversation too
// long for the model's window, for where they are: the shell, where
// /clear starts afresh, or forge ask (cli), where dropping --continue
// does, or a shorter prompt when nothing was continued.
func adviseContext(d *agent.Done, cli, continued bool) {
	var ce *agent.ContextError
	if d == nil || !errors.As(d.Err, &ce) || ce.Advice != "" {
		return
	}
	fresh := "start a new conversation (/clear)"
	switch {
	case cli && continued:
		fresh = "start afresh (forge ask without --continue or --resume)"
	case cli && ce.Fixed*2 >= ce.Need:
		// The window is too small for forge itself: no prompt is short
		// enough.
		if ce.Server > 0 {
			ce.Advice = fmt.Sprintf("use a model (or a server setting) with a window larger than %d tokens", ce.Server)
		} else {
			ce.Advice = "use a model with a larger window; if it has one, give it: --context-window N"
		}
		return
	case cli:
		fresh = "shorten the prompt"
	}
	if ce.Server > 0 {
		ce.Advice = fmt.Sprintf("%s, or use a model (or a server setting) with a window larger than %d tokens", fresh, ce.Server)
		return
	}
	ce.Advice = fresh + ", or, if the model's window is larger than forge counts with, give it: --context-window N"
}

package mcp

import (
	"errors"
	"fmt"
)

// NestedEnv is set, to "1", in the environment of every server forge
// starts as a command. A forge that finds it set was itself started by
// forge as an MCP server: forge mcp serve configured among forge's own
// servers, say. Were it to start its configured servers too, the same
// configuration would start forge mcp serve again at every level, without
// end; such a forge starts none (WithNested).
const NestedEnv = "FORGE_MCP_NESTED"

// ErrNested is wrapped by the failure of a server a nested forge would
// have started as a command.
var ErrNested = errors.New("this forge is an MCP server that forge started")

// WithNested makes the manager start no server that runs as a command:
// forge found NestedEnv set. Servers with a url connect as usual, since
// connecting to one starts nothing.
func WithNested() Option { return func(m *Manager) { m.env.nested = true } }

// nestedRefusal is why a nested forge does not start the server.
func nestedRefusal() error {
	return fmt.Errorf("not started: %w (%s is set); it starts no server commands, which could start forge again without end", ErrNested, NestedEnv)
}

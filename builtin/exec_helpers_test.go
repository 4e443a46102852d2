package builtin

import (
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// testEC is an execution context in a fresh temporary directory.
func testEC(t *testing.T) tools.ExecutionContext {
	t.Helper()
	return tools.NewExecutionContext(t.TempDir())
}

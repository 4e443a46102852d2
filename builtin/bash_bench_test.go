//go:build unix

package builtin

import (
	"context"
	"os"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func BenchmarkBashTrue(b *testing.B) {
	h := &shellHolder{}
	tl, _ := newBash(h)(context.Background(), tools.Deps{})
	defer tl.(*bashTool).Close()
	ec := tools.NewExecutionContext(b.TempDir())
	args := bashArgs("true")
	for b.Loop() {
		if r := tl.Execute(context.Background(), ec, args); !r.Success {
			b.Fatal(r.Error)
		}
	}
}

// TestBashHugeOutputMemory runs a command that prints FORGE_BASH_HUGE bytes
// (e.g. 1073741824) through Bash; it is for measuring by hand:
//
//	go test -c -o /tmp/builtin.test ./builtin
//	FORGE_BASH_HUGE=1073741824 /usr/bin/time -v /tmp/builtin.test -test.run TestBashHugeOutputMemory
//
// and reading "Maximum resident set size". Skipped otherwise.
func TestBashHugeOutputMemory(t *testing.T) {
	n := os.Getenv("FORGE_BASH_HUGE")
	if n == "" {
		t.Skip("set FORGE_BASH_HUGE to a byte count to measure")
	}
	b := newTestBash(t)
	r := b.Execute(context.Background(), testEC(t), bashArgs("head -c "+n+" /dev/zero"))
	if !r.Success {
		t.Fatal(r.Error)
	}
	t.Logf("bytes %v, kept %d", r.Metadata["bytes"], len(r.Output.(string)))
}

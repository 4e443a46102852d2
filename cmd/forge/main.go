// Command forge is the shell of the forge tool system. Everything is in
// internal/repl; main runs the root command under proc's guard (lifecycle.go)
// and exits with its status.
package main

import (
	"context"
	"os"

	"github.com/forgehq/forge/internal/repl"
)

func main() {
	os.Exit(guarded(context.Background(), os.Args[1:], repl.Main))
}

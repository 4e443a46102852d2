// Command forge is the shell of the forge tool system. Everything is in
// internal/repl; main only runs the root command and exits with its status.
package main

import (
	"context"
	"os"

	"github.com/forgehq/forge/internal/repl"
)

func main() {
	os.Exit(repl.Main(context.Background(), os.Args[1:]))
}

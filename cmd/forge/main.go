// Command forge is the shell of the forge tool system. Everything is built
// in internal/app; main only runs it on the process's streams, as the owner
// of the process (signals, and the processes the tools start).
package main

import (
	"context"
	"os"

	"github.com/forgehq/forge/internal/app"
)

func main() {
	os.Exit(app.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, app.Options{OwnProcess: true}))
}

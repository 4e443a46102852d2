package commands

import (
	"context"
	"runtime"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/version"
)

// VersionCommand is /version, which the root's --version flag also runs.
func VersionCommand() Command { return versionCommand() }

func versionCommand() Command {
	return Command{
		Name: "version", Usage: "/version", Summary: "Print forge's version",
		Example: "/version", CLIExample: "forge version -o json", Args: AtMost(0),
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(versionCommand(), inv, "/version takes no arguments")
			}
			env.Printer().Version(render.VersionInfo{Version: version.Version, Go: runtime.Version(),
				OS: runtime.GOOS, Arch: runtime.GOARCH})
			return ExitOK
		},
	}
}

package config_test

import (
	"fmt"

	"github.com/forgehq/forge/internal/config"
	"github.com/spf13/pflag"
)

// Load with the command's flags and an environment: the flag beats the environment,
// which beats the (here absent) config file and the defaults.
func ExampleLoad() {
	fs := pflag.NewFlagSet("forge", pflag.ContinueOnError)
	config.AddFlags(fs)
	_ = fs.Parse([]string{"--timeout", "90", "-o", "json"})
	env := map[string]string{"FORGE_LOG_LEVEL": "info", "FORGE_TIMEOUT": "10s"}

	c, err := config.Load(config.Source{
		Flags: fs,
		Env:   func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd: func() (string, error) { return "/", nil },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.WorkingDir, c.Timeout, c.Output, c.LogLevel, c.File == "")
	// Output: / 1m30s json info true
}

// A bad value names where it came from.
func ExampleLoad_error() {
	fs := pflag.NewFlagSet("forge", pflag.ContinueOnError)
	config.AddFlags(fs)
	_ = fs.Parse([]string{"--output", "xml"})
	_, err := config.Load(config.Source{
		Flags: fs,
		Env:   func(string) (string, bool) { return "", false },
		Getwd: func() (string, error) { return "/", nil },
	})
	fmt.Println(err)
	// Output: --output: invalid output "xml": must be one of text, json
}

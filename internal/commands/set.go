package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// settingKeys are the keys /set accepts, in display order.
var settingKeys = []string{"dry_run", "timeout", "working_dir", "max_output_size", "output"}

func setCommand() Command {
	return Command{
		Name: "set", Usage: "/set [KEY VALUE]", Summary: "Change a setting, or show them all",
		Help:    "dry_run true|false; timeout a duration (30s, 2m) or seconds; working_dir an existing directory; max_output_size bytes (> 0); output text|json. Without arguments, shows the settings.",
		Example: "/set dry_run true\n/set timeout 30s", Where: ShellOnly, Run: runSet,
		Complete: func(_ *Env, words []string, _ string) []string {
			switch len(words) {
			case 0:
				return withSpace(settingKeys)
			case 1:
				switch words[0] {
				case "dry_run":
					return withSpace([]string{"true", "false"})
				case "output":
					return withSpace([]string{"text", "json"})
				case "timeout":
					return withSpace([]string{"30s", "2m", "10m"})
				}
			}
			return nil
		},
	}
}

func runSet(_ context.Context, env *Env, inv Invocation) int {
	switch len(inv.Args) {
	case 0:
		s := make([]render.Setting, len(settingKeys))
		for i, k := range settingKeys {
			s[i] = render.Setting{Key: k, Value: settingValue(env, k)}
		}
		env.Printer().Settings(s)
		return ExitOK
	case 2:
	default:
		return env.Usage(setCommand(), inv, "expected KEY VALUE")
	}
	key, val := inv.Args[0], inv.Args[1]
	// The answer comes in the mode the command was typed in, even when it
	// switches the output.
	p := env.Printer()
	if err := set(env, key, val); err != nil {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	p.SettingChanged(render.Setting{Key: key, Value: settingValue(env, key)})
	return ExitOK
}

// settingValue shows one setting as /set prints it.
func settingValue(env *Env, key string) any {
	switch key {
	case "dry_run":
		return env.Exec.DryRun
	case "timeout":
		return env.Exec.Timeout.String()
	case "working_dir":
		return env.Exec.WorkingDir
	case "max_output_size":
		return env.Exec.MaxOutputSize
	case "output":
		return env.Output
	}
	return nil
}

// set changes one setting, or says why the value is refused.
func set(env *Env, key, val string) error {
	switch key {
	case "dry_run":
		b, ok := parseBool(val)
		if !ok {
			return fmt.Errorf("Invalid value for dry_run: %q (use true or false)", val)
		}
		env.Exec.DryRun = b
	case "timeout":
		d, err := parseTimeout(val)
		if err != nil {
			return fmt.Errorf("Invalid value for timeout: %q (use a duration such as 30s or 2m, or a number of seconds)", val)
		}
		env.Exec.Timeout = d
	case "working_dir":
		dir := val
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(env.Exec.WorkingDir, dir)
		}
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			return fmt.Errorf("Invalid value for working_dir: %s is not a directory", dir)
		}
		dir = filepath.Clean(dir)
		// The policy moves too: auto-edit judges edits against the
		// directory the tools work in, not the one forge started in.
		if env.Policy != nil {
			moved, err := env.Policy.InDir(dir)
			if err != nil {
				return fmt.Errorf("Invalid value for working_dir: %w", err)
			}
			env.Policy = moved
		}
		env.Exec.WorkingDir = dir
	case "max_output_size":
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			return fmt.Errorf("Invalid value for max_output_size: %q (use a number of bytes greater than 0)", val)
		}
		env.Exec.MaxOutputSize = n
	case "output":
		if val != "text" && val != "json" {
			return fmt.Errorf("Invalid value for output: %q (use text or json)", val)
		}
		env.Output = val
		env.RefreshPrinter()
	default:
		msg := fmt.Sprintf("Unknown setting: %s", key)
		if sg := tools.Suggest(key, settingKeys, 1); len(sg) > 0 {
			msg += fmt.Sprintf(". Did you mean %s?", sg[0])
		}
		return fmt.Errorf("%s (settings: %s)", msg, strings.Join(settingKeys, ", "))
	}
	return nil
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "true", "on", "yes", "1":
		return true, true
	case "false", "off", "no", "0":
		return false, true
	}
	return false, false
}

// parseTimeout accepts a Go duration or a number of seconds; it must be > 0.
func parseTimeout(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil {
			return 0, err
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d <= 0 {
		return 0, fmt.Errorf("timeout must be positive")
	}
	return d, nil
}

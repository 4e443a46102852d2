package repl

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func cmdHistory(_ context.Context, s *Shell, rest string) int {
	fs := newFlags("/history")
	failed := fs.Bool("failed", false, "")
	clear := fs.Bool("clear", false, "")
	words, code, ok := s.parseFlags("/history", fs, rest)
	if !ok {
		return code
	}
	if len(words) > 1 {
		return s.usage("/history", "too many arguments")
	}
	if *clear {
		if len(words) > 0 || *failed {
			return s.usage("/history", "--clear takes no other arguments")
		}
		s.app.exec.ClearExecutions()
		if s.jsonMode() {
			writeJSONLine(s.out, map[string]any{"cleared": true})
		} else {
			s.print("History cleared.")
		}
		return ExitOK
	}
	n := -1
	if len(words) == 1 {
		v, err := strconv.Atoi(words[0])
		if err != nil || v < 0 {
			return s.usage("/history", fmt.Sprintf("N must be a number of entries, got %q", words[0]))
		}
		n = v
	}
	xs := s.app.exec.Executions()
	if *failed {
		kept := xs[:0]
		for _, x := range xs {
			if !x.Result.Success {
				kept = append(kept, x)
			}
		}
		xs = kept
	}
	if n >= 0 && len(xs) > n {
		xs = xs[len(xs)-n:]
	}
	xs = s.displayExecutions(xs)
	total := s.app.exec.TotalExecutions()
	if s.jsonMode() {
		out := make([]executionJSON, len(xs))
		for i, x := range xs {
			out[i] = executionJSON{Seq: x.Seq, Tool: x.ToolName, Parameters: x.Parameters,
				StartedAt: x.StartedAt.Format(time.RFC3339Nano), CompletedAt: x.CompletedAt.Format(time.RFC3339Nano),
				resultJSON: newResultJSON(x.ToolName, x.Result)}
			if out[i].Parameters == nil {
				out[i].Parameters = tools.Args{}
			}
		}
		writeJSONLine(s.out, map[string]any{"total": total, "executions": out})
		return ExitOK
	}
	s.print(s.r.History(total, xs))
	return ExitOK
}

// contextJSON is the execution context as -o json shows it.
type contextJSON struct {
	WorkingDir     string         `json:"working_dir"`
	SessionID      string         `json:"session_id"`
	AgentID        string         `json:"agent_id"`
	DryRun         bool           `json:"dry_run"`
	TimeoutSeconds float64        `json:"timeout_seconds"`
	MaxOutputSize  int            `json:"max_output_size"`
	AllowedRoots   []string       `json:"allowed_roots"`
	Metadata       map[string]any `json:"metadata"`
	Output         string         `json:"output"`
}

func (s *Shell) contextJSON() contextJSON {
	ec := s.ec
	roots := ec.AllowedRoots
	if roots == nil {
		roots = []string{}
	}
	md := ec.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return contextJSON{WorkingDir: ec.WorkingDir, SessionID: ec.SessionID, AgentID: ec.AgentID, DryRun: ec.DryRun,
		TimeoutSeconds: ec.Timeout.Seconds(), MaxOutputSize: ec.MaxOutputSize, AllowedRoots: roots, Metadata: md, Output: s.output}
}

func cmdContext(_ context.Context, s *Shell, rest string) int {
	if strings.TrimSpace(rest) != "" {
		return s.usage("/context", "/context takes no arguments")
	}
	if s.jsonMode() {
		writeJSONLine(s.out, map[string]any{"context": s.contextJSON()})
		return ExitOK
	}
	s.print(s.r.Context(s.ec))
	return ExitOK
}

func cmdRegistry(_ context.Context, s *Shell, rest string) int {
	if strings.TrimSpace(rest) != "" {
		return s.usage("/registry", "/registry takes no arguments")
	}
	st := s.app.reg.Stats()
	if s.app.deterministic {
		st.ID = "0x7f8b4c0d1e90"
	}
	if s.jsonMode() {
		names := st.Names
		if names == nil {
			names = []string{}
		}
		writeJSONLine(s.out, map[string]any{"registry": map[string]any{
			"id": st.ID, "total": st.Total, "by_category": st.ByCategory, "names": names}})
		return ExitOK
	}
	s.print(s.r.Registry(st))
	return ExitOK
}

// settingKeys are the keys /set accepts, in display order.
var settingKeys = []string{"dry_run", "timeout", "working_dir", "max_output_size", "output"}

// settingValue shows one setting as /set prints it.
func (s *Shell) settingValue(key string) any {
	switch key {
	case "dry_run":
		return s.ec.DryRun
	case "timeout":
		return s.ec.Timeout.String()
	case "working_dir":
		return s.ec.WorkingDir
	case "max_output_size":
		return s.ec.MaxOutputSize
	case "output":
		return s.output
	}
	return nil
}

func cmdSet(_ context.Context, s *Shell, rest string) int {
	words, err := Fields(rest)
	if err != nil {
		return s.usage("/set", err.Error())
	}
	switch len(words) {
	case 0:
		if s.jsonMode() {
			m := map[string]any{}
			for _, k := range settingKeys {
				m[k] = s.settingValue(k)
			}
			writeJSONLine(s.out, map[string]any{"settings": m})
			return ExitOK
		}
		var b strings.Builder
		for _, k := range settingKeys {
			fmt.Fprintf(&b, "%s = %v\n", k, s.settingValue(k))
		}
		s.print(b.String())
		return ExitOK
	case 2:
	default:
		return s.usage("/set", "expected KEY VALUE")
	}
	key, val := words[0], words[1]
	// The answer comes in the mode the command was typed in, even when it
	// switches the output.
	wasJSON := s.jsonMode()
	if err := s.set(key, val); err != nil {
		return s.fail(ExitUsage, "usage", err.Error())
	}
	if wasJSON {
		writeJSONLine(s.out, map[string]any{"set": map[string]any{"key": key, "value": s.settingValue(key)}})
		return ExitOK
	}
	s.print(fmt.Sprintf("%s = %v", key, s.settingValue(key)))
	return ExitOK
}

// set changes one setting, or says why the value is refused.
func (s *Shell) set(key, val string) error {
	switch key {
	case "dry_run":
		b, ok := parseBool(val)
		if !ok {
			return fmt.Errorf("Invalid value for dry_run: %q (use true or false)", val)
		}
		s.ec.DryRun = b
	case "timeout":
		d, err := parseTimeout(val)
		if err != nil {
			return fmt.Errorf("Invalid value for timeout: %q (use a duration such as 30s or 2m, or a number of seconds)", val)
		}
		s.ec.Timeout = d
	case "working_dir":
		dir := val
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(s.ec.WorkingDir, dir)
		}
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			return fmt.Errorf("Invalid value for working_dir: %s is not a directory", dir)
		}
		s.ec.WorkingDir = filepath.Clean(dir)
	case "max_output_size":
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			return fmt.Errorf("Invalid value for max_output_size: %q (use a number of bytes greater than 0)", val)
		}
		s.ec.MaxOutputSize = n
	case "output":
		if val != "text" && val != "json" {
			return fmt.Errorf("Invalid value for output: %q (use text or json)", val)
		}
		s.output = val
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

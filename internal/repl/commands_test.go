package repl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSet(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	sub := filepath.Join(s.ec.WorkingDir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, val string
		err      string
		check    func() bool
	}{
		{"dry_run", "on", "", func() bool { return s.ec.DryRun }},
		{"dry_run", "false", "", func() bool { return !s.ec.DryRun }},
		{"dry_run", "maybe", `Invalid value for dry_run: "maybe" (use true or false)`, nil},
		{"timeout", "90s", "", func() bool { return s.ec.Timeout == 90*time.Second }},
		{"timeout", "2.5", "", func() bool { return s.ec.Timeout == 2500*time.Millisecond }},
		{"timeout", "0", "Invalid value for timeout", nil},
		{"timeout", "-1s", "Invalid value for timeout", nil},
		{"timeout", "soon", "Invalid value for timeout", nil},
		{"max_output_size", "5000", "", func() bool { return s.ec.MaxOutputSize == 5000 }},
		{"max_output_size", "0", "Invalid value for max_output_size", nil},
		{"max_output_size", "many", "Invalid value for max_output_size", nil},
		{"output", "json", "", func() bool { return s.jsonMode() }},
		{"output", "text", "", func() bool { return !s.jsonMode() }},
		{"output", "yaml", `Invalid value for output: "yaml" (use text or json)`, nil},
		{"working_dir", "sub", "", func() bool { return s.ec.WorkingDir == sub }},
		{"working_dir", "..", "", func() bool { return s.ec.WorkingDir == filepath.Dir(sub) }},
		{"working_dir", "nowhere", "is not a directory", nil},
		{"timeot", "1s", "Unknown setting: timeot. Did you mean timeout?", nil},
	}
	for _, tt := range tests {
		err := s.set(tt.key, tt.val)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("set(%s, %s) error = %v, want %q", tt.key, tt.val, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("set(%s, %s): %v", tt.key, tt.val, err)
			continue
		}
		if !tt.check() {
			t.Errorf("set(%s, %s) did not take effect", tt.key, tt.val)
		}
	}
}

func TestJSONOutputBeforeSetup(t *testing.T) {
	tests := []struct {
		args []string
		env  string
		want bool
	}{
		{[]string{"run", "-o", "json"}, "", true},
		{[]string{"run", "--output=json"}, "", true},
		{[]string{"run", "-ojson"}, "", true},
		{[]string{"run", "-o=json"}, "", true},
		{[]string{"run", "-o", "json", "-o", "text"}, "", false},
		{[]string{"run"}, "json", true},
		{[]string{"run", "-o", "text"}, "json", false},
		{[]string{"run", "--", "-o", "json"}, "", false},
		{[]string{"run"}, "", false},
	}
	for _, tt := range tests {
		a := &App{args: tt.args, LookupEnv: func(k string) (string, bool) {
			if k == "FORGE_OUTPUT" && tt.env != "" {
				return tt.env, true
			}
			return "", false
		}}
		if got := a.jsonOutput(); got != tt.want {
			t.Errorf("jsonOutput(%q, FORGE_OUTPUT=%q) = %v, want %v", tt.args, tt.env, got, tt.want)
		}
	}
}

func TestArgFileRelativeToWorkingDir(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	if err := os.WriteFile(filepath.Join(s.ec.WorkingDir, "msg.txt"), []byte("from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := s.Exec(context.Background(), "/run echo text=@msg.txt"); code != 0 {
		t.Fatalf("status %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "from a file") {
		t.Errorf("file contents not passed:\n%s", out.String())
	}
	out.Reset()
	if code := s.Exec(context.Background(), `/run echo {"text": "json object"}`); code != 0 || !strings.Contains(out.String(), "json object") {
		t.Errorf("whole JSON object: status %d\n%s", code, out.String())
	}
}

func TestSchemaShapes(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	ctx := context.Background()
	if code := s.Exec(ctx, "/schema echo"); code != 0 || !strings.HasPrefix(out.String(), "{\n") {
		t.Errorf("one tool: status %d, want an object:\n%s", code, out.String())
	}
	out.Reset()
	if code := s.Exec(ctx, "/schema echo size --format anthropic"); code != 0 || !strings.HasPrefix(out.String(), "[\n") || !strings.Contains(out.String(), `"input_schema"`) {
		t.Errorf("two tools: status %d, want an array:\n%s", code, out.String())
	}
	out.Reset()
	if code := s.Exec(ctx, "/schema echo --category other"); code != ExitUsage {
		t.Errorf("names and --category: status %d, want 2", code)
	}
}

func TestReflow(t *testing.T) {
	got := reflow("one\ntwo  three\n\nfour\nfive\n")
	if want := "one two three\n\nfour five"; got != want {
		t.Errorf("reflow = %q, want %q", got, want)
	}
}

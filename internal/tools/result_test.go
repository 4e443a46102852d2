package tools

import (
	"errors"
	"reflect"
	"testing"
)

// Scenario: Create successful result
// Scenario: Create successful result with metadata
// Scenario: Create failed result
// Scenario: Create failed result with metadata
func TestResultCreation(t *testing.T) {
	ok := OK("file content here")
	if !ok.Success || ok.Output != "file content here" || ok.Error != "" || ok.Status != StatusSuccess || ok.Metadata != nil {
		t.Errorf("OK = %+v", ok)
	}
	withMeta := OK("output", "lines", 100, "bytes", 5000)
	if !withMeta.Success || withMeta.Output != "output" || !reflect.DeepEqual(withMeta.Metadata, map[string]any{"lines": 100, "bytes": 5000}) {
		t.Errorf("OK with metadata = %+v", withMeta)
	}
	fail := Fail("File not found: /foo/bar")
	if fail.Success || fail.Error != "File not found: /foo/bar" || fail.Output != nil || fail.Status != StatusFailed || fail.ErrorKind != KindExecution {
		t.Errorf("Fail = %+v", fail)
	}
	failMeta := Fail("Permission denied", "path", "/etc/shadow", "errno", 13)
	if failMeta.Success || failMeta.Error != "Permission denied" || !reflect.DeepEqual(failMeta.Metadata, map[string]any{"path": "/etc/shadow", "errno": 13}) {
		t.Errorf("Fail with metadata = %+v", failMeta)
	}
	if f := Fail("Line 3 of x"); f.Error != "Line 3 of x" || f.Success {
		t.Errorf("Fail = %+v", f)
	}
	if odd := OK(nil, "alone"); !reflect.DeepEqual(odd.Metadata, map[string]any{"alone": nil}) {
		t.Errorf("odd metadata pairs = %v", odd.Metadata)
	}
}

type stringer struct{}

func (stringer) String() string { return "from String" }

// Scenario: Convert result to display string
func TestResultDisplay(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{OK("Hello World"), "Hello World"},
		{Fail("Something went wrong"), "Error: Something went wrong"},
		{OK(nil), ""},
		{OK(stringer{}), "from String"},
		{OK(42), "42"},
		{OK([]string{"a", "b"}), "[a b]"},
		{OK(errors.New("an error value")), "an error value"},
	}
	for _, tc := range tests {
		if got := tc.r.Display(); got != tc.want {
			t.Errorf("Display(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

func TestResultWithMetaCopies(t *testing.T) {
	base := OK("x", "a", 1)
	more := base.WithMeta("b", 2)
	if len(base.Metadata) != 1 || !reflect.DeepEqual(more.Metadata, map[string]any{"a": 1, "b": 2}) {
		t.Errorf("base %v, more %v", base.Metadata, more.Metadata)
	}
}

// Scenario: Create default execution context
// Scenario: Create execution context with all options
func TestExecutionContext(t *testing.T) {
	ec := NewExecutionContext("/home/user/project")
	if ec.WorkingDir != "/home/user/project" || ec.SessionID != "" || ec.AgentID != "" || ec.DryRun ||
		ec.Timeout.Seconds() != 120 || ec.MaxOutputSize != 100000 || len(ec.Metadata) != 0 {
		t.Errorf("default context = %+v", ec)
	}
	full := ExecutionContext{WorkingDir: "/home/user/project", SessionID: "sess_abc123", AgentID: "agent_001", DryRun: true, Timeout: 60e9, MaxOutputSize: 50000}
	if got := full.withDefaults(); !reflect.DeepEqual(got, full) {
		t.Errorf("withDefaults changed set values: %+v", got)
	}
	if got := (ExecutionContext{}).withDefaults(); got.Timeout != DefaultTimeout || got.MaxOutputSize != DefaultMaxOutputSize {
		t.Errorf("zero context with defaults = %+v", got)
	}
}

// Scenario: Tool categories are defined
func TestCategories(t *testing.T) {
	want := map[Category]string{
		CategoryFile: "file", CategoryExecution: "execution", CategoryWeb: "web", CategoryTask: "task",
		CategoryNotebook: "notebook", CategoryMCP: "mcp", CategoryOther: "other",
	}
	cs := Categories()
	if len(cs) != len(want) {
		t.Fatalf("Categories() = %v", cs)
	}
	for _, c := range cs {
		if string(c) != want[c] || !c.Valid() {
			t.Errorf("category %q: want %q, valid %v", c, want[c], c.Valid())
		}
	}
	for _, c := range []Category{"", "FILE", "files"} {
		if c.Valid() {
			t.Errorf("%q is valid", c)
		}
	}
}

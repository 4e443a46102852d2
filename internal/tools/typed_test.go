package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type editArgs struct {
	OldString  string `json:"old_string" desc:"Text to replace"`
	NewString  string `json:"new_string" desc:"Replacement"`
	ReplaceAll bool   `json:"replace_all,omitempty" desc:"Replace every occurrence"`
}

type common struct {
	Verbose bool `json:"verbose,omitempty" description:"Say more"`
}

// writeArgs is a realistic tool's arguments: every kind of field.
type writeArgs struct {
	common
	FilePath string            `json:"file_path" desc:"Absolute path to the file" minLength:"1"`
	Content  string            `json:"content" desc:"File content to write"`
	Mode     string            `json:"mode" desc:"How to write" default:"overwrite" enum:"overwrite,append"`
	Lines    []int             `json:"lines,omitempty" desc:"Lines" min:"1" maxItems:"3"`
	Edits    []editArgs        `json:"edits,omitempty" desc:"Edits"`
	Tags     map[string]string `json:"tags,omitempty" jsonschema:"Labels"`
	Perm     *uint16           `json:"perm" desc:"Permission bits"`
	Level    int8              `json:"level,omitempty"`
	Ratio    float64           `json:"ratio" default:"0.5" max:"1"`
	Any      []any             `json:"any,omitempty"`
	Ptrs     []*editArgs       `json:"ptrs,omitempty"`
	Fixed    [2]string         `json:"fixed,omitzero"`
	ignored  int
	Skipped  string `json:"-"`
}

func writeTool(t *testing.T, opts ...TypedOption) Tool {
	t.Helper()
	tool, err := NewTyped("Write", "Write a file", CategoryFile, func(ctx context.Context, ec ExecutionContext, in writeArgs) (Result, error) {
		path := in.FilePath
		if !filepath.IsAbs(path) {
			path = filepath.Join(ec.WorkingDir, path)
		}
		data := in.Content
		for _, e := range in.Edits {
			data = strings.Replace(data, e.OldString, e.NewString, 1)
		}
		flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if in.Mode == "append" {
			flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(path, flag, 0o600)
		if err != nil {
			return Result{}, fmt.Errorf("cannot write %s: %w", in.FilePath, err)
		}
		defer f.Close()
		if _, err := f.WriteString(data); err != nil {
			return Result{}, err
		}
		return OK(fmt.Sprintf("Wrote %d bytes to %s", len(data), in.FilePath), "bytes", len(data), "ratio", in.Ratio, "perm", in.Perm != nil), nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestTypedParameters(t *testing.T) {
	tool := writeTool(t)
	want := `{"type":"object","properties":{` +
		`"verbose":{"type":"boolean","description":"Say more"},` +
		`"file_path":{"type":"string","description":"Absolute path to the file","minLength":1},` +
		`"content":{"type":"string","description":"File content to write"},` +
		`"mode":{"type":"string","description":"How to write","default":"overwrite","enum":["overwrite","append"]},` +
		`"lines":{"type":"array","description":"Lines","maxItems":3,"items":{"type":"integer","minimum":1}},` +
		`"edits":{"type":"array","description":"Edits","items":{"type":"object","properties":{"old_string":{"type":"string","description":"Text to replace"},"new_string":{"type":"string","description":"Replacement"},"replace_all":{"type":"boolean","description":"Replace every occurrence"}},"required":["old_string","new_string"]}},` +
		`"tags":{"type":"object","description":"Labels"},` +
		`"perm":{"type":"integer","description":"Permission bits","minimum":0,"maximum":65535},` +
		`"level":{"type":"integer","minimum":-128,"maximum":127},` +
		`"ratio":{"type":"number","default":0.5,"maximum":1},` +
		`"any":{"type":"array"},` +
		`"ptrs":{"type":"array","items":{"type":"object","properties":{"old_string":{"type":"string","description":"Text to replace"},"new_string":{"type":"string","description":"Replacement"},"replace_all":{"type":"boolean","description":"Replace every occurrence"}},"required":["old_string","new_string"]}},` +
		`"fixed":{"type":"array","maxItems":2,"items":{"type":"string"}}` +
		`},"required":["file_path","content"]}`
	if got := string(ParametersSchema(tool.Parameters())); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if tool.Name() != "Write" || tool.Description() != "Write a file" || tool.Category() != CategoryFile || IsLoopBreaking(tool) {
		t.Errorf("descriptor: %+v", Describe(tool))
	}
}

// A typed tool through the executor: validated, defaults applied, decoded.
func TestTypedExecute(t *testing.T) {
	dir := t.TempDir()
	reg := NewRegistry()
	if err := reg.Register(writeTool(t)); err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(reg)
	ec := NewExecutionContext(dir)
	r := e.ExecuteJSON(context.Background(), "Write", ec, []byte(`{"file_path":"a.txt","content":"hello world","edits":[{"old_string":"world","new_string":"forge"}],"perm":420,"tags":{"k":"v"},"lines":[1,2],"fixed":["x"],"any":[1,"a"],"ptrs":[{"old_string":"a","new_string":"b"}]}`))
	if !r.Success || r.Output != "Wrote 11 bytes to a.txt" || r.Metadata["ratio"] != 0.5 || r.Metadata["perm"] != true {
		t.Fatalf("result: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "hello forge" {
		t.Errorf("file: %q", b)
	}
	r = e.Execute(context.Background(), "Write", ec, Args{"file_path": "a.txt", "content": "!", "mode": "append"})
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); !r.Success || string(b) != "hello forge!" {
		t.Errorf("append: %+v %q", r, b)
	}
	// validation failure: the seed's message, nothing written
	r = e.Execute(context.Background(), "Write", ec, Args{"file_path": "a.txt", "content": "x", "mode": "xml"})
	if r.Success || r.Error != "Invalid value for mode: must be one of ['overwrite', 'append']" {
		t.Errorf("enum: %+v", r)
	}
	// the function's error is a failed result, never an abort
	r = e.Execute(context.Background(), "Write", ec, Args{"file_path": filepath.Join(dir, "missing", "x"), "content": "x"})
	if r.Success || !strings.HasPrefix(r.Error, "cannot write ") {
		t.Errorf("error: %+v", r)
	}
	// dry run without a description: the executor's generic line
	ec.DryRun = true
	r = e.Execute(context.Background(), "Write", ec, Args{"file_path": "b.txt", "content": "x"})
	if !r.Success || !strings.Contains(r.Display(), "[Dry Run]") {
		t.Errorf("dry run: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("dry run wrote the file")
	}
}

func TestTypedDryRunAndLoopBreaking(t *testing.T) {
	tool := writeTool(t, LoopBreaking(), WithDryRun(func(ec ExecutionContext, in writeArgs) string {
		return fmt.Sprintf("Would write %d bytes to %s", len(in.Content), in.FilePath)
	}))
	if !IsLoopBreaking(tool) {
		t.Error("not loop-breaking")
	}
	dr, ok := tool.(DryRunner)
	if !ok {
		t.Fatal("no DryRunner")
	}
	if got := dr.DryRun(ExecutionContext{}, Args{"file_path": "/path/to/file.txt", "content": strings.Repeat("x", 150)}); got != "Would write 150 bytes to /path/to/file.txt" {
		t.Errorf("dry run: %q", got)
	}
	if got := dr.DryRun(ExecutionContext{}, Args{"file_path": 5}); !strings.Contains(got, "invalid") {
		t.Errorf("dry run of bad args: %q", got)
	}
	if _, ok := writeTool(t).(DryRunner); ok {
		t.Error("a tool without WithDryRun implements DryRunner")
	}
}

// Execute called directly, bypassing validation: raw JSON numbers decode, bad
// values give a failed result of kind validation.
func TestTypedDecodeDirect(t *testing.T) {
	type in struct {
		N   int            `json:"n"`
		U   uint8          `json:"u"`
		F   float32        `json:"f"`
		M   map[string]int `json:"m"`
		P   *int           `json:"p"`
		Any []any          `json:"any"`
	}
	var got in
	tool := MustTyped("Direct", "d", CategoryOther, func(_ context.Context, _ ExecutionContext, v in) (Result, error) {
		got = v
		return OK("ok"), nil
	})
	r := tool.Execute(context.Background(), ExecutionContext{}, vArgs(t, `{"n":7,"u":200,"f":1.5,"m":{"a":1},"p":3,"any":[1,null]}`))
	if !r.Success || got.N != 7 || got.U != 200 || got.F != 1.5 || got.M["a"] != 1 || *got.P != 3 || len(got.Any) != 2 {
		t.Fatalf("%+v %+v", r, got)
	}
	bad := []string{`{"n":"7"}`, `{"u":300}`, `{"u":-1}`, `{"f":true}`, `{"m":{"a":"x"}}`, `{"m":[1]}`, `{"p":1.5}`}
	for _, b := range bad {
		r := tool.Execute(context.Background(), ExecutionContext{}, vArgs(t, b))
		if r.Success || r.ErrorKind != KindValidation || !strings.HasPrefix(r.Error, "Invalid type for ") {
			t.Errorf("%s: %+v", b, r)
		}
	}
	r = tool.Execute(context.Background(), ExecutionContext{}, Args{"m": map[string]any{"x": 1}, "n": json1()})
	if !r.Success {
		t.Errorf("go values: %+v", r)
	}
}

func json1() any { return int64(1) }

type recursive struct {
	Kids []recursive `json:"kids"`
}

func TestTypedRefusesBadDefinitions(t *testing.T) {
	ok := func(context.Context, ExecutionContext, struct{}) (Result, error) { return OK(""), nil }
	cases := []struct {
		name string
		make func() (Tool, error)
		want string
	}{
		{"not a struct", func() (Tool, error) {
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, int) (Result, error) { return OK(""), nil })
		}, "must be a struct"},
		{"channel field", func() (Tool, error) {
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, struct{ C chan int }) (Result, error) { return OK(""), nil })
		}, "field C: type chan int is not supported"},
		{"any field", func() (Tool, error) {
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, struct{ A any }) (Result, error) { return OK(""), nil })
		}, "type interface {} is not supported"},
		{"map with int keys", func() (Tool, error) {
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, struct{ M map[int]string }) (Result, error) {
				return OK(""), nil
			})
		}, "map keys must be strings"},
		{"bad default", func() (Tool, error) {
			type a struct {
				N int8 `json:"n" default:"300"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `default "300"`},
		{"bad enum", func() (Tool, error) {
			type a struct {
				B bool `json:"b" enum:"yes"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `enum "yes"`},
		{"bad min", func() (Tool, error) {
			type a struct {
				N int `json:"n" min:"x"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `min "x"`},
		{"bad maximum", func() (Tool, error) {
			type a struct {
				N int `json:"n" maximum:"ten"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `maximum "ten"`},
		{"min and minimum", func() (Tool, error) {
			type a struct {
				N int `json:"n" min:"1" minimum:"2"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, "both min and minimum given"},
		{"NaN maximum", func() (Tool, error) {
			type a struct {
				N int `json:"n" maximum:"NaN"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `maximum "NaN": not a finite number`},
		{"infinite min", func() (Tool, error) {
			type a struct {
				F float64 `json:"f" min:"-Inf"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `min "-Inf": not a finite number`},
		{"minimum wider than int8", func() (Tool, error) {
			type a struct {
				N int8 `json:"n" minimum:"-1000"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `minimum "-1000": beyond what int8 holds (-128)`},
		{"max wider than uint8 items", func() (Tool, error) {
			type a struct {
				B []uint8 `json:"b" max:"256"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `max "256": beyond what uint8 holds (255)`},
		{"min below uint", func() (Tool, error) {
			type a struct {
				N uint `json:"n" min:"-1"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `min "-1": beyond what uint holds (0)`},
		{"minimum on a string", func() (Tool, error) {
			type a struct {
				S string `json:"s" minimum:"3"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, "minimum: only numbers have one, not a string"},
		{"max on a map", func() (Tool, error) {
			type a struct {
				M map[string]int `json:"m" max:"3"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, "max: only numbers have one, not an object"},
		{"length of a number", func() (Tool, error) {
			type a struct {
				N int `json:"n" maxLength:"3"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, "maxLength: only strings and slices have a length, not an integer"},
		{"minLength and minItems", func() (Tool, error) {
			type a struct {
				S []string `json:"s" minLength:"1" minItems:"2"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, "both minLength and minItems given"},
		{"maxItems beyond an array", func() (Tool, error) {
			type a struct {
				P [3]int `json:"p" maxItems:"4"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `maxItems "4": beyond what [3]int holds (3)`},
		{"bad length", func() (Tool, error) {
			type a struct {
				S string `json:"s" maxLength:"-1"`
			}
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, a) (Result, error) { return OK(""), nil })
		}, `maxLength "-1"`},
		{"recursive", func() (Tool, error) {
			return NewTyped("T", "t", CategoryOther, func(context.Context, ExecutionContext, recursive) (Result, error) { return OK(""), nil })
		}, "recursive type"},
		{"nil function", func() (Tool, error) { return NewTyped[struct{}]("T", "t", CategoryOther, nil) }, "no function given"},
		{"dry run of another type", func() (Tool, error) {
			return NewTyped("T", "t", CategoryOther, ok, WithDryRun(func(ExecutionContext, writeArgs) string { return "" }))
		}, "WithDryRun takes"},
		{"bad name", func() (Tool, error) { return NewTyped("bad name", "t", CategoryOther, ok) }, "must match"},
	}
	for _, c := range cases {
		_, err := c.make()
		var te *ToolError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &te) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustTyped did not panic")
		}
	}()
	MustTyped[struct{}]("T", "t", CategoryOther, nil)
}

// BenchmarkTypedDecode decodes Read-like validated arguments into a struct.
func BenchmarkTypedDecode(b *testing.B) {
	type readArgs struct {
		FilePath string `json:"file_path"`
		Offset   int    `json:"offset" default:"0"`
		Limit    int    `json:"limit" default:"2000"`
	}
	tool := MustTyped("Read", "r", CategoryFile, func(context.Context, ExecutionContext, readArgs) (Result, error) { return OK(""), nil })
	args := Args{"file_path": "/a", "offset": 0, "limit": 2000}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		tool.Execute(ctx, ExecutionContext{}, args)
	}
}

// JSON Schema's names for the bounds, which the exported schema and the
// panels show, constrain a typed tool as min and max do.
func TestTypedMinimumMaximumTags(t *testing.T) {
	type in struct {
		Limit int     `json:"limit" default:"2000" minimum:"1" maximum:"10000"`
		Ratio float64 `json:"ratio,omitempty" min:"0" max:"1"`
		Small int8    `json:"small,omitempty" maximum:"100"` // narrows int8's range
	}
	tool := MustTyped("Bounds", "bounds", CategoryOther, func(_ context.Context, _ ExecutionContext, a in) (Result, error) {
		return OK(a.Limit), nil
	})
	params := tool.Parameters()
	if p := params[0]; p.Minimum == nil || *p.Minimum != 1 || p.Maximum == nil || *p.Maximum != 10000 {
		t.Fatalf("limit = %+v", p)
	}
	if p := params[1]; p.Minimum == nil || *p.Minimum != 0 || p.Maximum == nil || *p.Maximum != 1 {
		t.Fatalf("ratio = %+v", p)
	}
	r := NewRegistry()
	mustRegister(t, r, tool)
	e := NewExecutor(r)
	for raw, want := range map[string]string{
		`{"limit":0}`:              "Value for limit is below minimum: 1",
		`{"limit":10001}`:          "Value for limit exceeds maximum: 10000",
		`{"limit":5}`:              "",
		`{"limit":5,"small":127}`:  "Value for small exceeds maximum: 100",
		`{"limit":5,"small":-128}`: "",
	} {
		res := e.ExecuteJSON(context.Background(), "Bounds", NewExecutionContext(t.TempDir()), json.RawMessage(raw))
		if res.Error != want {
			t.Errorf("%s: error %q, want %q", raw, res.Error, want)
		}
	}
}

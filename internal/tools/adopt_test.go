package tools

import (
	"context"
	"reflect"
	"testing"
)

func TestAdoptions(t *testing.T) {
	as := Adoptions{
		{From: "dangerouslyDisableSandbox", Adopt: func(v any) (string, any, bool) {
			b, ok := v.(bool)
			if !ok {
				return "", nil, false
			}
			if !b {
				return "", nil, true
			}
			return "sandbox", false, true
		}},
		{From: "multiline", Adopt: DropWhen(func(v any) bool { return v == false })},
	}
	tests := []struct {
		name string
		in   Args
		want Args
	}{
		{"nothing to adopt", Args{"command": "ls"}, Args{"command": "ls"}},
		{"renamed with its value", Args{"command": "ls", "dangerouslyDisableSandbox": true}, Args{"command": "ls", "sandbox": false}},
		{"a value that changes nothing is dropped", Args{"command": "ls", "dangerouslyDisableSandbox": false}, Args{"command": "ls"}},
		{"a value it cannot honour is left for validation", Args{"dangerouslyDisableSandbox": "yes"}, Args{"dangerouslyDisableSandbox": "yes"}},
		{"the tool's own argument wins", Args{"sandbox": true, "dangerouslyDisableSandbox": true}, Args{"sandbox": true}},
		{"drop when", Args{"pattern": "x", "multiline": false}, Args{"pattern": "x"}},
		{"refused value stays", Args{"pattern": "x", "multiline": true}, Args{"pattern": "x", "multiline": true}},
		{"unknown arguments stay", Args{"pages": "1-3"}, Args{"pages": "1-3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Args{}
			for k, v := range tc.in {
				in[k] = v
			}
			got := as.AdoptArgs(in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("AdoptArgs(%v) = %v, want %v", tc.in, got, tc.want)
			}
			if !reflect.DeepEqual(in, tc.in) {
				t.Errorf("AdoptArgs modified its argument: %v", in)
			}
		})
	}
}

func TestAdoptArgsThroughLazyTool(t *testing.T) {
	r := NewRegistry()
	d := Descriptor{Name: "T", Description: "test", Category: CategoryOther, Parameters: []Parameter{{Name: "a", Type: TypeString}},
		Adopt: Adoptions{{From: "b", Adopt: func(v any) (string, any, bool) { return "a", v, true }}}}
	if err := r.RegisterLazy(d, func(_ context.Context, _ Deps) (Tool, error) {
		t.Fatal("adopting arguments must not build the tool")
		return nil, nil
	}, Singleton); err != nil {
		t.Fatal(err)
	}
	tool, _ := r.Get("T")
	if got := AdoptArgs(tool, Args{"b": "x"}); !reflect.DeepEqual(got, Args{"a": "x"}) {
		t.Errorf("AdoptArgs = %v, want a: x", got)
	}
	if got := AdoptArgs(tool, nil); got != nil {
		t.Errorf("AdoptArgs(nil) = %v", got)
	}
}

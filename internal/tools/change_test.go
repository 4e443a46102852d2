package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// previewTool is an rtTool that previews its change with preview.
type previewTool struct {
	rtTool
	preview func(ec ExecutionContext, args Args) (Change, error)
}

func (t *previewTool) PreviewChange(ec ExecutionContext, args Args) (Change, error) {
	return t.preview(ec, args)
}

// newPreviewTool has a required path and a mode defaulting to "replace";
// its preview reports what it was given.
func newPreviewTool() *previewTool {
	return &previewTool{
		rtTool: rtTool{name: "Change", params: []Parameter{
			{Name: "path", Type: TypeString, Description: "File", Required: true},
			{Name: "mode", Type: TypeString, Description: "Mode", Default: "replace"},
		}},
		preview: func(ec ExecutionContext, args Args) (Change, error) {
			if args.String("path") == "panic" {
				panic("boom")
			}
			if args.String("path") == "fail" {
				return Change{}, errors.New("it would fail")
			}
			return Change{Path: ec.WorkingDir + "/" + args.String("path"), New: []byte(args.String("mode"))}, nil
		},
	}
}

func TestPreviewChange(t *testing.T) {
	reg := NewRegistry()
	if err := reg.RegisterLazy(Describe(newPreviewTool()), func(context.Context, Deps) (Tool, error) { return newPreviewTool(), nil }, Singleton); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) { return &rtTool{name: "Lazy"}, nil }, Singleton); err != nil {
		t.Fatal(err)
	}
	broken := Descriptor{Name: "Broken", Description: "A tool that cannot be built", Category: CategoryOther}
	if err := reg.RegisterLazy(broken, func(context.Context, Deps) (Tool, error) { return nil, errors.New("no luck") }, Singleton); err != nil {
		t.Fatal(err)
	}
	lazy, _ := reg.Get("Change")
	plain, _ := reg.Get("Lazy")
	unbuilt, _ := reg.Get("Broken")
	ec := NewExecutionContext("/wd")
	for _, tc := range []struct {
		name          string
		tool          Tool
		args          Args
		want          string // the change's path and new content, or the error
		noPreview     bool
		unshownSaying string
	}{
		{"defaults are applied first", newPreviewTool(), Args{"path": "f"}, "/wd/f replace", false, ""},
		{"through a lazy tool", lazy, Args{"path": "f", "mode": "insert"}, "/wd/f insert", false, ""},
		{"the call would fail", lazy, Args{"path": "fail"}, "it would fail", false, ""},
		{"invalid arguments would fail", lazy, Args{}, "path", false, ""},
		{"a panic is a change that cannot be shown", newPreviewTool(), Args{"path": "panic"}, "", false, "boom"},
		{"a tool without previews", echo(), Args{"message": "x"}, "", true, ""},
		{"a lazy tool without previews", plain, Args{"message": "x"}, "", true, ""},
		{"a tool that cannot be built would fail", unbuilt, Args{}, "no luck", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := PreviewChange(tc.tool, ec, tc.args)
			switch {
			case tc.noPreview:
				if !errors.Is(err, ErrNoPreview) {
					t.Errorf("err = %v, want ErrNoPreview", err)
				}
			case tc.unshownSaying != "":
				if err != nil || !strings.Contains(c.Unshown, tc.unshownSaying) {
					t.Errorf("got %+v, %v; want Unshown saying %q", c, err, tc.unshownSaying)
				}
			case err != nil:
				if errors.Is(err, ErrNoPreview) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want one saying %q", err, tc.want)
				}
			default:
				if got := c.Path + " " + string(c.New); got != tc.want {
					t.Errorf("change = %q, want %q", got, tc.want)
				}
			}
		})
	}
}

package tools

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
)

// netTool sends its "host" argument's value away.
type netTool struct{ rtTool }

func (n *netTool) Egress(_ ExecutionContext, args Args) Egress {
	if h := args.String("host"); h != "" {
		return Egress{Hosts: []string{HostName(h)}}
	}
	return Egress{}
}

func TestEgressOf(t *testing.T) {
	ec := NewExecutionContext("")
	plainTool := &rtTool{name: "Plain"}
	net := &netTool{rtTool{name: "Net"}}
	cases := []struct {
		name string
		t    Tool
		args Args
		want Egress
	}{
		{"not networked", plainTool, Args{"host": "example.com"}, Egress{}},
		{"networked", net, Args{"host": "Example.COM."}, Egress{Hosts: []string{"example.com"}}},
		{"networked, refused call", net, Args{}, Egress{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := EgressOf(tc.t, ec, tc.args)
			if !slices.Equal(got.Hosts, tc.want.Hosts) || got.OpenWorld != tc.want.OpenWorld || got.Sends() != tc.want.Sends() {
				t.Errorf("EgressOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestLazyEgress(t *testing.T) {
	ec := NewExecutionContext("")
	var builds atomic.Int32
	r := NewRegistry()
	netDesc := Descriptor{Name: "Net", Description: "sends", Category: CategoryWeb, Networked: true}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(r.RegisterLazy(netDesc, func(context.Context, Deps) (Tool, error) {
		builds.Add(1)
		return &netTool{rtTool{name: "Net"}}, nil
	}, Singleton))
	must(r.RegisterLazy(Descriptor{Name: "Quiet", Description: "sends nothing", Category: CategoryOther},
		func(context.Context, Deps) (Tool, error) {
			builds.Add(1)
			return &rtTool{name: "Quiet"}, nil
		}, Singleton))
	must(r.RegisterLazy(Descriptor{Name: "Broken", Description: "cannot be built", Category: CategoryWeb, Networked: true},
		func(context.Context, Deps) (Tool, error) { return nil, errors.New("no") }, Singleton))

	quiet, _ := r.Get("Quiet")
	if e := EgressOf(quiet, ec, Args{"host": "x"}); e.Sends() || builds.Load() != 0 {
		t.Errorf("a tool not declared Networked: Egress %+v after %d builds, want none and no build", e, builds.Load())
	}
	net, _ := r.Get("Net")
	if e := EgressOf(net, ec, Args{"host": "example.com"}); !slices.Equal(e.Hosts, []string{"example.com"}) {
		t.Errorf("declared Networked: Egress %+v, want the built tool's host", e)
	}
	if !Describe(net).Networked || Describe(quiet).Networked {
		t.Errorf("Describe lost Networked: %+v %+v", Describe(net), Describe(quiet))
	}
	broken, _ := r.Get("Broken")
	if e := EgressOf(broken, ec, Args{}); !e.OpenWorld {
		t.Errorf("a networked tool that cannot be built: Egress %+v, want OpenWorld (ask rather than skip)", e)
	}
}

func TestHostName(t *testing.T) {
	for in, want := range map[string]string{"Example.COM.": "example.com", "[::1]": "::1", "localhost": "localhost"} {
		if got := HostName(in); got != want {
			t.Errorf("HostName(%q) = %q, want %q", in, got, want)
		}
	}
}

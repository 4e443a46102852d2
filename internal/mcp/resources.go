package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// The tools that read servers' resources: those a tool's result links to,
// and those a server lists. They are registered with the first server
// configured, read-only, in category mcp.
const (
	ReadResourceTool  = "ReadMcpResource"
	ListResourcesTool = "ListMcpResources"
)

// ResourceInfo is one resource a server lists.
type ResourceInfo struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	MIMEType    string `json:"mime_type,omitempty"`
	Description string `json:"description,omitempty"`
}

// Resources lists the resources of the named server, or of every server
// when server is "", connecting those not connected yet. Servers that fail
// are joined in the error; the others' resources are returned.
func (m *Manager) Resources(ctx context.Context, server string) ([]ResourceInfo, error) {
	names := m.order
	if server != "" {
		if _, ok := m.servers[server]; !ok {
			return nil, m.unknown(server)
		}
		names = []string{server}
	}
	var out []ResourceInfo
	var errs []string
	for _, name := range names {
		s := m.servers[name]
		if err := m.Connect(ctx, name); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		_, list := s.Offers()
		for _, r := range list {
			out = append(out, ResourceInfo{Server: name, URI: r.URI, Name: r.Name, MIMEType: r.MIMEType, Description: r.Description})
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// ReadResource reads one resource of the named server: its text, and
// binary contents saved to files (named in the text) as tool results'
// are.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) (string, error) {
	s, ok := m.servers[server]
	if !ok {
		return "", m.unknown(server)
	}
	cs, listed, err := s.Session(ctx)
	if err != nil {
		return "", err
	}
	if listed {
		_ = m.sync(s)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("MCP server %s: read %s: %w", server, uri, err)
	}
	w := contentWriter{server: server, media: m.media}
	var parts []string
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		if c.Text != "" || len(c.Blob) == 0 {
			parts = append(parts, c.Text)
			continue
		}
		parts = append(parts, w.saved("resource", c.URI, c.MIMEType, c.Blob))
	}
	return strings.Join(parts, "\n"), nil
}

// resourceTool is ReadMcpResource or ListMcpResources.
type resourceTool struct {
	m    *Manager
	list bool
}

func (t *resourceTool) Name() string {
	if t.list {
		return ListResourcesTool
	}
	return ReadResourceTool
}

func (t *resourceTool) Description() string {
	if t.list {
		return "List the resources (files, records, documents) that the MCP servers offer, by server and URI; read one with " + ReadResourceTool + "."
	}
	return "Read a resource of an MCP server by its URI: one a tool's result links to, or one " + ListResourcesTool + " lists."
}

func (t *resourceTool) Category() tools.Category { return tools.CategoryMCP }

func (t *resourceTool) Parameters() []tools.Parameter {
	names := make([]any, len(t.m.order))
	for i, n := range t.m.order {
		names[i] = n
	}
	server := tools.Parameter{Name: "server", Type: tools.TypeString, Description: "The MCP server's name.", Enum: names, Required: !t.list}
	if t.list {
		server.Description = "Only this MCP server's resources; all servers' when left out."
		return []tools.Parameter{server}
	}
	return []tools.Parameter{server, {Name: "uri", Type: tools.TypeString, Description: "The resource's URI.", Required: true}}
}

// IsReadOnly: reading a resource changes nothing here.
func (t *resourceTool) IsReadOnly() bool { return true }

// Egress: the server receives the URI, and a remote one is beyond the
// machine.
func (t *resourceTool) Egress(tools.ExecutionContext, tools.Args) tools.Egress {
	return tools.Egress{OpenWorld: true}
}

func (t *resourceTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	server := args.String("server")
	if t.list {
		list, err := t.m.Resources(ctx, server)
		if err != nil && len(list) == 0 {
			return tools.Fail(err.Error())
		}
		var b strings.Builder
		for _, r := range list {
			fmt.Fprintf(&b, "%s %s", r.Server, r.URI)
			if r.Name != "" && r.Name != r.URI {
				b.WriteString(" (" + r.Name + ")")
			}
			if r.MIMEType != "" {
				b.WriteString(" " + r.MIMEType)
			}
			if r.Description != "" {
				b.WriteString(": " + oneLine(r.Description))
			}
			b.WriteByte('\n')
		}
		if len(list) == 0 {
			b.WriteString("No resources.")
		}
		if err != nil {
			b.WriteString("\n(some servers failed: " + err.Error() + ")")
		}
		return tools.OK(strings.TrimRight(b.String(), "\n"), "resources", list)
	}
	text, err := t.m.ReadResource(ctx, server, args.String("uri"))
	if err != nil {
		if ctx.Err() != nil {
			return ended(ctx, 0)
		}
		return tools.Fail(err.Error())
	}
	return tools.OK(text, "server", server, "uri", args.String("uri"))
}

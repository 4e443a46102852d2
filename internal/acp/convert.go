package acp

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// mcpServers are the editor's MCP servers in forge's terms. An SSE server
// is refused (initialize does not offer SSE), as is one without a name.
func mcpServers(in []sdk.McpServer) ([]MCPServer, error) {
	var out []MCPServer
	for i, s := range in {
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, e := range s.Stdio.Env {
				env[e.Name] = e.Value
			}
			out = append(out, MCPServer{Name: s.Stdio.Name, Command: s.Stdio.Command, Args: s.Stdio.Args, Env: env})
		case s.Http != nil:
			out = append(out, MCPServer{Name: s.Http.Name, URL: s.Http.Url, Headers: headers(s.Http.Headers)})
		case s.Sse != nil:
			return nil, fmt.Errorf("mcpServers[%d] (%s): forge does not speak MCP over SSE; give its streamable HTTP URL", i, s.Sse.Name)
		default:
			return nil, fmt.Errorf("mcpServers[%d]: a server is stdio or http", i)
		}
		if last := out[len(out)-1]; strings.TrimSpace(last.Name) == "" {
			return nil, fmt.Errorf("mcpServers[%d]: a server needs a name", i)
		}
	}
	return out, nil
}

func headers(hs []sdk.HttpHeader) map[string]string {
	m := map[string]string{}
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}

// availableCommands are the commands as the editor lists them.
func availableCommands(cmds []Command) []sdk.AvailableCommand {
	out := []sdk.AvailableCommand{}
	for _, c := range cmds {
		ac := sdk.AvailableCommand{Name: c.Name, Description: c.Description}
		if c.Hint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: c.Hint}}
		}
		out = append(out, ac)
	}
	return out
}

// errNoImages refuses the content forge does not take yet.
var errNoImages = errors.New("forge takes text, resource links and embedded text resources; images and audio are not taken")

// promptText is the editor's prompt as one text for the agent: text as it
// is, a link to a file as @path (the model reads it if it needs it), an
// embedded resource with its text in a <context> block.
func promptText(blocks []sdk.ContentBlock) (string, error) {
	var b strings.Builder
	for _, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			b.WriteString(mention(c.ResourceLink.Uri, c.ResourceLink.Name))
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			fmt.Fprintf(&b, "\n<context ref=%q>\n%s\n</context>\n", r.Uri, strings.TrimRight(r.Text, "\n"))
		case c.Resource != nil && c.Resource.Resource.BlobResourceContents != nil:
			b.WriteString(mention(c.Resource.Resource.BlobResourceContents.Uri, ""))
		default:
			return "", errNoImages
		}
	}
	return b.String(), nil
}

// mention is how a prompt names a resource: @path for a file, the URI
// otherwise.
func mention(uri, name string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" && u.Path != "" {
		return "@" + filepath.FromSlash(u.Path)
	}
	if name != "" && name != uri {
		return "[" + name + "](" + uri + ")"
	}
	return uri
}

package mcp

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/media"
	"github.com/forgehq/forge/internal/tools"
)

// toResult turns a tools/call answer into a forge Result: the text of every
// content block, one per line (images, audio and binary resources as a
// short description, since a terminal cannot show the bytes), isError as a
// failed result. Images also go to the model as pictures (Result.Images),
// scaled down past the providers' limits. Structured content goes into the
// metadata, where --output json shows it whole.
func toResult(server, tool string, res *mcp.CallToolResult) tools.Result {
	var parts []string
	var images []tools.Image
	for _, c := range res.Content {
		text := contentText(c)
		if data, ok := imageData(c); ok {
			fit, err := media.Fit(data)
			if err != nil {
				text += " (not shown: " + err.Error() + ")"
			} else {
				images = append(images, tools.Image{MediaType: fit.MediaType, Data: fit.Data})
			}
		}
		parts = append(parts, text)
	}
	text := strings.Join(parts, "\n")
	kv := []any{"server", server, "mcp_tool", tool}
	if res.StructuredContent != nil {
		kv = append(kv, "structured", res.StructuredContent)
	}
	if res.IsError {
		if text == "" {
			text = "the tool reported an error without a message"
		}
		r := tools.Fail(text, kv...)
		r.Images = images
		return r
	}
	r := tools.OK(text, kv...)
	r.Images = images
	return r
}

// imageData is the bytes of an image block, or of an embedded resource
// whose blob is an image.
func imageData(c mcp.Content) ([]byte, bool) {
	switch c := c.(type) {
	case *mcp.ImageContent:
		return c.Data, len(c.Data) > 0
	case *mcp.EmbeddedResource:
		if r := c.Resource; r != nil && len(r.Blob) > 0 && strings.HasPrefix(r.MIMEType, "image/") {
			return r.Blob, true
		}
	}
	return nil, false
}

// contentText is one content block as text.
func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data))
	case *mcp.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[resource]"
		}
		if r.Text != "" || len(r.Blob) == 0 {
			return r.Text
		}
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", r.URI, orUnknown(r.MIMEType), len(r.Blob))
	case *mcp.ResourceLink:
		if c.Name != "" {
			return fmt.Sprintf("[resource link: %s (%s)]", c.URI, c.Name)
		}
		return fmt.Sprintf("[resource link: %s]", c.URI)
	case nil:
		return ""
	}
	return fmt.Sprintf("[%T content]", c)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/media"
	"github.com/forgehq/forge/internal/tools"
)

// toResult turns a tools/call answer into a forge Result: the text of every
// content block, one per line; images, audio and binary resources written
// to files under mediaDir (a person can open a file), each named in the
// text with its type and size; a resource link as its URI with the way to
// read it; isError as a failed result. Images also go to the model as
// pictures (Result.Images), scaled down past the providers' limits.
// Structured content and the saved files go into the metadata, where
// --output json shows them whole.
func toResult(server, tool string, res *mcp.CallToolResult, mediaDir string) tools.Result {
	c := contentWriter{server: server, media: mediaDir}
	var parts []string
	var images []tools.Image
	for _, b := range res.Content {
		text := c.text(b)
		if data, ok := imageData(b); ok {
			fit, err := media.Fit(data)
			if err != nil {
				text += " (not shown to the model: " + err.Error() + ")"
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
	if len(c.files) > 0 {
		kv = append(kv, "files", c.files)
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

// savedFile is one content block written to a file.
type savedFile struct {
	Path     string `json:"path"`
	MIMEType string `json:"mime_type"`
	Bytes    int    `json:"bytes"`
	URI      string `json:"uri,omitempty"`
}

// contentWriter turns content blocks into text, saving their bytes.
type contentWriter struct {
	server string
	media  string
	files  []savedFile
}

// text is one content block as text.
func (w *contentWriter) text(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return w.saved("image", "", c.MIMEType, c.Data)
	case *mcp.AudioContent:
		return w.saved("audio", "", c.MIMEType, c.Data)
	case *mcp.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[resource]"
		}
		if r.Text != "" || len(r.Blob) == 0 {
			return r.Text
		}
		return w.saved("resource", r.URI, r.MIMEType, r.Blob)
	case *mcp.ResourceLink:
		name := ""
		if c.Name != "" && c.Name != c.URI {
			name = " (" + c.Name + ")"
		}
		return fmt.Sprintf("[resource link: %s%s; read it with %s server=%s uri=%s]", c.URI, name, ReadResourceTool, w.server, c.URI)
	case nil:
		return ""
	}
	return fmt.Sprintf("[%T content]", c)
}

// saved writes data to a file and describes it: [image: image/png, 18
// bytes, saved to ~/.cache/forge/mcp/1f2e....png].
func (w *contentWriter) saved(kind, uri, mimeType string, data []byte) string {
	head := kind + ": "
	if uri != "" {
		head += uri + ", "
	}
	head += fmt.Sprintf("%s, %d bytes", orUnknown(mimeType), len(data))
	path, err := saveMedia(w.media, mimeType, data)
	if err != nil {
		return fmt.Sprintf("[%s, not saved: %v]", head, err)
	}
	w.files = append(w.files, savedFile{Path: path, MIMEType: mimeType, Bytes: len(data), URI: uri})
	return fmt.Sprintf("[%s, saved to %s]", head, path)
}

// saveMedia writes data, readable by its owner only, to dir (the user's
// cache directory's forge/mcp when ""), named by its hash so that the same
// picture is one file however often it comes.
func saveMedia(dir, mimeType string, data []byte) (string, error) {
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(cache, "forge", "mcp")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	path := filepath.Join(dir, hex.EncodeToString(sum[:12])+extension(mimeType))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, ".part-*")
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", werr
	}
	return path, nil
}

// extension is the file extension of a MIME type, ".bin" when unknown.
func extension(mimeType string) string {
	base, _, _ := strings.Cut(mimeType, ";")
	switch strings.TrimSpace(strings.ToLower(base)) {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "audio/wav", "audio/x-wav":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	}
	if exts, err := mime.ExtensionsByType(base); err == nil && len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

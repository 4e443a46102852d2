package llm

import (
	"fmt"
	"slices"
	"strings"
)

// Image is a picture shown to a model: its bytes and their media type.
type Image struct {
	// MediaType is image/png, image/jpeg, image/gif or image/webp: the
	// types every provider forge speaks takes.
	MediaType string `json:"media_type"`
	// Data is the image file's bytes (base64 in JSON).
	Data []byte `json:"data"`
}

// textOnly are model families, as local servers name them, known to take
// no images: a conversation's images reach them as a note instead.
var textOnly = []string{
	"gpt-oss", "deepseek-r1", "deepseek-v3", "deepseek-chat", "deepseek-reasoner", "deepseek-coder",
	"qwen3", "qwen3-coder", "qwen2.5", "qwen2.5-coder", "qwq", "llama3", "llama3.1", "llama3.3", "codellama",
	"mistral", "devstral", "phi4", "glm-4.5", "kimi-k2",
}

// TakesImages says whether a model may be shown images: false for one
// known not to take them, true otherwise (a model forge does not know is
// given the images; its server says if it cannot).
func TakesImages(model string) bool {
	if info, ok := LookupModel(model); ok {
		return !info.NoImages
	}
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name, _, _ = strings.Cut(name, ":") // Ollama's size tag: qwen3:8b
	return !slices.Contains(textOnly, name)
}

// WithoutImages is msgs with every image replaced by a note that names
// it, for a model that takes none; msgs itself is left as it is. It
// returns msgs when there is no image.
func WithoutImages(msgs []Message, model string) []Message {
	var out []Message
	for i := range msgs {
		m := &msgs[i]
		if len(m.Images) == 0 && (m.Result == nil || len(m.Result.Images) == 0) {
			continue
		}
		if out == nil {
			out = slices.Clone(msgs)
		}
		c := *m
		if len(c.Images) > 0 {
			c.Text = strings.TrimSpace(c.Text + "\n\n" + imageNote(c.Images, model))
			c.Images = nil
		}
		if c.Result != nil && len(c.Result.Images) > 0 {
			r := *c.Result
			r.Content = strings.TrimSpace(r.Content + "\n\n" + imageNote(r.Images, model))
			r.Images = nil
			c.Result = &r
		}
		out[i] = c
	}
	if out == nil {
		return msgs
	}
	return out
}

// imageNote tells a model that takes no images what it was not shown.
func imageNote(images []Image, model string) string {
	kinds := make([]string, len(images))
	for i, im := range images {
		kinds[i] = strings.TrimPrefix(im.MediaType, "image/")
	}
	return fmt.Sprintf("[%d image(s) (%s) not shown: %s does not take images]", len(images), strings.Join(kinds, ", "), model)
}

package llmtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// openAIPart is one part of a message's content array.
type openAIPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// openAIImages are the images of a content array given as data URLs.
func openAIImages(raw json.RawMessage) []llm.Image {
	var parts []openAIPart
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []llm.Image
	for _, p := range parts {
		if p.Type != "image_url" || p.ImageURL == nil {
			continue
		}
		if im, ok := dataURL(p.ImageURL.URL); ok {
			out = append(out, im)
		}
	}
	return out
}

// dataURL decodes a data:MEDIA;base64,DATA URL.
func dataURL(u string) (llm.Image, bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return llm.Image{}, false
	}
	mt, data, ok := strings.Cut(rest, ";base64,")
	if !ok {
		return llm.Image{}, false
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return llm.Image{}, false
	}
	return llm.Image{MediaType: mt, Data: b}, true
}

// checkOpenAIContent checks message contents as the API does: a tool or
// assistant message's content is text (a string or text parts); a user
// message's parts are text or images given as http(s) or base64 data URLs
// of the image types the API takes.
func checkOpenAIContent(msgs []openAIMessage) rejection {
	for i, m := range msgs {
		var parts []openAIPart
		if len(m.Content) == 0 || m.Content[0] != '[' || json.Unmarshal(m.Content, &parts) != nil {
			continue
		}
		for j, p := range parts {
			switch {
			case p.Type == "text":
			case p.Type == "image_url" && m.Role == "user":
				if p.ImageURL == nil {
					return rejection(fmt.Sprintf("Missing required parameter: 'messages[%d].content[%d].image_url'.", i, j))
				}
				im, ok := dataURL(p.ImageURL.URL)
				if !strings.HasPrefix(p.ImageURL.URL, "http") && (!ok || !imageType(im.MediaType)) {
					return rejection(fmt.Sprintf("Invalid 'messages[%d].content[%d].image_url.url': expected a URL or a base64 data URL of a PNG, JPEG, GIF or WebP image.", i, j))
				}
			default:
				return rejection(fmt.Sprintf("Invalid value: '%s'. Supported values are: 'text' for messages[%d].content[%d].type with role '%s'.", p.Type, i, j, m.Role))
			}
		}
	}
	return ""
}

// imageType says the providers take images of the media type.
func imageType(mt string) bool {
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// missingReasoning is DeepSeek's refusal of a tool round whose thinking
// did not come back: every assistant message with tool calls after the
// last user message must carry it.
func missingReasoning(r *Request) rejection {
	last := 0
	for i, m := range r.Messages {
		if m.Role == llm.RoleUser {
			last = i
		}
	}
	for i := last; i < len(r.Messages); i++ {
		if m := r.Messages[i]; m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 && len(m.Reasoning) == 0 {
			return rejection(fmt.Sprintf("Missing `reasoning_content` field in the assistant message at message index %d", i))
		}
	}
	return ""
}

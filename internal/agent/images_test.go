package agent

import (
	"bytes"
	"context"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/session"
)

// redDot is a PNG of one red pixel.
var redDot, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

// Read of a screenshot shows the model the picture: in the tool result on
// Anthropic's wire, in a user message after the tool messages on OpenAI's
// (which takes no image in a tool message); the fake checks both forms.
// A model known to take no images is told of it in words instead.
func TestReadShowsImage(t *testing.T) {
	for _, wire := range wires {
		for _, model := range []string{"m", "qwen3:8b"} {
			t.Run(string(wire)+" "+model, func(t *testing.T) {
				h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
					{ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "shot.png"}`)}},
					{Text: "A red dot."},
				}})
				h.cfg.ModelName = model
				h.file("shot.png", string(redDot))
				if d := h.run(context.Background(), "what is in shot.png?"); d.Reason != ReasonStop {
					t.Fatalf("run: %+v", d)
				}
				req := h.lastRequest()
				if req.Rejected != "" {
					t.Fatal(req.Rejected)
				}
				var images []llm.Image
				var texts []string
				for _, m := range req.Messages {
					images = append(images, m.Images...)
					texts = append(texts, m.Text)
					if m.Result != nil {
						images = append(images, m.Result.Images...)
						texts = append(texts, m.Result.Content)
					}
				}
				all := strings.Join(texts, "\n")
				if !strings.Contains(all, "(PNG, 1×1, 70 bytes)") {
					t.Errorf("the result's text: %q", all)
				}
				if model == "m" {
					if len(images) != 1 || images[0].MediaType != "image/png" || !bytes.Equal(images[0].Data, redDot) {
						t.Errorf("images sent: %+v", images)
					}
					return
				}
				if len(images) != 0 || !strings.Contains(all, "[1 image(s) (png) not shown: qwen3:8b does not take images]") {
					t.Errorf("a text-only model got %d images and %q", len(images), all)
				}
			})
		}
	}
}

// An image attached to a prompt goes with it on both wires, and the
// session log keeps it for a resume.
func TestPromptImage(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{{Text: "A red dot."}, {Text: "Still a dot."}}})
			store := session.NewStore(filepath.Join(t.TempDir(), "s"), func() time.Time { return time.Unix(0, 0) })
			log, err := store.Create(session.Meta{ID: "sess_i", CWD: h.dir})
			if err != nil {
				t.Fatal(err)
			}
			h.conv.Log = log
			h.conv.Attach(llm.Image{MediaType: "image/png", Data: redDot})
			if d := h.run(context.Background(), "what is this?"); d.Reason != ReasonStop {
				t.Fatalf("run: %+v", d)
			}
			if ims, text := promptOf(h.lastRequest()); len(ims) != 1 || !bytes.Equal(ims[0].Data, redDot) || text != "what is this?" || len(h.conv.Attached()) != 0 {
				t.Fatalf("the prompt went as %q with %+v", text, ims)
			}
			log.Close()
			log, st, err := store.Resume("sess_i")
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			h.conv = Conversation{Messages: st.Messages, Log: log}
			h.run(context.Background(), "sure?")
			if ims, text := promptOf(h.lastRequest()); len(ims) != 1 || !bytes.Equal(ims[0].Data, redDot) || text != "what is this?" {
				t.Errorf("after a resume the prompt went as %q with %+v", text, ims)
			}
		})
	}
}

// promptOf is the first prompt of a request: its images and text (the
// fake reads Anthropic's blocks as a message each).
func promptOf(r llmtest.Request) ([]llm.Image, string) {
	var ims []llm.Image
	var text string
	for _, m := range r.Messages {
		if m.Role != llm.RoleUser {
			break
		}
		ims, text = append(ims, m.Images...), text+m.Text
	}
	return ims, text
}

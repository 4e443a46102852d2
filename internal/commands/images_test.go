package commands

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
)

// redDot is a PNG of one red pixel.
var redDot, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

func TestImageMentions(t *testing.T) {
	cases := []struct {
		prompt string
		want   []string
	}{
		{"what is in shot.png?", []string{"shot.png"}},
		{"compare @a.PNG and ./b.jpg, please", []string{"a.PNG", "./b.jpg"}},
		{`look at /tmp/Screen\ Shot\ 1.png`, []string{"/tmp/Screen Shot 1.png"}},
		{`look at '/tmp/Screen Shot 2.webp' now`, []string{"/tmp/Screen Shot 2.webp"}},
		{`"~/Pictures/a b.gif"`, []string{"~/Pictures/a b.gif"}},
		{"twice x.jpeg x.jpeg", []string{"x.jpeg"}},
		{"not an image: main.go, png files, file.pngx", nil},
		{"", nil},
	}
	for _, c := range cases {
		if got := imageMentions(c.prompt); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.prompt, got, c.want)
		}
	}
}

// FuzzImageMentions: any prompt gives paths without a panic, each one
// found once, ending in an image's extension.
func FuzzImageMentions(f *testing.F) {
	for _, s := range []string{"a.png", `'x y.jpg'`, `a\ b.gif`, `"q.webp"`, `@@\.png`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		seen := map[string]bool{}
		for _, p := range imageMentions(prompt) {
			ext := strings.ToLower(p[strings.LastIndexByte(p, '.')+1:])
			if seen[p] || !slices.Contains([]string{"png", "jpg", "jpeg", "gif", "webp"}, ext) {
				t.Errorf("%q from %q", p, prompt)
			}
			seen[p] = true
		}
	})
}

// An image a prompt names is attached to it as a picture, said in a
// notice; one that is not an image, or that forge would not read, is
// said and left out; a path to nothing is left alone.
func TestAttachImages(t *testing.T) {
	env, out := mentionEnv(t, map[string]string{
		"shot.png":        string(redDot),
		"fake.png":        "not really",
		"secret/key.png":  string(redDot),
		"Screen Shot.png": string(redDot),
	})
	var said []string
	env.attachImages(context.Background(), `what is in @shot.png and Screen\ Shot.png? also fake.png, secret/key.png and gone.png`, "claude-sonnet-4-5", func(e agent.Event) {
		if e.Type != agent.EventNotice {
			t.Errorf("a %s event, want notices only", e.Type)
		}
		said = append(said, e.Text)
	})
	want := []string{
		"attached image shot.png (1×1, 70 bytes)",
		"attached image Screen Shot.png (1×1, 70 bytes)",
		"fake.png: cannot be shown: not a PNG, JPEG, GIF or WebP image; not attached",
		"secret/key.png: ",
	}
	if len(said) != len(want) {
		t.Fatalf("said %q, want %d notices", said, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(said[i], w) {
			t.Errorf("notice %d is %q, want %q", i, said[i], w)
		}
	}
	if out.Len() > 0 {
		t.Errorf("printed past the run's view:\n%s", out)
	}
	if ims := env.Conversation.Attached(); len(ims) != 2 || ims[0].MediaType != "image/png" || len(ims[1].Data) != 70 {
		t.Errorf("the next prompt carries %+v", ims)
	}
}

// A model known not to take images is told of them in words, and the
// person is told so; a prompt that attaches none says nothing of it.
func TestAttachImagesTextOnlyModel(t *testing.T) {
	env, _ := mentionEnv(t, map[string]string{"shot.png": string(redDot)})
	for _, tt := range []struct {
		prompt, model string
		want          []string
	}{
		{"what is in shot.png", "deepseek-chat", []string{"attached image shot.png (1×1, 70 bytes)", "deepseek-chat does not take images: it is told of them in words"}},
		{"what is in shot.png", "gpt-5", []string{"attached image shot.png (1×1, 70 bytes)"}},
		{"what is in gone.png", "deepseek-chat", nil},
	} {
		var said []string
		env.attachImages(context.Background(), tt.prompt, tt.model, func(e agent.Event) { said = append(said, e.Text) })
		if !slices.Equal(said, tt.want) {
			t.Errorf("%s to %s: said %q, want %q", tt.prompt, tt.model, said, tt.want)
		}
	}
}

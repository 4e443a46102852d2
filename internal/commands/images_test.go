package commands

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"
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

// An image a prompt names is attached to it as a picture, said on the
// terminal; one that is not an image, or that forge would not read, is
// said and left out; a path to nothing is left alone.
func TestAttachImages(t *testing.T) {
	env, out := mentionEnv(t, map[string]string{
		"shot.png":        string(redDot),
		"fake.png":        "not really",
		"secret/key.png":  string(redDot),
		"Screen Shot.png": string(redDot),
	})
	env.attachImages(context.Background(), `what is in @shot.png and Screen\ Shot.png? also fake.png, secret/key.png and gone.png`)
	got := out.String()
	for _, want := range []string{
		"attached image shot.png (1×1, 70 bytes)",
		"attached image Screen Shot.png (1×1, 70 bytes)",
		"fake.png: cannot be shown: not a PNG, JPEG, GIF or WebP image; not attached",
		"secret/key.png: ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the terminal lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "gone.png") {
		t.Errorf("a path to nothing was said:\n%s", got)
	}
	if ims := env.Conversation.Attached(); len(ims) != 2 || ims[0].MediaType != "image/png" || len(ims[1].Data) != 70 {
		t.Errorf("the next prompt carries %+v", ims)
	}
}

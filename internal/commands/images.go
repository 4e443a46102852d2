package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/media"
	"github.com/forgehq/forge/internal/render"
)

// maxPromptImages bounds the images one prompt attaches.
const maxPromptImages = 8

// imagePath is a path to an image file in a prompt, as typed or as a
// terminal pastes a file dropped on it: in single or double quotes, or
// with its spaces escaped, or @path.
var imagePath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|\s)(?:'([^']+\.(?:png|jpe?g|gif|webp))'|"([^"]+\.(?:png|jpe?g|gif|webp))"|@?((?:[^\s'"\\]|\\.)+\.(?:png|jpe?g|gif|webp)))(?:$|[\s,.;:!?)])`)
})

// imageMentions are the paths of the images a prompt names, unquoted and
// unescaped, in order, each once.
func imageMentions(prompt string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range imagePath().FindAllStringSubmatch(prompt, -1) {
		p := m[1] + m[2]
		if p == "" {
			p = unescapeSpaces(m[3])
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// unescapeSpaces undoes a terminal's backslash escapes of a dropped path
// ("Screen\ Shot.png").
func unescapeSpaces(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isImageFile says abs names an image file a prompt attaches as a picture.
func isImageFile(abs string) bool {
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
	default:
		return false
	}
	fi, err := os.Stat(abs)
	return err == nil && fi.Mode().IsRegular()
}

// attachImages attaches to the next prompt the image files text names (a
// path, quoted or with escaped spaces as a dropped file is pasted, or
// @path), each said through show with its size, scaled down past the
// models' limits; an image that cannot be shown, or that forge would not
// let Read read unasked, is said and left out. A path that names no file
// is left alone. The shell's prompt lines and forge ask both come here,
// once the run's view is open, so that in JSON each is a notice event.
// When model is known not to take images it is told of them in words,
// and that is said too.
func (e *Env) attachImages(ctx context.Context, text, model string, show func(agent.Event)) {
	var images []llm.Image
	for _, p := range imageMentions(text) {
		abs := p
		if strings.HasPrefix(abs, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				abs = filepath.Join(home, abs[2:])
			}
		}
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(e.workingDir(), abs)
		}
		abs = filepath.Clean(abs)
		if !isImageFile(abs) {
			continue
		}
		im, said, ok := e.promptImage(ctx, p, abs, len(images))
		notice(show, said)
		if ok {
			images = append(images, im)
		}
	}
	if len(images) > 0 && !llm.TakesImages(model) {
		notice(show, model+" does not take images: it is told of them in words")
	}
	e.Conversation.Attach(images...)
}

// promptImage reads the image at abs for the model, with the line that
// says so, or the line that says why not.
func (e *Env) promptImage(ctx context.Context, name, abs string, n int) (llm.Image, string, bool) {
	refused := func(why string) (llm.Image, string, bool) { return llm.Image{}, name + ": " + why, false }
	if n >= maxPromptImages {
		return refused(fmt.Sprintf("a prompt attaches at most %d images; not attached", maxPromptImages))
	}
	if fi, err := os.Stat(abs); err == nil && fi.Size() > 32<<20 {
		return refused(fmt.Sprintf("is %s, too large for an image; not attached", render.ByteSize(int(fi.Size()))))
	}
	if why := e.readRefusal(ctx, name, abs); why != "" {
		return refused(why)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return refused("cannot read it (" + err.Error() + "); not attached")
	}
	fit, err := media.Fit(data)
	if err != nil {
		return refused("cannot be shown: " + err.Error() + "; not attached")
	}
	what := fmt.Sprintf("%d×%d", fit.Width, fit.Height)
	if fit.Scaled {
		what = fmt.Sprintf("%d×%d, scaled to %d×%d", fit.OrigWidth, fit.OrigHeight, fit.Width, fit.Height)
	}
	said := fmt.Sprintf("attached image %s (%s, %s)", name, what, render.ByteSize(len(fit.Data)))
	return llm.Image{MediaType: fit.MediaType, Data: fit.Data}, said, true
}

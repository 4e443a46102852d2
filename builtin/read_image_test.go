package builtin

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// Read of an image returns the picture for the model, a line saying what
// it is, and a brief for the person; one too large is scaled down; a
// damaged one is refused with the reason.
func TestReadImage(t *testing.T) {
	dot, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	var wide bytes.Buffer
	if err := png.Encode(&wide, image.NewGray(image.Rect(0, 0, 9000, 10))); err != nil {
		t.Fatal(err)
	}
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"dot.png": string(dot), "wide.png": wide.String(), "bad.png": string(dot[:30])})

	r := execFile(t, dir, "Read", tools.Args{"file_path": "dot.png"})
	path := filepath.Join(dir, "dot.png")
	if !r.Success || r.Display() != "Image "+path+" (PNG, 1×1, 70 bytes)" || len(r.Images) != 1 ||
		r.Images[0].MediaType != "image/png" || !bytes.Equal(r.Images[0].Data, dot) {
		t.Fatalf("%q %+v", r.Display(), r.Images)
	}
	if p := (readPresenter{}).Present(nil, r); p.Brief != "png image, 1×1" {
		t.Errorf("brief %q", p.Brief)
	}

	r = execFile(t, dir, "Read", tools.Args{"file_path": "wide.png"})
	if !r.Success || !strings.Contains(r.Display(), "(9000×10, ") || !strings.HasSuffix(r.Display(), "scaled to 1568×1 JPEG to fit the model's limits") ||
		len(r.Images) != 1 || r.Images[0].MediaType != "image/jpeg" {
		t.Errorf("%q", r.Display())
	}
	wantFail(t, execFile(t, dir, "Read", tools.Args{"file_path": "bad.png"}), "Cannot show image "+filepath.Join(dir, "bad.png")+": a damaged image/png image")
}

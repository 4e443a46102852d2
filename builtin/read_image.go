package builtin

import (
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/internal/media"
	"github.com/forgehq/forge/internal/tools"
)

// maxImageFile bounds the image files Read loads to scale down: a
// screenshot is a few megabytes; anything much larger is not a picture
// to show a model.
const maxImageFile = 32 << 20

// readImage is Read of a PNG, JPEG, GIF or WebP file: the picture itself
// for the model (scaled down past the providers' limits), with a line
// that says what it is; or why it cannot be shown.
func readImage(r io.Reader, path string, size int64) tools.Result {
	if size > maxImageFile {
		return tools.Fail(fmt.Sprintf("Cannot show image %s: %d bytes is past the %d MB forge reads of an image", path, size, maxImageFile>>20),
			"file_path", path, "bytes", size)
	}
	data, err := io.ReadAll(io.LimitReader(r, maxImageFile+1))
	if err != nil {
		return tools.Fail(fmt.Sprintf("Cannot read %s: %v", path, err), "file_path", path)
	}
	fit, err := media.Fit(data)
	if err != nil {
		return tools.Fail(fmt.Sprintf("Cannot show image %s: %v", path, err), "file_path", path, "bytes", len(data))
	}
	kind := strings.ToUpper(strings.TrimPrefix(fit.MediaType, "image/"))
	text := fmt.Sprintf("Image %s (%s, %d×%d, %s)", path, kind, fit.Width, fit.Height, byteSize(len(data)))
	if fit.Scaled {
		text = fmt.Sprintf("Image %s (%d×%d, %s), scaled to %d×%d %s to fit the model's limits", path,
			fit.OrigWidth, fit.OrigHeight, byteSize(len(data)), fit.Width, fit.Height, kind)
	}
	res := tools.OK(text, "file_path", path, "image", fit.MediaType, "width", fit.Width, "height", fit.Height, "bytes", len(data))
	res.Images = []tools.Image{{MediaType: fit.MediaType, Data: fit.Data}}
	return res
}

// byteSize is a size as a person reads it.
func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

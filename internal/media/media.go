// Package media makes images fit to show a model: it recognises the image
// types every provider forge speaks takes (PNG, JPEG, GIF, WebP), reads
// their size without decoding them, and scales down a picture too large
// for the providers' limits, or says clearly why it cannot.
package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
)

// The providers' limits on one image: Anthropic refuses an image over
// 5 MB (measured in base64, which is 4/3 of the bytes) or 8,000 pixels on
// a side, and scales down anything longer than 1,568 pixels on its long
// side, which only costs the upload; OpenAI's limits are looser.
const (
	MaxBytes = 5 * 1000 * 1000 * 3 / 4
	MaxSide  = 8000
	// FitSide is the long side a picture too large is scaled to: the
	// largest the models look at without scaling it themselves.
	FitSide = 1568
	// maxPixels bounds the pictures forge decodes to scale them (an 8K
	// screenshot has 33 million): a small file may claim any size, and
	// decoding takes 4 bytes a pixel.
	maxPixels = 40_000_000
)

// MediaType is the media type of an image the providers take, "" for
// anything else.
func MediaType(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return t
	}
	return ""
}

// Size is an image's width and height in pixels, read from its header.
func Size(mediaType string, data []byte) (w, h int, err error) {
	if mediaType == "image/webp" {
		return webpSize(data)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, err
	}
	return cfg.Width, cfg.Height, nil
}

// errWebP is the header of a WebP file forge cannot read.
var errWebP = errors.New("not a WebP header forge can read")

// webpSize reads the size from a WebP file's first chunk: VP8X (the
// extended format's canvas), VP8L (lossless) or VP8 (lossy).
func webpSize(b []byte) (int, int, error) {
	if len(b) < 30 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, errWebP
	}
	switch string(b[12:16]) {
	case "VP8X":
		w := int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h := int(b[27]) | int(b[28])<<8 | int(b[29])<<16
		return w + 1, h + 1, nil
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, errWebP
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, nil
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, errWebP
		}
		return int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff), nil
	}
	return 0, 0, errWebP
}

// Fitted is an image ready for a model.
type Fitted struct {
	MediaType string
	Data      []byte
	// Width and Height are its size as sent.
	Width, Height int
	// Scaled says it was scaled down from OrigWidth × OrigHeight.
	Scaled                bool
	OrigWidth, OrigHeight int
}

// Fit returns data as an image a model can be shown: as it is when within
// the limits, else scaled down to FitSide on its long side (a PNG, JPEG or
// GIF; JPEG out unless it has transparency). An error says, in words for
// the model and the person, why it cannot be.
func Fit(data []byte) (Fitted, error) {
	mt := MediaType(data)
	if mt == "" {
		return Fitted{}, errors.New("not a PNG, JPEG, GIF or WebP image")
	}
	w, h, err := Size(mt, data)
	if err != nil {
		return Fitted{}, fmt.Errorf("a damaged %s image: %w", mt, err)
	}
	if w <= 0 || h <= 0 {
		return Fitted{}, fmt.Errorf("a %s image without pixels (%d×%d)", mt, w, h)
	}
	f := Fitted{MediaType: mt, Data: data, Width: w, Height: h}
	if len(data) <= MaxBytes && w <= MaxSide && h <= MaxSide {
		return f, nil
	}
	if mt == "image/webp" {
		return Fitted{}, fmt.Errorf("a WebP image of %d×%d pixels and %d bytes is past what the models take (%d pixels a side, %d bytes), "+
			"and forge cannot scale WebP: convert it to PNG or JPEG", w, h, len(data), MaxSide, MaxBytes)
	}
	if int64(w)*int64(h) > maxPixels {
		return Fitted{}, fmt.Errorf("a %s image of %d×%d pixels is too large to scale", mt, w, h)
	}
	return scale(f)
}

// scale decodes f and encodes it again at FitSide on its long side.
func scale(f Fitted) (Fitted, error) {
	var src image.Image
	var err error
	switch f.MediaType {
	case "image/png":
		src, err = png.Decode(bytes.NewReader(f.Data))
	case "image/jpeg":
		src, err = jpeg.Decode(bytes.NewReader(f.Data))
	case "image/gif":
		src, err = gif.Decode(bytes.NewReader(f.Data))
	}
	if err != nil {
		return Fitted{}, fmt.Errorf("a damaged %s image: %w", f.MediaType, err)
	}
	dst := shrink(src, FitSide)
	var buf bytes.Buffer
	out := Fitted{Width: dst.Bounds().Dx(), Height: dst.Bounds().Dy(), Scaled: true, OrigWidth: f.Width, OrigHeight: f.Height}
	if opaque(dst) {
		out.MediaType = "image/jpeg"
		err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
	} else {
		out.MediaType = "image/png"
		err = png.Encode(&buf, dst)
	}
	if err != nil {
		return Fitted{}, err
	}
	out.Data = buf.Bytes()
	if len(out.Data) > MaxBytes {
		return Fitted{}, fmt.Errorf("a %s image still %d bytes at %d×%d pixels", f.MediaType, len(out.Data), out.Width, out.Height)
	}
	return out, nil
}

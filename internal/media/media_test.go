package media

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

func pngOf(t testing.TB, w, h int, alpha uint8) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
		if i%4 == 3 {
			img.Pix[i] = alpha
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpVP8X is the start of an extended WebP of w×h.
func webpVP8X(w, h int) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00")
	b = append(b, byte(w-1), byte((w-1)>>8), byte((w-1)>>16), byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
	return b
}

// webpVP8L is the start of a lossless WebP of w×h.
func webpVP8L(w, h int) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f")
	bits := uint32(w-1) | uint32(h-1)<<14
	b = append(b, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24))
	return append(b, make([]byte, 8)...)
}

// webpVP8 is the start of a lossy WebP of w×h.
func webpVP8(w, h int) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x9d\x01\x2a")
	return append(b, byte(w), byte(w>>8), byte(h), byte(h>>8), 0, 0)
}

func TestFit(t *testing.T) {
	var jp, gf bytes.Buffer
	small := image.NewRGBA(image.Rect(0, 0, 40, 30))
	if err := jpeg.Encode(&jp, small, nil); err != nil {
		t.Fatal(err)
	}
	pal := image.NewPaletted(image.Rect(0, 0, 12, 9), []color.Color{color.Black, color.White})
	if err := gif.Encode(&gf, pal, nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		data      []byte
		mt        string
		w, h      int
		scaled    bool
		wantError string
	}{
		{"png as it is", pngOf(t, 64, 48, 255), "image/png", 64, 48, false, ""},
		{"jpeg", jp.Bytes(), "image/jpeg", 40, 30, false, ""},
		{"gif", gf.Bytes(), "image/gif", 12, 9, false, ""},
		{"webp extended", webpVP8X(800, 600), "image/webp", 800, 600, false, ""},
		{"webp lossless", webpVP8L(321, 123), "image/webp", 321, 123, false, ""},
		{"webp lossy", webpVP8(640, 480), "image/webp", 640, 480, false, ""},
		{"too wide, opaque: scaled to JPEG", pngOf(t, 9000, 20, 255), "image/jpeg", 1568, 3, true, ""},
		{"too tall, transparent: scaled to PNG", pngOf(t, 10, 8200, 128), "image/png", 1, 1568, true, ""},
		{"webp too large", webpVP8X(9000, 100), "", 0, 0, false, "forge cannot scale WebP: convert it to PNG or JPEG"},
		{"text", []byte("hello, world"), "", 0, 0, false, "not a PNG, JPEG, GIF or WebP image"},
		{"damaged png", pngOf(t, 4, 4, 255)[:20], "", 0, 0, false, "a damaged image/png image"},
		{"bad webp", []byte("RIFF\x00\x00\x00\x00WEBPVP8Z" + strings.Repeat("\x00", 20)), "", 0, 0, false, "a damaged image/webp image"},
	}
	for _, c := range cases {
		f, err := Fit(c.data)
		if c.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantError) {
				t.Errorf("%s: %v, want %q", c.name, err, c.wantError)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if f.MediaType != c.mt || f.Width != c.w || f.Height != c.h || f.Scaled != c.scaled {
			t.Errorf("%s: %s %d×%d scaled %v", c.name, f.MediaType, f.Width, f.Height, f.Scaled)
		}
		if got := MediaType(f.Data); got != c.mt {
			t.Errorf("%s: the data is %q", c.name, got)
		}
		if f.Scaled {
			if w, h, err := Size(f.MediaType, f.Data); err != nil || w != c.w || h != c.h {
				t.Errorf("%s: scaled data is %d×%d (%v)", c.name, w, h, err)
			}
		}
	}
}

// FuzzFit: any bytes give an image within the limits or an error, never a
// panic.
func FuzzFit(f *testing.F) {
	f.Add(pngOf(f, 3, 2, 255))
	f.Add(webpVP8X(10, 10))
	f.Add(webpVP8L(10, 10))
	f.Add(webpVP8(10, 10))
	f.Add([]byte("GIF89a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fit, err := Fit(data)
		if err != nil {
			return
		}
		if len(fit.Data) > MaxBytes || fit.Width > MaxSide || fit.Height > MaxSide || MediaType(fit.Data) != fit.MediaType {
			t.Errorf("%s %d×%d, %d bytes", fit.MediaType, fit.Width, fit.Height, len(fit.Data))
		}
	})
}

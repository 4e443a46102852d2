package media

import (
	"image"
	"image/color"
)

// shrink scales src down so that its long side is at most side, averaging
// the source pixels each destination pixel covers (a box filter: sharp
// enough for screenshots and text, and only the standard library).
func shrink(src image.Image, side int) *image.NRGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if w >= h && w > side {
		dw, dh = side, max(1, h*side/w)
	} else if h > w && h > side {
		dw, dh = max(1, w*side/h), side
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		y0, y1 := b.Min.Y+y*h/dh, b.Min.Y+max((y+1)*h/dh, y*h/dh+1)
		for x := range dw {
			x0, x1 := b.Min.X+x*w/dw, b.Min.X+max((x+1)*w/dw, x*w/dw+1)
			dst.SetNRGBA(x, y, average(src, x0, y0, x1, y1))
		}
	}
	return dst
}

// average is the mean colour of src's pixels in [x0,x1)×[y0,y1).
func average(src image.Image, x0, y0, x1, y1 int) color.NRGBA {
	var r, g, b, a, n uint64
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
			r, g, b, a = r+uint64(c.R), g+uint64(c.G), b+uint64(c.B), a+uint64(c.A)
			n++
		}
	}
	return color.NRGBA{R: uint8(r / n), G: uint8(g / n), B: uint8(b / n), A: uint8(a / n)}
}

// opaque says no pixel of img is transparent.
func opaque(img *image.NRGBA) bool {
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 0xff {
			return false
		}
	}
	return true
}

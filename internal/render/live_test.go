package render

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTailBuffer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []string
		want   []string
		count  int
	}{
		{name: "nothing", pieces: nil, want: []string{}, count: 0},
		{name: "a line being printed", pieces: []string{"compil", "ing"}, want: []string{"compiling"}, count: 1},
		{name: "lines across pieces", pieces: []string{"one\ntw", "o\nthr", "ee\n"}, want: []string{"one", "two", "three"}, count: 3},
		{name: "the last five of many", pieces: []string{"1\n2\n3\n4\n5\n6\n7\n8\n"}, want: []string{"4", "5", "6", "7", "8"}, count: 8},
		{name: "the last five of many, one being printed", pieces: []string{"1\n2\n3\n4\n5\n6\n7\n8"},
			want: []string{"4", "5", "6", "7", "8"}, count: 8},
		{name: "a long piece after a partial line", pieces: []string{"part", "ial\n1\n2\n3\n4\n5\n6\n7\n"},
			want: []string{"3", "4", "5", "6", "7"}, count: 8},
		{name: "small pieces push out old lines", pieces: []string{"a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g"},
			want: []string{"c", "d", "e", "f", "g"}, count: 7},
		{name: "blank lines count", pieces: []string{"\n\n\n"}, want: []string{"", "", ""}, count: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tb tailBuffer
			for _, p := range tc.pieces {
				tb.write(p)
			}
			got := tb.last(liveLines)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("last = %q, want %q", got, tc.want)
			}
			if n := tb.lineCount(); n != tc.count {
				t.Errorf("lineCount = %d, want %d", n, tc.count)
			}
		})
	}
}

// A line without end (a progress bar redrawn with carriage returns, or a
// binary printed) is kept bounded, showing its latest state.
func TestTailBufferBoundsALine(t *testing.T) {
	var tb tailBuffer
	for i := range 10000 {
		tb.write(fmt.Sprintf("\r%d%%", i%101))
	}
	got := tb.last(1)
	if len(got) != 1 || len(got[0]) > maxLiveLine || displayLine(got[0]) != "0%" {
		t.Errorf("last = %q (%d bytes), want the latest state, 0%%", got[0][max(0, len(got[0])-20):], len(got[0]))
	}
	tb.write(strings.Repeat("x", 10*maxLiveLine) + "\n")
	if l := tb.last(1)[0]; len(l) > maxLiveLine {
		t.Errorf("a %d-byte line kept", len(l))
	}
}

func TestFormatElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 999 * time.Millisecond: "0s", 7 * time.Second: "7s", 59*time.Second + 900*time.Millisecond: "59s",
		time.Minute: "1m00s", 125 * time.Second: "2m05s", time.Hour + 3*time.Minute + 9*time.Second: "1h03m", -time.Second: "0s",
	} {
		if got := formatElapsed(d); got != want {
			t.Errorf("formatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
}

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// testArea is a live area on a buffer, 40 columns wide, with a clock the
// test moves and a ticker that never ticks (the test calls onTick).
func testArea() (*liveArea, *bytes.Buffer, *fakeClock, chan time.Time) {
	var buf bytes.Buffer
	var mu sync.Mutex
	clock := &fakeClock{t: time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)}
	tick := make(chan time.Time)
	a := newLiveArea(&buf, &mu, New(Options{Width: 40}), nil)
	a.now, a.tick = clock.now, tick
	return a, &buf, clock, tick
}

func TestLiveAreaDraws(t *testing.T) {
	a, buf, clock, _ := testArea()
	tail := &tailBuffer{}
	a.mu.Lock()
	a.show("Bash(for i in 1 2 3; do echo line$i; sleep 1; done)", clock.now(), tail)
	a.mu.Unlock()
	if got, want := buf.String(), "\r⠋ Bash(for i in 1 2 3; do echo … · 0s"; got != want {
		t.Errorf("first frame %q, want %q", got, want)
	}

	// Output a moment later waits for the ticker: a command printing fast
	// costs no redraw per line.
	buf.Reset()
	a.mu.Lock()
	clock.advance(10 * time.Millisecond)
	tail.write("line1\n")
	a.changed()
	a.mu.Unlock()
	if buf.Len() != 0 {
		t.Errorf("redrawn at once: %q", buf.String())
	}
	clock.advance(1200 * time.Millisecond)
	a.onTick()
	got := buf.String()
	want := "\r\x1b[2K\r⠙ Bash(for i in 1 2 3; do echo … · 1s\r\n    line1"
	if !strings.HasPrefix(got, want) {
		t.Errorf("after a tick %q, want it to start %q", got, want)
	}

	// Output long after the last redraw shows at once, over the two lines.
	buf.Reset()
	a.mu.Lock()
	clock.advance(time.Second)
	tail.write("line2 " + strings.Repeat("x", 60) + "\n")
	a.changed()
	got = buf.String()
	a.mu.Unlock()
	if !strings.HasPrefix(got, "\r\x1b[1A\x1b[2K\x1b[B\x1b[2K\x1b[1A\r") || !strings.Contains(got, "· 2s\r\n    line1\r\n    line2 xxxxxxxxxxxxxxxxxxxxxxxxxx…") {
		t.Errorf("after more output %q", got)
	}
	for _, l := range strings.Split(got, "\r\n") {
		if w := textWidth(unmoved(l)); w > 40-liveSpare {
			t.Errorf("%q is %d cells wide: it would wrap, or the ^C echo would", l, w)
		}
	}

	// Erased, it leaves the cursor where it began.
	buf.Reset()
	a.mu.Lock()
	a.hide()
	a.changed() // hidden: output draws nothing
	a.mu.Unlock()
	if got := buf.String(); got != "\r\x1b[2A\x1b[2K\x1b[B\x1b[2K\x1b[B\x1b[2K\x1b[2A" {
		t.Errorf("erase %q", got)
	}
	a.stop()
}

// twoRows erases an area of two rows.
const twoRows = "\r\x1b[1A\x1b[2K\x1b[B\x1b[2K\x1b[1A"

var moves = regexp.MustCompile(`\r|\x1b\[\d*[ABK]`)

// unmoved drops the cursor moves and erasures the area writes.
func unmoved(s string) string {
	return moves.ReplaceAllString(s, "")
}

// A stopped area draws nothing more, and stopping twice or a nil area is
// harmless.
func TestLiveAreaStop(t *testing.T) {
	a, buf, clock, _ := testArea()
	a.mu.Lock()
	a.show("Thinking…", time.Time{}, nil)
	a.mu.Unlock()
	a.stop()
	a.stop()
	if got := buf.String(); got != "\r⠋ Thinking…\r\x1b[2K" {
		t.Errorf("%q", got)
	}
	clock.advance(time.Hour)
	var none *liveArea
	none.stop()
	none.hide()
	none.erase()
}

// A terminal made narrower while the area is drawn has wrapped its lines:
// the next redraw goes up over every row they now take, and draws them
// to the new width; one made wider again erases as many rows as drawn.
func TestLiveAreaFollowsResize(t *testing.T) {
	a, buf, clock, _ := testArea()
	cols := 40
	a.width = func() int { return cols }
	tail := &tailBuffer{}
	tail.write(strings.Repeat("y", 50) + "\n")
	a.mu.Lock()
	a.show("Bash(sleep 30; echo a long command indeed)", clock.now(), tail)
	a.mu.Unlock()
	for _, l := range strings.Split(buf.String(), "\r\n") {
		if w := textWidth(unmoved(l)); w != 40-liveSpare {
			t.Errorf("%q is %d cells wide, want %d", l, w, 40-liveSpare)
		}
	}

	tests := []struct {
		cols   int
		erase  string // how the redraw begins
		widths []int  // the width of each line it draws
	}{
		// 37 cells on 16 columns: 3 rows each
		{16, "\r\x1b[5A" + strings.Repeat("\x1b[2K\x1b[B", 5) + "\x1b[2K\x1b[5A", []int{13, 13}},
		{16, twoRows, []int{13, 13}},
		{80, twoRows, []int{49, 54}},
		{0, twoRows, []int{49, 54}}, // unknown: the last width known
		{30, "\r\x1b[3A" + strings.Repeat("\x1b[2K\x1b[B", 3) + "\x1b[2K\x1b[3A", []int{27, 27}},
	}
	for _, tt := range tests {
		cols = tt.cols
		buf.Reset()
		clock.advance(time.Second)
		a.onTick()
		got := buf.String()
		if !strings.HasPrefix(got, tt.erase) {
			t.Errorf("at %d columns the redraw %q, want it to start %q", tt.cols, got, tt.erase)
		}
		var widths []int
		for _, l := range strings.Split(strings.TrimPrefix(got, tt.erase), "\r\n") {
			widths = append(widths, textWidth(unmoved(l)))
		}
		if !slices.Equal(widths, tt.widths) {
			t.Errorf("at %d columns the lines %q are %v cells wide, want %v", tt.cols, got, widths, tt.widths)
		}
	}
	a.stop()
}

func TestRowsOf(t *testing.T) {
	for _, tt := range []struct{ w, cols, want int }{
		{0, 40, 1}, {40, 40, 1}, {41, 40, 2}, {80, 40, 2}, {81, 40, 3}, {100, 0, 1},
	} {
		if got := rowsOf(tt.w, tt.cols); got != tt.want {
			t.Errorf("rowsOf(%d, %d) = %d, want %d", tt.w, tt.cols, got, tt.want)
		}
	}
}

package render

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// runningCall is a call under way, as the live area shows it.
type runningCall struct {
	call     *agent.Call
	headline string
	start    time.Time
	tail     tailBuffer
	// announced says its line was printed ("● Task(...)"), for the lines
	// of its subagent to follow.
	announced bool
}

// started adds a call that starts to run.
func (v *runView) started(c *agent.Call) {
	v.paused = false
	if v.live == nil {
		return
	}
	v.running = append(v.running, &runningCall{call: c, headline: v.headline(c), start: v.live.now()})
}

// finished removes the call c from those running and returns it; nil
// when it was not running (refused, or not on a terminal).
func (v *runView) finished(c *agent.Call) *runningCall {
	for i, rc := range v.running {
		if rc.call.ID == c.ID {
			v.running = append(v.running[:i], v.running[i+1:]...)
			return rc
		}
	}
	return nil
}

// output takes a piece of what a running call prints. It is the hot path
// of a command that prints much: it keeps the last lines and leaves the
// drawing to the live area, which redraws at most every liveTick.
func (v *runView) output(e agent.Event) {
	if v.live == nil || e.ParentID != "" || e.Call == nil {
		return
	}
	for i, rc := range v.running {
		if rc.call.ID != e.Call.ID {
			continue
		}
		rc.tail.write(e.Text)
		if i != len(v.running)-1 || v.paused || v.thinking {
			// The one shown is the last to print.
			v.running = append(append(v.running[:i:i], v.running[i+1:]...), rc)
			v.paused, v.thinking = false, false
			v.redraw()
			return
		}
		v.live.changed()
		return
	}
}

// progressLine is a progress report as a line of the call's live output:
// "progress 3/10: indexing" (a percentage when the numbers are not whole).
func progressLine(p tools.Progress) string {
	num := strconv.FormatFloat(p.Progress, 'f', -1, 64)
	if p.Total > 0 {
		if p.Progress == math.Trunc(p.Progress) && p.Total == math.Trunc(p.Total) {
			num += "/" + strconv.FormatFloat(p.Total, 'f', -1, 64)
		} else {
			num = strconv.Itoa(int(100*p.Progress/p.Total)) + "%"
		}
	}
	line := "progress " + num
	if m := oneLineText(p.Message); m != "" {
		line += ": " + m
	}
	return line + "\n"
}

// redraw shows what the run waits for: the model, or the calls running
// (the last to print with its output), unless one of them is asking the
// person something.
func (v *runView) redraw() {
	if v.live == nil {
		return
	}
	switch {
	case v.thought != nil:
		v.endLine(v.p.Out)
		v.live.show("Thinking…", v.thoughtStart, v.thought)
	case v.thinking:
		v.endLine(v.p.Out)
		v.live.show("Thinking…", time.Time{}, nil)
	case len(v.running) > 0 && !v.paused:
		v.endLine(v.p.Out)
		rc := v.running[len(v.running)-1]
		label := rc.headline
		if n := len(v.running) - 1; n > 0 {
			label += " and " + plural(n, "more call")
		}
		v.live.show(label, v.running[0].start, &rc.tail)
	default:
		v.live.hide()
	}
}

// announce prints the line of the running call id, once, before the
// first line of the subagent that works for it.
func (v *runView) announce(id string) {
	for _, rc := range v.running {
		if rc.call.ID == id && !rc.announced {
			rc.announced = true
			fmt.Fprintln(v.progress, "● "+clipCells(rc.headline, v.p.Renderer.Cols()-2))
		}
	}
}

// nestedResult shows a subagent's call in one line under its Task call.
func (v *runView) nestedResult(c *agent.Call, r *agent.CallResult) {
	if r.Status != agent.StatusSuccess || !v.p.Terminal {
		v.result(c, r, nil)
		return
	}
	r0, note := v.p.Renderer, ""
	if b := v.successPreview(c, r).Brief; b != "" {
		note = " · " + oneLineText(b)
	}
	v.lines(v.progress, r0.callHead("✓", v.headline(c), note, note, r0.st.label, v.cols()))
}

// successPreview is how a successful call is shown on a terminal: the
// change an edit made, the tool's brief of its output, or the output's
// first lines; only its line when the output is the run's answer (a
// loop-breaking tool's), which the run shows whole.
func (v *runView) successPreview(c *agent.Call, r *agent.CallResult) callPreview {
	cp := callPreview{Glyph: "✓", Headline: v.headline(c), Sandboxed: c.Sandboxed, Output: outputText(r.Result.Output),
		Change: r.Change, ChangeSeen: r.ChangeSeen}
	if r.Result.Status == "" {
		cp.Output = r.Output // a result the executor did not make
	}
	if lb, _ := r.Result.Metadata["loop_breaking"].(bool); lb {
		cp.Bare = true
	}
	if t, ok := v.lookup(c.Name); ok {
		cp.Bare = cp.Bare || tools.IsLoopBreaking(t)
		if cp.Change == nil {
			cp.Brief = tools.Present(t, c.Args, r.Result).Brief
		}
	}
	return cp
}

// lines writes a call's lines, each on a line of its own.
func (v *runView) lines(w io.Writer, ls []string) {
	for _, l := range ls {
		v.line(w, l)
	}
}

package render

import (
	"fmt"

	"github.com/forgehq/forge/internal/agent"
)

// think takes a piece of the model's thinking. On a terminal its last
// lines show dimmed under the spinner while it streams; it is never
// written with the answer, and a pipe never sees it.
func (v *runView) think(e agent.Event) {
	if v.live == nil || e.ParentID != "" {
		return
	}
	// Thinking comes as paragraphs, not lines: it is wrapped to the
	// live area's width, so that its last lines show its last words.
	width := max(v.live.cols-liveSpare-4, 10)
	if v.thought == nil {
		v.live.erase()
		v.thought, v.thoughtStart = &tailBuffer{}, v.live.now()
		v.thought.writeWrapped(e.Text, width)
		v.redraw()
		return
	}
	v.thought.writeWrapped(e.Text, width)
	v.live.changed()
}

// writeWrapped adds a piece of text, breaking the line being written at
// spaces once it passes width cells.
func (t *tailBuffer) writeWrapped(s string, width int) {
	t.write(s)
	if textWidth(t.partial) <= width {
		return
	}
	pieces := wrap(t.partial, width, width)
	for _, p := range pieces[:len(pieces)-1] {
		t.push(p)
		t.total++
	}
	t.partial = pieces[len(pieces)-1]
}

// foldThought ends the thinking that streamed: its lines leave the
// screen and one dim line says how long the model thought and, in the
// shell, how to see it all (forge ask ends with the run: nothing is left
// to ask).
func (v *runView) foldThought() {
	if v.thought == nil {
		return
	}
	t := v.thought
	v.thought = nil
	r0 := v.p.Renderer
	note := fmt.Sprintf("✻ Thought for %s · %s", formatElapsed(v.live.now().Sub(v.thoughtStart)), plural(t.lineCount(), "line"))
	if !r0.cli {
		note += " (/thinking shows it)"
	}
	v.endLine(v.p.Out)
	v.line(v.progress, r0.paint(r0.st.label, note))
}

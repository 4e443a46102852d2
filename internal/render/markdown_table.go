package render

import (
	east "github.com/yuin/goldmark/extension/ast"
)

// tableCell is one cell's text and how it is aligned.
type tableCell struct {
	text  inlineText
	align east.Alignment
}

// table draws a GFM table: aligned columns when they fit the width, else
// one row per line ("a | b | c", wrapped), which stays readable however
// narrow the terminal.
func (r *mdRenderer) table(tb *east.Table) {
	var rows [][]tableCell
	for row := tb.FirstChild(); row != nil; row = row.NextSibling() {
		var a mdAttr
		if _, ok := row.(*east.TableHeader); ok {
			a = attrStrong
		}
		var cells []tableCell
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cell := tableCell{}
			if tc, ok := c.(*east.TableCell); ok {
				cell.align = tc.Alignment
			}
			cell.text.oneLine = true
			r.inlines(&cell.text, c, a)
			cells = append(cells, cell)
		}
		rows = append(rows, cells)
	}
	widths := columnWidths(rows)
	total := 3 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	if total <= r.width() {
		r.alignedTable(rows, widths)
		return
	}
	for _, cells := range rows {
		var line inlineText
		for i := range cells {
			if i > 0 {
				line.add(" | ", attrDim)
			}
			appendInline(&line, &cells[i].text)
		}
		r.flow(&line)
	}
}

// columnWidths returns the width of each column: its widest cell.
func columnWidths(rows [][]tableCell) []int {
	var widths []int
	for _, cells := range rows {
		for i := range cells {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textWidth(string(cells[i].text.plain)))
		}
	}
	return widths
}

// alignedTable draws rows in columns of the given widths, with a rule under
// the header.
func (r *mdRenderer) alignedTable(rows [][]tableCell, widths []int) {
	sep := r.m.appendStyled(nil, " │ ", attrDim)
	for n, cells := range rows {
		r.beginLine()
		for i, w := range widths {
			if i > 0 {
				r.out = append(r.out, sep...)
			}
			if i >= len(cells) {
				r.out = append(r.out, spaces(w)...)
				continue
			}
			c := &cells[i]
			pad := w - textWidth(string(c.text.plain))
			left := 0
			switch c.align {
			case east.AlignRight:
				left = pad
			case east.AlignCenter:
				left = pad / 2
			}
			r.out = append(r.out, spaces(left)...)
			r.out, _ = r.appendRuns(r.out, string(c.text.plain), c.text.runs, 0, 0, len(c.text.plain))
			r.out = append(r.out, spaces(pad-left)...)
		}
		r.endLine()
		if n == 0 { // GFM tables always start with their header
			r.beginLine()
			var rule []byte
			for i, w := range widths {
				if i > 0 {
					rule = append(rule, "─┼─"...)
				}
				for range w {
					rule = append(rule, "─"...)
				}
			}
			r.out = r.m.appendStyled(r.out, string(rule), attrDim)
			r.endLine()
		}
	}
}

// appendInline appends the text and styles of src to t.
func appendInline(t *inlineText, src *inlineText) {
	start := 0
	for _, run := range src.runs {
		t.add(string(src.plain[start:run.end]), run.attr)
		start = run.end
	}
}

package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/termsafe"
	"github.com/forgehq/forge/internal/tools"
)

// TextOptions configure the text Printer.
type TextOptions struct {
	Out, Err io.Writer
	// Renderer draws the panels (width and colour decided by the caller).
	Renderer *Renderer
	// Terminal says Out is a terminal, where the echoed ^C of a cancelled
	// call has moved the cursor off column 0.
	Terminal bool
	// Cols, when set, measures the terminal's width now (0: unknown):
	// what a run redraws in place follows a resize while it runs.
	Cols func() int
}

// NewText returns the Printer for people: panels and plain lines on
// opts.Out, error messages on opts.Err.
func NewText(opts TextOptions) Printer {
	if opts.Renderer == nil {
		opts.Renderer = New(Options{})
	}
	return textPrinter{TextOptions: opts}
}

type textPrinter struct{ TextOptions }

func (p textPrinter) Result(c Call) {
	r, res := p.Renderer, c.Result
	switch {
	case res.ErrorKind == tools.KindUnknownTool:
		p.print(r.ToolNotFound(c.Tool, c.Suggestions))
	case res.ErrorKind == tools.KindValidation:
		d := c.Descriptor
		if d.Name == "" {
			d.Name = c.Tool
		}
		p.print(r.ValidationError(d, res))
	case res.Status == tools.StatusFailed && c.Presentation.Failure != nil:
		p.print(r.ExecutionFailed(c.Tool, res, c.Presentation))
	default:
		if res.Status == tools.StatusCancelled && p.Terminal {
			// The terminal echoed ^C where the cursor was: start the panel
			// at column 0 over it, or its top border would wrap.
			_, _ = io.WriteString(p.Out, "\r")
		}
		p.print(r.Result(c.Tool, res, c.Presentation))
	}
}

func (p textPrinter) ToolList(ds []tools.Descriptor) { p.print(p.Renderer.ToolList(ds)) }
func (p textPrinter) ToolDetails(d tools.Descriptor) { p.print(p.Renderer.ToolDetails(d)) }
func (p textPrinter) ToolNotFound(name string, suggestions []string) {
	p.print(p.Renderer.ToolNotFound(name, suggestions))
}

// Schemas prints indented JSON (arrays of scalars on one line, as
// tools.IndentSchema does), ready to paste: an object for one tool, an array
// otherwise.
func (p textPrinter) Schemas(_ tools.Format, schemas []json.RawMessage, one bool) {
	var v any = schemas
	if schemas == nil {
		v = []json.RawMessage{}
	}
	if one && len(schemas) == 1 {
		v = schemas[0]
	}
	b, err := EncodeJSON(v)
	if err == nil {
		b, err = tools.IndentSchema(b, "  ")
	}
	if err != nil {
		p.Error("schema", err.Error())
		return
	}
	// IndentSchema re-encodes the strings, so the controls are escaped again.
	_, _ = p.Out.Write(append(escapeControls(b), '\n'))
}

func (p textPrinter) History(total int64, xs []tools.Execution) {
	p.print(p.Renderer.History(total, xs))
}
func (p textPrinter) HistoryCleared()       { p.print("History cleared.") }
func (p textPrinter) Context(c ContextView) { p.print(p.Renderer.Context(c.Context)) }

func (p textPrinter) Settings(s []Setting) {
	var b strings.Builder
	for _, st := range s {
		fmt.Fprintf(&b, "%s = %v\n", st.Key, st.Value)
	}
	p.print(sanitizeText(b.String()))
}

func (p textPrinter) SettingChanged(s Setting) {
	p.print(sanitizeText(fmt.Sprintf("%s = %v", s.Key, s.Value)))
}
func (p textPrinter) Registry(st tools.Stats) { p.print(p.Renderer.Registry(st)) }
func (p textPrinter) MCPServers(servers []MCPServer) {
	p.print(MCPText(servers, p.Renderer.Command("mcp")))
}

func (p textPrinter) Plugins(dirs []string, ps []PluginView) {
	var b strings.Builder
	fmt.Fprintf(&b, "Plugins: %d found in %s\n", len(ps), orNoDirs(dirs))
	for _, in := range ps {
		if in.Error != "" {
			name := in.Path
			if in.Name != "" {
				name = in.Name + " (" + in.Path + ")"
			}
			fmt.Fprintf(&b, "  ✗ %s\n      %s\n", name, in.Error)
			continue
		}
		fmt.Fprintf(&b, "  ✓ %-20s %-10s %s\n      %s\n", in.Name, in.Category, in.Path, in.Description)
	}
	if len(ps) == 0 {
		b.WriteString("  (no manifests: see docs/extending.md)\n")
	}
	p.print(sanitizeText(b.String()))
}

func (p textPrinter) RegistrationFailed(name string, err error) {
	p.print(p.Renderer.RegistrationFailed(name, err))
}

func (p textPrinter) CommandList(cs []CommandInfo, footer string) {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s\n    %s\n", sanitizeText(c.Usage), sanitizeText(c.Summary))
		if c.Source != "" {
			fmt.Fprintf(&b, "    (%s)\n", sanitizeText(c.Source))
		}
	}
	if footer != "" {
		b.WriteString("\n" + footer)
	}
	p.print(p.Renderer.Panel("Commands", strings.TrimRight(b.String(), "\n")))
}

func (p textPrinter) CommandHelp(c CommandInfo) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s\n\n%s.\n", sanitizeText(c.Usage), strings.TrimSuffix(sanitizeText(c.Summary), "."))
	if c.Source != "" {
		fmt.Fprintf(&b, "(%s)\n", sanitizeText(c.Source))
	}
	if c.Help != "" {
		fmt.Fprintf(&b, "\n%s\n", Reflow(sanitizeText(c.Help)))
	}
	if c.Example != "" {
		b.WriteString("\nExamples:\n")
		for _, l := range strings.Split(c.Example, "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	p.print(p.Renderer.Panel("Help: "+c.Name, strings.TrimRight(b.String(), "\n")))
}

func (p textPrinter) Version(v VersionInfo) {
	p.print(fmt.Sprintf("forge %s (%s %s/%s)", v.Version, v.Go, v.OS, v.Arch))
}

func (p textPrinter) Value(text string, _ any) { p.print(p.fit(sanitizeText(text))) }

func (p textPrinter) Verbatim(text string, _ any) { p.print(sanitizeText(text)) }

func (p textPrinter) Resumed(rv ResumedView) {
	width := 0
	if p.Terminal {
		width = p.Renderer.cols
	}
	p.print(ResumedText(rv, width, p.Renderer.color))
}

// Exit says nothing: leaving the shell is its own answer.
func (p textPrinter) Exit() {}

func (p textPrinter) UnknownCommand(msg string, _ []string) {
	fmt.Fprintln(p.Err, p.fit(sanitizeText(msg)))
}

func (p textPrinter) Error(_ string, msg string) {
	fmt.Fprintln(p.Err, p.fit("Error: "+sanitizeText(msg)))
}

// fit wraps forge's own text to a terminal's width (Fit); elsewhere it
// stays as it is, a line a line, for whatever reads it.
func (p textPrinter) fit(text string) string {
	if !p.Terminal {
		return text
	}
	return Fit(text, p.Renderer.cols)
}

// print writes a panel or other text, ending it with a newline.
func (p textPrinter) print(text string) {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, _ = io.WriteString(p.Out, text)
}

// MCPText is the text of /mcp and forge mcp list: each server with its
// state, its error and its tools; mcp is the command as the person types
// it (/mcp, forge mcp).
func MCPText(servers []MCPServer, mcp string) string {
	if len(servers) == 0 {
		return "MCP servers: none configured (add mcp.servers.NAME to the configuration; see docs/extending.md)\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP servers: %d\n", len(servers))
	for _, sv := range servers {
		glyph := "○"
		switch sv.State {
		case "connected":
			glyph = "✓"
		case "failed":
			glyph = "✗"
		}
		fmt.Fprintf(&b, "  %s %s: %s (%s)\n", glyph, sv.Name, sv.State, sv.Transport)
		if sv.Error != "" {
			fmt.Fprintf(&b, "      %s\n", sv.Error)
		}
		if sv.State == "not started" {
			fmt.Fprintf(&b, "      %s connect %s to start it\n", mcp, sv.Name)
		}
		for _, t := range sv.Tools {
			fmt.Fprintf(&b, "      %-36s %s\n", t.Name, firstLine(t.Description))
		}
	}
	return sanitizeText(b.String())
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:77]) + "..." // never half a character
	}
	return s
}

func orNoDirs(dirs []string) string {
	if len(dirs) == 0 {
		return "(no plugin directories)"
	}
	return strings.Join(dirs, ", ")
}

// Reflow joins the lines of each paragraph of text, so that a panel wraps
// it to its own width; paragraphs stay separated by a blank line, and
// indented lines (a table of exit statuses) stay lines of their own.
func Reflow(text string) string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.Join(strings.Fields(strings.Join(para, " ")), " "))
			para = nil
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			flush()
			out = append(out, "")
		case l[0] == ' ' || l[0] == '\t':
			flush()
			out = append(out, strings.TrimRight(l, " \t"))
		default:
			para = append(para, l)
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// sanitizeText makes text from outside forge (a server's error, a plugin's
// description, a model's answer) safe for a terminal, line by line, keeping
// the newlines and tabs.
func sanitizeText(s string) string {
	end := strings.HasSuffix(s, "\n")
	out := termsafe.Text(strings.TrimSuffix(s, "\n"))
	if end {
		out += "\n"
	}
	return out
}

// WrapText reflows text (see Reflow) and wraps its paragraphs at width
// columns, for help read in a terminal rather than in a panel.
func WrapText(text string, width int) string {
	var b strings.Builder
	for i, l := range strings.Split(Reflow(text), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l == "" || l[0] == ' ' {
			b.WriteString(l)
			continue
		}
		col := 0
		for j, w := range strings.Fields(l) {
			n := textWidth(w)
			if j > 0 && col+1+n > width {
				b.WriteByte('\n')
				col = 0
			} else if j > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
		}
	}
	return b.String()
}

package render

import (
	"errors"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// maxSuggestions is how many similar names ToolNotFound offers.
const maxSuggestions = 3

// ToolNotFound draws the "Error: Tool Not Found" panel: the name
// that was asked for, up to three suggestions under "Did you mean one of
// these?" (the block is left out without suggestions), and where to look.
func (r *Renderer) ToolNotFound(name string, suggestions []string) string {
	p := r.newPanel()
	p.title("Error: Tool Not Found")
	p.section()
	p.text(`The tool "`+name+`" is not registered.`, nil, 0)
	if len(suggestions) > maxSuggestions {
		suggestions = suggestions[:maxSuggestions]
	}
	if len(suggestions) > 0 {
		p.blank()
		if len(suggestions) == 1 {
			p.text("Did you mean this?", nil, 0)
		} else {
			p.text("Did you mean one of these?", nil, 0)
		}
		for _, s := range suggestions {
			p.labeled(2, "• ", &r.st.label, s, &r.st.name)
		}
	}
	p.blank()
	p.text("Use "+r.Command("tools")+" to see all available tools.", &r.st.hint, 0)
	return p.String()
}

// RegistrationFailed draws the "Error: Registration Failed" panel for the
// error Registry.Register returned. A name already taken is said so, with
// how to replace the tool or pick another name; any other error (an
// invalid name, a malformed parameter) is stated with advice of the same
// shape.
func (r *Renderer) RegistrationFailed(name string, err error) string {
	p := r.newPanel()
	p.title("Error: Registration Failed")
	p.section()
	quoted := `Cannot register tool "` + name + `": `
	if errors.Is(err, tools.ErrAlreadyRegistered) {
		p.text(quoted+"a tool with this name already exists.", nil, 0)
		p.blank()
		p.text("To replace an existing tool:", nil, 0)
		p.text("1. Deregister the existing tool first", nil, 2)
		p.text("2. Register the new tool", nil, 2)
		p.blank()
		p.text("Or use a different tool name.", nil, 0)
		return p.String()
	}
	msg := "unknown error"
	var te *tools.ToolError
	switch {
	case errors.As(err, &te):
		msg = te.Message
		if te.Err != nil && !errors.Is(te.Err, tools.ErrInvalidTool) && !strings.Contains(msg, te.Err.Error()) {
			msg += ": " + te.Err.Error()
		}
	case err != nil:
		msg = err.Error()
	}
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "!") && !strings.HasSuffix(msg, "?") {
		msg += "."
	}
	p.text(quoted+msg, nil, 0)
	p.blank()
	p.text("To register this tool:", nil, 0)
	p.text("1. Fix the problem described above", nil, 2)
	p.text("2. Register the tool again", nil, 2)
	return p.String()
}

// Panel draws a generic panel: the title, a separator, and body line by line
// (sanitized and wrapped). An empty body draws the title alone. The shell
// uses it for /help and /help COMMAND.
func (r *Renderer) Panel(title, body string) string {
	p := r.newPanel()
	p.title(title)
	if body != "" {
		p.section()
		p.text(body, nil, 0)
	}
	return p.String()
}

package builtin

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// The Skill tool lists each skill in one line, within a cap, and gives a
// skill's body, with its directory, only when loaded.
func TestSkillTool(t *testing.T) {
	skills := []SkillDef{{Name: "pdf", Summary: "Fill in PDF forms", Body: "# PDF\nRun scripts/fill.py.", Dir: "/p/.claude/skills/pdf"}}
	for i := range 200 {
		skills = append(skills, SkillDef{Name: fmt.Sprintf("s%03d", i), Summary: strings.Repeat("long ", 20), Body: "b"})
	}
	reg := tools.NewRegistry()
	if err := reg.Register(NewSkillTool(skills)); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Get(SkillToolName)
	desc := tool.Description()
	if !strings.Contains(desc, "\n- pdf: Fill in PDF forms") || strings.Contains(desc, "scripts/fill.py") {
		t.Errorf("description:\n%s", desc[:300])
	}
	if len(desc) > maxSkillList+2048 || !strings.Contains(desc, "by name only: ") || !strings.Contains(desc, "s199") {
		t.Errorf("description of %d bytes, ending %q", len(desc), desc[len(desc)-100:])
	}
	ex := tools.NewExecutor(reg)
	tests := []struct {
		args, want string
		ok         bool
	}{
		{`{"skill":"pdf"}`, "Skill pdf. Its directory is /p/.claude/skills/pdf: read the files these instructions name from there.\n\n# PDF\nRun scripts/fill.py.", true},
		{`{"skill":"pdf","args":"form.pdf"}`, "Asked for: form.pdf\n", true},
		{`{"skill":"nope"}`, "Invalid value for skill: must be one of ['pdf', ", false},
		{`{}`, "skill", false},
	}
	for _, tt := range tests {
		r := ex.ExecuteJSON(context.Background(), SkillToolName, tools.NewExecutionContext(t.TempDir()), []byte(tt.args))
		if r.Success != tt.ok || !strings.Contains(r.Display(), tt.want) {
			t.Errorf("%s: %v %q, want %v with %q", tt.args, r.Success, r.Display(), tt.ok, tt.want)
		}
	}
}

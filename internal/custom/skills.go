package custom

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// SkillFile is the file that defines a skill, in a directory of its own
// under a skills directory: skills/pdf/SKILL.md.
const SkillFile = "SKILL.md"

// Skill is a skill: instructions, and often scripts and references beside
// them, that the model loads when a task calls for it. Only its name and
// description are offered with every request; the body comes through the
// Skill tool, and the files beside it through Read.
type Skill struct {
	Name        string
	Description string
	// AllowedTools narrow the tools of the run that loads the skill (tool
	// names or rules); nil when not given.
	AllowedTools []string
	Model        string
	// NoModel says the model is not offered the skill
	// (disable-model-invocation).
	NoModel bool
	Body    string
	// Dir is the skill's directory, where its other files are.
	Dir    string
	Source Source
}

// LoadSkills reads dir/NAME/SKILL.md for each of dirs, later directories
// overriding earlier ones as LoadCommands does. Skills come back sorted by
// name.
func LoadSkills(dirs []Dir) ([]Skill, Report) {
	return loadNamed(dirs, "skill", isSkillFile, skill)
}

// isSkillFile says rel, a path under a skills directory, is a skill's file.
func isSkillFile(rel string) bool {
	dir, name := path.Split(rel)
	return name == SkillFile && dir != "" && !strings.Contains(strings.TrimSuffix(dir, "/"), "/")
}

// skill makes the skill of f: its name is the front matter's, else its
// directory's.
func skill(f file, d Dir, rep *Report) (Skill, bool) {
	doc, ok := parseFile(f, KindSkill, rep)
	if !ok {
		return Skill{}, false
	}
	dir := path.Dir(f.rel)
	name := doc.Meta.Name
	if name == "" {
		name = dir
	}
	if !validName(name) {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: fmt.Sprintf("%q cannot be a skill name "+
			"(letters, digits, -, _ and . only, starting with a letter or digit); skipped", name)})
		return Skill{}, false
	}
	s := Skill{Name: name, Description: doc.Meta.Description, Model: doc.Meta.Model, NoModel: doc.Meta.NoModel,
		Body: doc.Body, Dir: filepath.Join(d.Path, filepath.FromSlash(dir)), Source: f.src}
	if doc.Meta.ToolsSet {
		var dropped []string
		s.AllowedTools, dropped = MapTools(doc.Meta.Tools)
		rep.drop(dropped)
	}
	if s.Description == "" {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: "no description: the model will not know when to use this skill"})
	}
	if s.Body == "" {
		rep.Warnings = append(rep.Warnings, Warning{Path: f.path, Msg: "the skill has no instructions (the file's body is empty)"})
	}
	return s, true
}

// Summary is a description cut to one short line for lists sent with
// every request: without its <example> blocks, its escaped or real line
// breaks made spaces, at most max runes (cut at a word, with "...").
func Summary(desc string, max int) string {
	// An <example> block, and what follows it, is written for the model to
	// learn when to pick an agent, and long; cut there, and past what the
	// line can hold, before the work on words.
	if i := indexFold(desc, "<example>"); i >= 0 {
		desc = desc[:i]
	}
	if len(desc) > 8*max+64 {
		desc = desc[:8*max+64]
	}
	if strings.Contains(desc, `\`) {
		desc = strings.ReplaceAll(strings.ReplaceAll(desc, `\n`, " "), `\t`, " ")
	}
	desc = strings.Join(strings.Fields(desc), " ")
	desc = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(desc, "Examples:")), ":")
	r := []rune(desc)
	if len(r) <= max {
		return desc
	}
	if max < 4 {
		return string(r[:max])
	}
	cut := string(r[:max-3])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "..."
}

// indexFold is the index of sub, an ASCII word that begins with <, in s,
// in any case; -1 when it is not there.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i] == '<' && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

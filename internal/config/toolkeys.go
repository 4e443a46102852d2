package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// toolSettings is Source.ToolSettings.
type toolSettings = func(tool string) ([]tools.Setting, bool)

// checkToolSection checks the keys of tools.<name> against the settings the
// tool declares, as Load checks forge's own keys: an unknown key is a
// warning that suggests the closest known one, a value the tool would refuse
// is a *ValueError, so that a misspelt kill_grace is not quietly ignored and
// kill_grace: abc stops forge at start rather than at the tool's first call.
// rate, which every tool takes, is parseTools' to check. A tool settings does
// not know (an MCP server's or a plugin's) is not checked.
func checkToolSection(path, name string, sec map[string]any, settings toolSettings) ([]string, error) {
	if settings == nil {
		return nil, nil
	}
	declared, ok := settings(name)
	if !ok {
		return nil, nil
	}
	if err := duplicateInCase(sec); err != nil {
		return nil, fmt.Errorf("config file %s: tools.%s: %w", path, name, err)
	}
	prefix := "tools." + name + "."
	known := []string{"rate"}
	for _, s := range declared {
		known = append(known, s.Key)
	}
	var warnings []string
	for _, k := range sortedKeys(sec) {
		if strings.EqualFold(k, "rate") {
			continue
		}
		i := slices.IndexFunc(declared, func(s tools.Setting) bool { return strings.EqualFold(s.Key, k) })
		if i < 0 {
			warnings = append(warnings, unknownKey(path, k, prefix, known))
			continue
		}
		s := declared[i]
		if s.Check == nil || sec[k] == nil {
			continue
		}
		if err := s.Check(sec[k]); err != nil {
			return nil, &ValueError{Source: "config file " + path, Key: prefix + s.Key, Value: display(sec[k]), Reason: err.Error()}
		}
	}
	return warnings, nil
}

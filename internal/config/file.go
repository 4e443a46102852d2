package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readFile reads the config file. A missing file is fine unless the user named it
// (explicit): then, like any other read error, it is an error naming the file.
func readFile(path string, explicit bool) (data []byte, found bool, err error) {
	data, err = os.ReadFile(path)
	if err == nil {
		return data, true, nil
	}
	if !explicit && errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is already in our message
	}
	return nil, false, fmt.Errorf("config file %s: %w", path, err)
}

// parseYAML decodes the file's top-level mapping, keys in their written case. An
// empty file is an empty mapping. Errors name the file and, when the parser knows
// it, the line: "config file /x/config.yaml: yaml: line 3: ...".
func parseYAML(path string, data []byte) (map[string]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return map[string]any{}, nil
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return map[string]any{}, nil
	}
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config file %s: line %d: the file must be a mapping of keys to values, such as \"timeout: 90s\"", path, top.Line)
	}
	var raw map[string]any
	if err := top.Decode(&raw); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("config file %s: yaml: %s", path, strings.Join(te.Errors, "; "))
		}
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	if raw == nil {
		raw = map[string]any{}
	}
	return raw, nil
}

// splitTop sorts the file's top-level keys: the settings (lower-cased, for viper),
// the raw sections (tools, mcp) and warnings about unknown keys. A key written twice
// in different cases is an error, since which one wins would be left to chance.
func splitTop(path string, raw map[string]any) (scalars, sections map[string]any, warnings []string, err error) {
	scalars, sections = map[string]any{}, map[string]any{}
	seen := map[string]string{}
	for _, k := range sortedKeys(raw) {
		lk := strings.ToLower(k)
		if prev, dup := seen[lk]; dup {
			return nil, nil, nil, fmt.Errorf("config file %s: key %q is written twice (%q and %q)", path, lk, prev, k)
		}
		seen[lk] = k
		switch {
		case isSetting(lk):
			scalars[lk] = normalize(raw[k])
		case isSection(lk):
			sections[lk] = raw[k]
		default:
			warnings = append(warnings, unknownKey(path, k, "", topKeys()))
		}
	}
	return scalars, sections, warnings, nil
}

func isSetting(k string) bool {
	_, ok := lookupSetting(k)
	return ok && !strings.Contains(k, "-")
}

func isSection(k string) bool { return slices.Contains(sectionKeys, k) }

func topKeys() []string { return append(Keys(), sectionKeys...) }

// unknownKey is the warning for a key forge does not read, with a suggestion when a
// known key is close (a typo, or "-" for "_").
func unknownKey(path, key, prefix string, known []string) string {
	msg := fmt.Sprintf("config file %s: unknown key %q", path, prefix+key)
	if s := closest(key, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", prefix+s)
	}
	return msg
}

// closest returns the known key nearest to key when it is within two edits, else "".
func closest(key string, known []string) string {
	k := strings.ReplaceAll(strings.ToLower(key), "-", "_")
	best, bestDist := "", 3
	for _, c := range known {
		if d := editDistance(k, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// normalize turns decoded YAML into JSON-like values: every mapping becomes a fresh
// map[string]any (non-string keys printed), lists are copied. Fresh maps matter:
// viper lower-cases the keys of the maps it is given, in place.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = normalize(e)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = normalize(e)
		}
		return l
	}
	return v
}

// asMap returns v as a map when it is a YAML mapping (nil counts as an empty one).
func asMap(v any) (map[string]any, bool) {
	switch x := normalize(v).(type) {
	case nil:
		return map[string]any{}, true
	case map[string]any:
		return x, true
	}
	return nil, false
}

// lookupFold finds key in m, exactly or else ignoring case (the first such key
// in sorted order, so the answer does not depend on map order).
func lookupFold[V any](m map[string]V, key string) (V, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for _, k := range sortedKeys(m) {
		if strings.EqualFold(k, key) {
			return m[k], true
		}
	}
	var zero V
	return zero, false
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/forgehq/forge/internal/tools"
)

// Bounds on a config file, which is a few kilobytes: past them the file is refused
// rather than read without end (--config /dev/zero) or decoded for minutes, since
// the YAML decoder compares each mapping's keys pairwise.
const (
	maxFileSize    = 1 << 20
	maxMappingKeys = 1000
)

// readFile reads the config file. A missing file is fine unless the user named it
// (explicit): then, like any other read error, it is an error naming the file.
func readFile(path string, explicit bool) (data []byte, found bool, err error) {
	f, err := os.Open(path)
	if err == nil {
		defer f.Close()
		data, err = io.ReadAll(io.LimitReader(f, maxFileSize+1))
	}
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
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("config file %s: larger than %d bytes; a configuration is a few kilobytes", path, maxFileSize)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, yamlSyntaxError(data, err))
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
	if big := largeMapping(top); big != nil {
		return nil, fmt.Errorf("config file %s: line %d: a mapping of %d keys; forge reads at most %d",
			path, big.Line, len(big.Content)/2, maxMappingKeys)
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

// largeMapping returns the first mapping under n with more than maxMappingKeys
// keys, or nil. It walks the tree as written, without following aliases, so its
// cost is the file's size.
func largeMapping(n *yaml.Node) *yaml.Node {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n, stack = stack[len(stack)-1], stack[:len(stack)-1]
		if n.Kind == yaml.MappingNode && len(n.Content)/2 > maxMappingKeys {
			return n
		}
		stack = append(stack, n.Content...)
	}
	return nil
}

// splitTop sorts the file's top-level keys: the settings, by their full key (a
// group's fields as "read.allow_outside"), the raw sections (tools, mcp,
// permissions) and warnings about unknown keys. A key written twice in different
// cases, or both flat and inside its group, is an error, since which one wins would
// be left to chance.
func splitTop(path string, raw map[string]any) (flat, sections map[string]any, warnings []string, err error) {
	flat, sections = map[string]any{}, map[string]any{}
	written := map[string]string{} // full key -> as the file wrote it
	put := func(key, as string, v any) error {
		if prev, dup := written[key]; dup {
			return fmt.Errorf("config file %s: key %q is written twice (%q and %q)", path, key, prev, as)
		}
		written[key] = as
		flat[key] = normalize(v)
		return nil
	}
	seen := map[string]string{}
	for _, k := range sortedKeys(raw) {
		lk := strings.ToLower(k)
		if prev, dup := seen[lk]; dup {
			return nil, nil, nil, fmt.Errorf("config file %s: key %q is written twice (%q and %q)", path, lk, prev, k)
		}
		seen[lk] = k
		switch {
		case isSection(lk):
			sections[lk] = raw[k]
		case slices.Contains(groupKeys(), lk):
			if scalar, ok := groupScalars[lk]; ok && !isMapping(raw[k]) {
				if err := put(scalar, k, raw[k]); err != nil {
					return nil, nil, nil, err
				}
				continue
			}
			w, err := splitGroup(path, lk, raw[k], put)
			if err != nil {
				return nil, nil, nil, err
			}
			warnings = append(warnings, w...)
		case isSetting(lk):
			if err := put(lk, k, raw[k]); err != nil {
				return nil, nil, nil, err
			}
		default:
			warnings = append(warnings, unknownKey(path, k, "", topKeys()))
		}
	}
	return flat, sections, warnings, nil
}

// splitGroup puts the fields of the group g (read: {allow_outside: false})
// as settings "g.field", descending into nested groups (sandbox: {network:
// {allow: [...]}}), and returns warnings for the fields it does not know.
func splitGroup(path, g string, v any, put func(key, as string, v any) error) ([]string, error) {
	var fields []string // the group's own fields: network, not network.allow
	for _, f := range groupFields(g) {
		if first, _, _ := strings.Cut(f, "."); !slices.Contains(fields, first) {
			fields = append(fields, first)
		}
	}
	m, ok := asMap(v)
	if !ok {
		return nil, &ValueError{Source: "config file " + path, Key: g, Value: display(v),
			Reason: "want a mapping with " + strings.Join(fields, ", ")}
	}
	if err := duplicateInCase(m); err != nil {
		return nil, fmt.Errorf("config file %s: %s: %w", path, g, err)
	}
	var warnings []string
	for _, f := range sortedKeys(m) {
		key := g + "." + strings.ToLower(f)
		switch {
		case isSetting(key):
			if err := put(key, strings.ReplaceAll(g, ".", ": ")+": "+f, m[f]); err != nil {
				return nil, err
			}
		case len(groupFields(key)) > 0:
			w, err := splitGroup(path, key, m[f], put)
			if err != nil {
				return nil, err
			}
			warnings = append(warnings, w...)
		default:
			warnings = append(warnings, unknownKey(path, f, g+".", fields))
		}
	}
	return warnings, nil
}

// isMapping says v is a YAML mapping.
func isMapping(v any) bool {
	switch v.(type) {
	case map[string]any, map[any]any:
		return true
	}
	return false
}

// duplicateInCase is an error when two keys of m differ only in case: forge reads
// keys in any case, so both would mean the same key.
func duplicateInCase(m map[string]any) error {
	seen := map[string]string{}
	for _, k := range sortedKeys(m) {
		lk := strings.ToLower(k)
		if prev, dup := seen[lk]; dup {
			return fmt.Errorf("key %q is written twice (%q and %q)", lk, prev, k)
		}
		seen[lk] = k
	}
	return nil
}

// isSetting reports whether k, lower case, is a setting's key as a file writes it
// ("-" is the flags' spelling, not the file's).
func isSetting(k string) bool {
	_, ok := lookupSetting(k)
	return ok && !strings.Contains(k, "-")
}

func isSection(k string) bool { return slices.Contains(sectionKeys, k) }

// topKeys are the keys a file may have at its top level.
func topKeys() []string {
	var keys []string
	for _, k := range Keys() {
		if !strings.Contains(k, ".") {
			keys = append(keys, k)
		}
	}
	keys = append(keys, groupKeys()...)
	return append(keys, sectionKeys...)
}

// nestedKeys are the keys that live inside a top-level mapping, for suggesting
// "read.allow_outside" to a file that wrote allow_outside at the top.
func nestedKeys() []string {
	var keys []string
	for _, k := range Keys() {
		if strings.Contains(k, ".") {
			keys = append(keys, k)
		}
	}
	for _, f := range permissionFields {
		keys = append(keys, "permissions."+f)
	}
	// The permissions' fields come first: "allow" at the top is more
	// likely theirs than the sandbox's network.
	return append(keys[len(keys)-len(permissionFields):], keys[:len(keys)-len(permissionFields)]...)
}

// unknownKey is the warning for a key forge does not read, with a suggestion when a
// known key is close (a typo, "-" for "_", or a nested key written at the top).
func unknownKey(path, key, prefix string, known []string) string {
	msg := fmt.Sprintf("config file %s: unknown key %q", path, prefix+key)
	if s := suggestKey(key, prefix, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg
}

// suggestKey returns the full key that key, found under prefix, was probably meant
// to be, or "".
func suggestKey(key, prefix string, known []string) string {
	k := strings.ReplaceAll(strings.ToLower(key), "-", "_")
	if prefix == "" {
		for _, n := range nestedKeys() {
			if strings.HasSuffix(n, "."+k) {
				return n
			}
		}
	}
	if s := tools.Suggest(k, known, 1); len(s) > 0 {
		return prefix + s[0]
	}
	return ""
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

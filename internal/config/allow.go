package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// AddAllowRules adds rules to permissions.allow in the config file at
// path, creating the file (and its directory, private when private) when
// there is none, and returns the rules it added: those already there are
// not added twice. The rest of the file, its comments included, stays as
// it was, though YAML may be re-indented. The file is replaced whole, so a
// reader never sees half of it.
func AddAllowRules(path string, rules []string, private bool) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var doc yaml.Node
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s is not valid YAML, so forge leaves it alone: %w", path, err)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s does not hold settings (key: value), so forge leaves it alone", path)
	}
	perms, err := mappingEntry(root, "permissions", yaml.MappingNode)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	allow, err := mappingEntry(perms, "allow", yaml.SequenceNode)
	if err != nil {
		return nil, fmt.Errorf("%s: permissions.%w", path, err)
	}
	have := map[string]bool{}
	for _, n := range allow.Content {
		have[n.Value] = true
	}
	var added []string
	for _, r := range rules {
		if !have[r] {
			have[r] = true
			added = append(added, r)
			allow.Content = append(allow.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: r})
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if err := replaceFile(path, out.Bytes(), private); err != nil {
		return nil, err
	}
	return added, nil
}

// mappingEntry is the value of key in m (keys match in any case, as forge
// reads them), added as an empty node of kind when m has none. A single
// rule written as a string becomes a list.
func mappingEntry(m *yaml.Node, key string, kind yaml.Kind) (*yaml.Node, error) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !strings.EqualFold(m.Content[i].Value, key) {
			continue
		}
		v := m.Content[i+1]
		switch {
		case v.Kind == kind:
			return v, nil
		case v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == ""):
			*v = yaml.Node{Kind: kind}
			return v, nil
		case v.Kind == yaml.ScalarNode && kind == yaml.SequenceNode:
			*v = yaml.Node{Kind: kind, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: v.Value}}}
			return v, nil
		}
		return nil, fmt.Errorf("%s is neither a list nor a mapping as forge expects, so forge leaves it alone", key)
	}
	v := &yaml.Node{Kind: kind}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	return v, nil
}

// replaceFile writes data to path through a file beside it, keeping the
// old file's mode (0600 for a new private one, 0644 otherwise).
func replaceFile(path string, data []byte, private bool) error {
	mode, dirMode := fs.FileMode(0o644), fs.FileMode(0o755)
	if private {
		mode, dirMode = 0o600, 0o700
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // a linked file (a dotfiles repository) stays linked
	}
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Package plugin turns executables described by YAML manifests into forge
// tools, so that a tool can be added in any language without rebuilding forge.
//
// A manifest names the tool, describes it and its parameters in forge's
// parameter model, and says which command runs it:
//
//	name: wordcount
//	description: Count the words, lines and characters of a text.
//	category: other
//	parameters:
//	  - name: text
//	    type: string
//	    description: The text to count.
//	    required: true
//	command: ./wordcount.sh
//	timeout: 10s
//	read_only: true
//
// forge validates the arguments against the parameters, then runs the
// command with the arguments as one JSON object on standard input; see
// Plugin.Execute for the protocol. Manifests are decoded strictly: an unknown
// field (with the known field it was probably meant to be), a wrong type or an
// impossible constraint is refused with a message that names the file, the
// field and its line.
package plugin

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/forgehq/forge/internal/tools"
)

// MaxManifestSize bounds a manifest file; a manifest is a few hundred bytes.
const MaxManifestSize = 1 << 20

// Manifest is one plugin's description, decoded and checked.
type Manifest struct {
	// Path is the manifest file, as found in its plugin directory.
	Path string
	// Dir is the directory of the manifest: relative commands start there.
	Dir         string
	Name        string
	Description string
	Category    tools.Category
	Parameters  []tools.Parameter
	// Command is the program and its arguments. A program with a path
	// separator is relative to Dir; a bare name is looked up in PATH.
	Command []string
	// Timeout is the plugin's own deadline for a call; 0 means the
	// execution context's.
	Timeout time.Duration
	// ReadOnly declares that the plugin changes nothing (no files written,
	// nothing sent that acts): such a tool may be offered where only
	// readers are, as by forge mcp serve by default. False unless the
	// manifest says read_only: true.
	ReadOnly bool
}

// FieldError is a manifest error: the file, the field (parameters[1].type)
// and what is wrong. Its text is "file: field: message".
type FieldError struct {
	File    string
	Field   string
	Line    int // 1-based line of the offending node; 0 when unknown
	Message string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	return b.String()
}

// ErrBadManifest is wrapped by every manifest error, for errors.Is.
var ErrBadManifest = errors.New("bad plugin manifest")

// Unwrap lets errors.Is(err, ErrBadManifest) recognise a FieldError.
func (e *FieldError) Unwrap() error { return ErrBadManifest }

// ReadManifest reads and parses the manifest file at path.
func ReadManifest(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &FieldError{File: path, Message: err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestSize+1))
	if err != nil {
		return nil, &FieldError{File: path, Message: err.Error()}
	}
	if len(data) > MaxManifestSize {
		return nil, &FieldError{File: path, Message: fmt.Sprintf("manifest larger than %d bytes", MaxManifestSize)}
	}
	return ParseManifest(path, data)
}

// ParseManifest parses a manifest. path names it in errors and sets its
// directory; the file itself is not read.
func ParseManifest(path string, data []byte) (*Manifest, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &FieldError{File: path, Message: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &FieldError{File: path, Message: "empty manifest"}
	}
	d := &decoder{file: path}
	m := &Manifest{Path: path, Dir: filepath.Dir(path), Category: tools.CategoryOther}
	if err := d.manifest(doc.Content[0], m); err != nil {
		return nil, err
	}
	return m, nil
}

// Descriptor returns what the registry lists and exports for the plugin.
func (m *Manifest) Descriptor() tools.Descriptor {
	return tools.Descriptor{Name: m.Name, Description: m.Description, Category: m.Category, Parameters: m.Parameters, ReadOnly: m.ReadOnly}
}

// Package builtin holds forge's built-in tools, one file per tool.
package builtin

import (
	"errors"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// spec is a built-in tool as the registry sees it before it is built.
type spec struct {
	desc    tools.Descriptor
	factory tools.Factory
	how     tools.Instancing
	// settings are the keys factory reads from the tool's section.
	settings []tools.Setting
}

// described gives a built tool the identity of its descriptor, so that the
// descriptor (what listing and schema export see) and the built tool can
// never disagree. Every built-in tool embeds it.
type described struct{ d tools.Descriptor }

func (x described) Name() string                  { return x.d.Name }
func (x described) Description() string           { return x.d.Description }
func (x described) Category() tools.Category      { return x.d.Category }
func (x described) Parameters() []tools.Parameter { return x.d.Parameters }
func (x described) IsReadOnly() bool              { return x.d.ReadOnly }
func (x described) RunsConfined() bool            { return x.d.Confined }

// Register registers every built-in tool in r, lazily: each is built on first
// use by its factory, which receives its tools.<Name> configuration section.
func Register(r *tools.Registry) error {
	var errs []error
	for _, group := range specGroups() {
		for _, s := range group {
			errs = append(errs, r.RegisterLazy(s.desc, s.factory, s.how))
		}
	}
	return errors.Join(errs...)
}

// specGroups are the built-in tools' specs for one registry. The file
// tools share the execution tools' table of background processes, since
// whether any runs decides where they may read and write (editorFiles).
func specGroups() [][]spec {
	h := &shellHolder{}
	return [][]spec{fileSpecs(h), execSpecs(h), webSpecs(), otherSpecs()}
}

// Settings returns the keys the built-in tool name (in any case, as
// configuration sections match) reads from its tools.<Name> section, so
// that forge can check the section when it starts; false when no built-in
// tool has that name.
func Settings(name string) ([]tools.Setting, bool) {
	for _, group := range specGroups() {
		for _, s := range group {
			if strings.EqualFold(s.desc.Name, name) {
				return s.settings, true
			}
		}
	}
	return nil, false
}

package builtin

import "github.com/forgehq/forge/internal/tools"

// fileSpecs are the file tools: Read, Write, Edit, Glob, Grep. Each is a
// singleton: it keeps only its configuration, and every call's state lives
// in the call.
func fileSpecs(h *shellHolder) []spec {
	return []spec{
		{desc: readDescriptor, factory: newRead(h), how: tools.Singleton, settings: []tools.Setting{readMaxLineLength.Setting()}},
		{desc: writeDescriptor, factory: newWrite(h), how: tools.Singleton, settings: []tools.Setting{allowedRootsKey.Setting()}},
		{desc: editDescriptor, factory: newEdit(h), how: tools.Singleton, settings: []tools.Setting{allowedRootsKey.Setting()}},
		{desc: globDescriptor, factory: newGlob, how: tools.Singleton, settings: []tools.Setting{globLimit.Setting()}},
		{desc: grepDescriptor, factory: newGrep, how: tools.Singleton,
			settings: []tools.Setting{grepHeadLimit.Setting(), grepMaxLineLength.Setting()}},
	}
}

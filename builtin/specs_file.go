package builtin

// fileSpecs are the file tools: Read, Write, Edit, Glob, Grep.
func fileSpecs() []spec { return nil }

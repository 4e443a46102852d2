package tools

// Setting is one key a tool's factory reads from its configuration section
// (tools.<Name>, Deps.Config). A tool that declares its settings has its
// section checked when forge starts, as forge's own keys are: an unknown
// key is a warning and a value the factory would refuse is an error, rather
// than a failure at the tool's first call or a misspelt key quietly ignored.
type Setting struct {
	// Key is the key as the documentation writes it ("kill_grace"); a
	// section may write it in any case.
	Key string
	// Check says why v cannot be the key's value, or returns nil. It must
	// accept exactly what the factory accepts.
	Check func(v any) error
}

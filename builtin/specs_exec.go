package builtin

// execSpecs are the execution tools: Bash, BashOutput, KillShell.
func execSpecs() []spec { return nil }

// webSpecs are the web tools: WebFetch, WebSearch.
func webSpecs() []spec { return nil }

// otherSpecs are NotebookEdit, calculator and the loop-breaking task tools.
func otherSpecs() []spec { return nil }

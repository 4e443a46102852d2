package builtin

import "github.com/forgehq/forge/internal/tools"

// execSpecs are the execution tools: Bash, BashOutput, KillShell. They share
// one background process table per registry (the holder created here), so
// BashOutput and KillShell see what Bash started, and closing any of them
// ends every background command.
func execSpecs(h *shellHolder) []spec {
	return []spec{
		{desc: bashDescriptor, factory: newBash(h), how: tools.Singleton,
			settings: []tools.Setting{bashShellKey.Setting(), bashKillGraceKey.Setting(), bashOutputDirKey.Setting()}},
		{desc: bashOutputDescriptor, factory: newBashOutput(h), how: tools.Singleton},
		{desc: killShellDescriptor, factory: newKillShell(h), how: tools.Singleton},
	}
}

// webSpecs are the web tools: WebFetch, WebSearch.
func webSpecs() []spec {
	return []spec{
		{desc: webFetchDescriptor, factory: newWebFetch, how: tools.Singleton,
			settings: []tools.Setting{webFetchTimeoutKey.Setting(), webFetchMaxBytesKey.Setting(), webFetchAllowPrivateKey.Setting()}},
		{desc: webSearchDescriptor, factory: newWebSearch, how: tools.Singleton,
			settings: []tools.Setting{webSearchEndpointKey.Setting(), webSearchTimeoutKey.Setting(), webSearchMaxResultsKey.Setting()}},
	}
}

// otherSpecs are NotebookEdit, calculator and the loop-breaking task tools.
func otherSpecs() []spec {
	return []spec{
		{desc: notebookEditDescriptor, factory: newNotebookEdit, how: tools.Singleton},
		{desc: calculatorDescriptor, factory: newCalculator, how: tools.Singleton},
		{desc: taskCompletionDescriptor, factory: newTaskCompletion, how: tools.Singleton},
		{desc: askQuestionDescriptor, factory: newAskQuestion, how: tools.Singleton},
		{desc: converseDescriptor, factory: newConverse, how: tools.Singleton},
	}
}

package tools

// Presentation is how a tool wants one finished call shown to a person,
// beyond the generic result: the shell draws it, the core only carries it,
// so that the printer never needs to know any tool's arguments or metadata.
type Presentation struct {
	// Details are labelled values that identify the call, shown with a
	// failed result (Bash's "Command").
	Details []Detail
	// Failure, when set on a failed call, asks for the failed-execution
	// layout: what ran, its output, what went wrong and what to do.
	Failure *Failure
	// Brief, when set, stands for a successful call's output in the
	// shell's short preview of it: what the output holds ("120 lines")
	// where its first lines would only repeat what the person has (the
	// file they asked the model to read).
	Brief string
	// Purpose is what the call is for, in the model's words (Bash's
	// description), shown beside the call's line and in its approval
	// question; "" when it gave none.
	Purpose string
}

// Detail is one labelled value of a Presentation.
type Detail struct {
	Label string
	Value string
}

// Failure explains a failed call to a person.
type Failure struct {
	// Error is the failure's message, without what Summary says.
	Error string
	// Summary is one sentence on the outcome ("The command failed with
	// exit code 2."); empty means a generic one.
	Summary string
	// Hint says what to do next.
	Hint string
	// Exit, when set, says the call ran to its end and failed on its own
	// terms, in a few words for the call's line ("exit 1"): Error is then
	// what it printed, which tells what went wrong better than a panel
	// (a failing test's summary is at its end).
	Exit string
}

// Presenter is implemented by tools that present their own results.
type Presenter interface {
	Present(args Args, res Result) Presentation
}

// Present returns t's presentation of a call with args that ended in res,
// or the zero Presentation when t does not present its results. A tool
// that panics while presenting is shown plainly: presentation must never
// take the shell down.
func Present(t Tool, args Args, res Result) (p Presentation) {
	pr, ok := t.(Presenter)
	if !ok || pr == nil {
		return Presentation{}
	}
	defer func() {
		if recover() != nil {
			p = Presentation{}
		}
	}()
	return pr.Present(args, res)
}

package repl

import "bytes"

// maxTypeAhead bounds what is kept of the input typed while a line runs
// (a paste among it); the rest is dropped.
const maxTypeAhead = 16 << 20

// Type-ahead: while a line runs, the terminal's bytes are read by the
// inputFilter itself and kept, unseen (the terminal echoes nothing then),
// for the next prompt, where they arrive as if typed there: the person
// may write the next prompt while the model answers, as in other agents'
// shells. A question asked meanwhile (an approval) reads only what is
// typed after it appears: a "y" or "a" typed ahead must not answer it.

// beginTurn starts keeping what is typed, as a line starts to run.
func (in *inputFilter) beginTurn() {
	in.mu.Lock()
	in.turn = true
	in.mu.Unlock()
	in.hold()
}

// endTurn stops keeping what is typed, as the line ends; what was kept
// waits for takeLine.
func (in *inputFilter) endTurn() {
	in.mu.Lock()
	in.turn = false
	in.mu.Unlock()
	in.unhold()
}

// pauseTurn lets a question read the terminal; resumeTurn keeps what is
// typed again once it is answered.
func (in *inputFilter) pauseTurn() { in.unhold() }

func (in *inputFilter) resumeTurn() {
	in.mu.Lock()
	turn := in.turn
	in.mu.Unlock()
	if turn {
		in.hold()
	}
}

// hold starts the goroutine that reads the terminal into held.
func (in *inputFilter) hold() {
	in.mu.Lock()
	if in.holdStop != nil {
		in.mu.Unlock()
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	in.holdStop, in.holdDone = stop, done
	in.mu.Unlock()
	go func() {
		defer close(done)
		for {
			data, stopped, err := in.src.readUntil(stop)
			if stopped {
				return
			}
			in.keep(data, err)
			if err != nil {
				return
			}
		}
	}()
}

// unhold stops the reading goroutine, and keeps what it had read from the
// terminal and not yet handed over.
func (in *inputFilter) unhold() {
	in.mu.Lock()
	stop, done := in.holdStop, in.holdDone
	in.holdStop, in.holdDone = nil, nil
	in.mu.Unlock()
	if stop == nil {
		return
	}
	close(stop)
	<-done
	if c, ok := in.src.ready(); ok {
		in.keep(c.data, c.err)
	}
}

// keep adds bytes read while a line ran, up to maxTypeAhead.
func (in *inputFilter) keep(data []byte, err error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if room := maxTypeAhead - len(in.held); len(data) > room {
		data = data[:max(room, 0)]
	}
	in.held = append(in.held, data...)
	if err != nil && in.err == nil {
		in.err = err
	}
}

// takeLine hands the editor what was typed ahead, up to the end of its
// first line: the rest waits for the prompt after that line has run, so
// that nothing typed ahead reaches a question that line asks.
func (in *inputFilter) takeLine() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.held) == 0 {
		return
	}
	n := lineEnd(in.held)
	in.out = in.f.feed(in.held[:n], in.out)
	in.held = in.held[n:]
	if len(in.held) == 0 {
		in.held = nil
	}
}

// lineEnd is the length of the first line of raw terminal input b, its
// Enter (or Ctrl-D) included, or len(b) when it has none. An Enter in a
// bracketed paste, or after Escape (Alt-Enter), ends no line.
func lineEnd(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch {
		case bytes.HasPrefix(b[i:], []byte(pasteStart)):
			j := bytes.Index(b[i+len(pasteStart):], []byte(pasteEnd))
			if j < 0 {
				return len(b)
			}
			i += len(pasteStart) + j + len(pasteEnd) - 1
		case b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\r':
			i++
		case b[i] == '\r' || b[i] == 0x04:
			return i + 1
		}
	}
	return len(b)
}

package session

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"sync"
)

// Lines are decoded in batches on every CPU: decoding JSON is nearly all
// of a load's time, each line decodes on its own, and the batches keep
// memory bounded (a few batches in flight) where reading the whole log
// first would hold all of it.
const (
	batchLines = 256
	batchBytes = 256 << 10
)

// decodedLine is one line of a log and what it decoded to.
type decodedLine struct {
	no       int   // from 1
	complete bool  // it ended in '\n'
	end      int64 // where the last line ending in '\n' so far ends
	empty    bool
	rec      record
	err      error // errLineTooLong, or why the line is not a record
	span     [2]int
}

type batch struct {
	raw   []byte // the lines, back to back
	lines []decodedLine
	err   error // a read error after the lines
	done  chan struct{}
}

func (b *batch) decode() {
	for i := range b.lines {
		l := &b.lines[i]
		if l.err != nil {
			continue
		}
		raw := b.raw[l.span[0]:l.span[1]]
		if l.empty = len(raw) == 0 && l.complete; !l.empty {
			l.rec, l.err = decodeRecord(raw)
		}
	}
	close(b.done)
}

// decodeLines yields the lines of r decoded, in order, then a read error
// if one stopped it. Stopping the loop early stops the reading.
func decodeLines(r io.Reader) iter.Seq2[*decodedLine, error] {
	return func(yield func(*decodedLine, error) bool) {
		workers := runtime.GOMAXPROCS(0)
		work, order := make(chan *batch), make(chan *batch, 2*workers)
		// Batches go back to the reader once read out: a load then
		// allocates a few of them, not one per 256 lines.
		free := make(chan *batch, 3*workers+2)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for b := range work {
					b.decode()
				}
			})
		}
		wg.Go(func() { readBatches(r, work, order, free, stop) })
		defer func() {
			close(stop)
			for range order { // let the reader see stop
			}
			wg.Wait()
		}()
		for b := range order {
			<-b.done
			for i := range b.lines {
				if !yield(&b.lines[i], nil) {
					return
				}
			}
			if b.err != nil {
				yield(nil, b.err)
				return
			}
			select {
			case free <- b:
			default:
			}
		}
	}
}

// readBatches cuts r into batches of lines and hands each to the decoders
// (work) and, in order, to the reader of the results (order), reusing the
// batches that come back (free).
func readBatches(r io.Reader, work, order chan<- *batch, free <-chan *batch, stop <-chan struct{}) {
	defer close(order)
	defer close(work)
	lr := newLineReader(r)
	for {
		var b *batch
		select {
		case b = <-free:
			b.raw, b.lines = b.raw[:0], b.lines[:0]
		default:
			b = &batch{raw: make([]byte, 0, batchBytes+4<<10), lines: make([]decodedLine, 0, batchLines)}
		}
		b.done = make(chan struct{})
		var err error
		for len(b.lines) < batchLines && len(b.raw) < batchBytes {
			line, complete, lerr := lr.next()
			if lerr != nil && !errors.Is(lerr, errLineTooLong) {
				err = lerr
				break
			}
			start := len(b.raw)
			b.raw = append(b.raw, line...)
			b.lines = append(b.lines, decodedLine{no: lr.no, complete: complete, end: lr.end, err: lerr, span: [2]int{start, len(b.raw)}})
		}
		if err != nil && !errors.Is(err, io.EOF) {
			b.err = fmt.Errorf("read line %d: %w", lr.no+1, err)
		}
		if len(b.lines) == 0 && b.err == nil {
			return
		}
		select {
		case order <- b:
		case <-stop:
			return
		}
		select {
		case work <- b:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

package repl

import (
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// pasteIdle is how long a paste may go quiet before it counts as ended: a
// terminal sends a paste in one burst, so a begin marker with no end (a
// person typing ESC[200~, a terminal reset mid-paste) must not swallow
// everything typed after it.
const pasteIdle = time.Second

// inputFilter is the line editor's standard input: the terminal's bytes
// through a keyFilter. It reads the terminal when the editor asks, and
// while a line runs (keeping those bytes for the next prompt: see
// typeahead.go), from one goroutine, so that a read can be given up on
// when a paste goes quiet or a line ends, and Close ends a read that
// waits.
type inputFilter struct {
	src  *onDemand
	idle time.Duration // pasteIdle, shorter in tests

	mu  sync.Mutex
	f   keyFilter
	out []byte // filtered bytes the editor has not read yet
	err error  // the terminal's error, given once out is read

	// turn says a line runs; held is what was typed meanwhile, read by
	// the goroutine that holdStop stops (holdDone closes as it ends).
	turn     bool
	held     []byte
	holdStop chan struct{}
	holdDone chan struct{}
}

func newInputFilter(src io.Reader, onPaste func(text string, cut bool) string) *inputFilter {
	return &inputFilter{src: newOnDemand(src), idle: pasteIdle, f: keyFilter{onPaste: onPaste}}
}

// takeModeKey says a modeKey the editor got stands for Shift+Tab (and
// is not a Ctrl-G typed), and counts it taken.
func (in *inputFilter) takeModeKey() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.f.modeKeys == 0 {
		return false
	}
	in.f.modeKeys--
	return true
}

// Read gives the editor the filtered keystrokes.
func (in *inputFilter) Read(p []byte) (int, error) {
	for {
		in.mu.Lock()
		if len(in.out) > 0 {
			n := copy(p, in.out)
			in.out = in.out[n:]
			in.mu.Unlock()
			return n, nil
		}
		if in.err != nil {
			err := in.err
			in.mu.Unlock()
			return 0, err
		}
		var wait time.Duration
		if in.f.inPaste {
			wait = in.idle
		}
		in.mu.Unlock()

		data, quiet, err := in.src.read(wait)
		in.mu.Lock()
		if quiet {
			in.out = in.f.flush(in.out)
		} else {
			in.out = in.f.feed(data, in.out)
			in.err = err
		}
		in.mu.Unlock()
	}
}

// setKeys makes the next answer a single key among keys ("" for a line).
func (in *inputFilter) setKeys(keys string) {
	in.mu.Lock()
	in.f.keys = keys
	in.mu.Unlock()
}

// Close ends a read that waits; the terminal itself stays open.
func (in *inputFilter) Close() error {
	in.src.close()
	return nil
}

// onDemand reads src from its own goroutine, one read per request, so
// that a caller can stop waiting for a read and take its bytes later.
type onDemand struct {
	src     io.Reader
	ask     chan struct{}
	got     chan chunk
	done    chan struct{}
	once    sync.Once
	pending bool // a read was asked for and its chunk not taken yet
	// arrived says the read asked for returned, and its chunk is on its
	// way to got.
	arrived atomic.Bool
}

type chunk struct {
	data []byte
	err  error
}

func newOnDemand(src io.Reader) *onDemand {
	d := &onDemand{src: src, ask: make(chan struct{}), got: make(chan chunk, 1), done: make(chan struct{})}
	go d.loop()
	return d
}

func (d *onDemand) loop() {
	buf := make([]byte, 32<<10)
	for {
		select {
		case <-d.ask:
		case <-d.done:
			return
		}
		n, err := d.src.Read(buf)
		d.arrived.Store(true)
		c := chunk{data: append([]byte(nil), buf[:n]...), err: err}
		select {
		case d.got <- c:
		case <-d.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// read returns the next bytes of src; with wait > 0, quiet is true when
// none came in that time (the read goes on, and a later call takes it).
// It is called from one goroutine at a time.
func (d *onDemand) read(wait time.Duration) (data []byte, quiet bool, err error) {
	if wait <= 0 {
		return d.readUntil(nil)
	}
	stop := make(chan struct{})
	t := time.AfterFunc(wait, func() { close(stop) })
	defer t.Stop()
	return d.readUntil(stop)
}

// readUntil returns the next bytes of src, or stopped when stop is ready
// first (the read goes on, and a later call, or ready, takes it).
func (d *onDemand) readUntil(stop <-chan struct{}) (data []byte, stopped bool, err error) {
	if !d.pending {
		select {
		case d.ask <- struct{}{}:
			d.pending = true
		case <-d.done:
			return nil, false, io.EOF
		}
	}
	select {
	case c := <-d.got:
		d.taken()
		return c.data, false, c.err
	case <-stop:
		return nil, true, nil
	case <-d.done:
		return nil, false, io.EOF
	}
}

// ready takes the chunk of a read asked for earlier, if it came: it
// waits for a chunk already read and on its way.
func (d *onDemand) ready() (chunk, bool) {
	if !d.pending || !d.arrived.Load() {
		return chunk{}, false
	}
	select {
	case c := <-d.got:
		d.taken()
		return c, true
	case <-d.done:
		return chunk{}, false
	}
}

// taken notes that the chunk asked for was taken: the next read asks
// for another.
func (d *onDemand) taken() {
	d.pending = false
	d.arrived.Store(false)
}

func (d *onDemand) close() { d.once.Do(func() { close(d.done) }) }

package agent

import (
	"encoding/json"
	"fmt"
	"slices"
)

// repeatLimit is how many times a call (or a short cycle of calls) may be
// made in one prompt: the next repetition is not run.
const repeatLimit = 4

// maxCycle is the longest cycle of calls the detector looks for.
const maxCycle = 4

// loopDetector notices a model repeating itself within one prompt: the
// same call (tool and arguments) a fifth time, or a short cycle of calls
// (A, B, A, B, ...) starting its fifth round. The first time it says so in
// the call's result, so the model can change course; if the model repeats
// itself again, the run stops.
type loopDetector struct {
	off     bool
	history []string
	warned  bool
}

// verdict of one call: run it, refuse it with a warning, or stop the run.
type loopVerdict int

const (
	loopRun loopVerdict = iota
	loopWarn
	loopStop
)

// check records call and says what to do with it.
func (d *loopDetector) check(c Call) (loopVerdict, string) {
	if d.off {
		return loopRun, ""
	}
	key := callKey(c)
	msg := d.repetition(key)
	d.history = append(d.history, key)
	if msg == "" {
		return loopRun, ""
	}
	if d.warned {
		return loopStop, msg
	}
	d.warned = true
	return loopWarn, msg
}

// repetition says how key repeats what came before, or "".
func (d *loopDetector) repetition(key string) string {
	n := 0
	for _, k := range d.history {
		if k == key {
			n++
		}
	}
	if n >= repeatLimit {
		return fmt.Sprintf("This exact call was already made %d times in this task and was not run again.", n)
	}
	h := d.history
	for l := 2; l <= maxCycle; l++ {
		if len(h) < repeatLimit*l || h[len(h)-l] != key {
			continue
		}
		cycle := h[len(h)-l:]
		if allSame(cycle) {
			continue
		}
		ok := true
		for r := 2; r <= repeatLimit && ok; r++ {
			ok = slices.Equal(h[len(h)-r*l:len(h)-(r-1)*l], cycle)
		}
		if ok {
			return fmt.Sprintf("The same %d calls were already made %d times in a row in this task; this call was not run.", l, repeatLimit)
		}
	}
	return ""
}

func allSame(xs []string) bool {
	for _, x := range xs[1:] {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// callKey identifies a call by its tool and arguments; decoded arguments
// marshal with sorted keys, so the order the model wrote them in does not
// matter.
func callKey(c Call) string {
	if c.Args != nil {
		if b, err := json.Marshal(c.Args); err == nil {
			return c.Name + "\x00" + string(b)
		}
	}
	return c.Name + "\x00" + string(c.Raw)
}

// loopAdvice is what the model is told when it repeats itself.
const loopAdvice = " Repeating it will not give a different result: use what the earlier calls returned, change the arguments, " +
	"try another way, or finish with what you have. If you repeat it again, the task stops."

//go:build race

package builtin

// raceEnabled is true under the race detector, which slows searches of a
// whole source tree several times over.
const raceEnabled = true

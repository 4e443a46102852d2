package tools

import "fmt"

// Stats summarise the registry for the shell's "Tool Registry State" panel.
type Stats struct {
	ID         string           // an identity for this registry instance: 0x7f8b4c0d1e90
	Total      int              // number of tools
	ByCategory map[Category]int // every category, zero included
	Names      []string         // sorted
}

// Stats returns a consistent summary of the registry: all figures come from
// the same state even while other goroutines register tools.
func (r *Registry) Stats() Stats {
	s := r.load()
	st := Stats{
		ID:         r.id,
		Total:      len(s.sorted),
		ByCategory: make(map[Category]int, len(Categories())),
		Names:      make([]string, len(s.sorted)),
	}
	if st.ID == "" {
		st.ID = fmt.Sprintf("%p", r)
	}
	for _, c := range Categories() {
		st.ByCategory[c] = 0
	}
	for i, t := range s.sorted {
		st.Names[i] = t.Name()
		st.ByCategory[t.Category()]++
	}
	return st
}

package tools

import "slices"

// Category groups tools for listing, filtering and export.
type Category string

// The categories a tool can belong to.
const (
	CategoryFile      Category = "file"
	CategoryExecution Category = "execution"
	CategoryWeb       Category = "web"
	CategoryTask      Category = "task"
	CategoryNotebook  Category = "notebook"
	CategoryMCP       Category = "mcp"
	CategoryOther     Category = "other"
)

// Categories lists every category in display order: the file tools first,
// the catch-all "other" last.
func Categories() []Category {
	return []Category{CategoryFile, CategoryExecution, CategoryWeb, CategoryTask, CategoryNotebook, CategoryMCP, CategoryOther}
}

// Valid reports whether c is one of the known categories.
func (c Category) Valid() bool {
	return slices.Contains(Categories(), c)
}

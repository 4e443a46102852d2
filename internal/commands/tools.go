package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/tools"
)

func toolsCommand() Command {
	return Command{
		Name: "tools", Usage: "/tools [--category C] [NAME]", Summary: "List the tools by category, or show one tool's details",
		Help:       "Without NAME, lists every tool grouped by category; --category keeps one category. With NAME, shows the tool's parameters: type, required or optional, default and constraints.",
		Example:    "/tools\n/tools --category file\n/tools Read",
		CLIExample: "forge tools -o json | jq -r '.tools[].name'",
		Flags: func(fs *pflag.FlagSet) Run {
			cat := fs.String("category", "", "only the tools of this category: "+strings.Join(categoryNames(), ", "))
			return func(_ context.Context, env *Env, inv Invocation) int {
				if len(inv.Args) > 1 {
					return env.Usage(toolsCommand(), inv, "too many arguments")
				}
				name := ""
				if len(inv.Args) == 1 {
					name = inv.Args[0]
				}
				return showTools(env, *cat, name)
			}
		},
		FlagValues: map[string][]string{"--category": categoryNames()},
		Args:       AtMost(1),
		Complete: func(env *Env, words []string, partial string) []string {
			if len(words) > 0 {
				return nil
			}
			return toolNames(env, words, partial)
		},
	}
}

// showTools lists the tools (of one category when cat is set) or, with a
// name, shows one tool's details.
func showTools(env *Env, cat, name string) int {
	if name != "" {
		t, ok := env.Registry.Get(name)
		if !ok {
			return toolNotFound(env, name)
		}
		env.Printer().ToolDetails(tools.Describe(t))
		return ExitOK
	}
	ts := env.Registry.ListAll()
	if cat != "" {
		c, err := parseCategory(cat)
		if err != nil {
			return env.Fail(ExitUsage, "usage", err.Error())
		}
		ts = env.Registry.ListByCategory(c)
	}
	ds := make([]tools.Descriptor, len(ts))
	for i, t := range ts {
		ds[i] = tools.Describe(t)
	}
	env.Printer().ToolList(ds)
	return ExitOK
}

// toolNotFound shows the Tool Not Found panel with up to three suggestions.
func toolNotFound(env *Env, name string) int {
	env.Printer().ToolNotFound(name, tools.Suggest(name, env.Registry.ListNames(), 3))
	return ExitUsage
}

// parseCategory accepts a category name in any case.
func parseCategory(s string) (tools.Category, error) {
	c := tools.Category(strings.ToLower(s))
	if c.Valid() {
		return c, nil
	}
	return "", fmt.Errorf("Unknown category: %s (known: %s)", s, strings.Join(categoryNames(), ", "))
}

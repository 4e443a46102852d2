package commands

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/tools"
)

func schemaCommand() Command {
	return Command{
		Name: "schema", Usage: "/schema [NAME ...] [--format F] [--category C]", Summary: "Print tool schemas for an LLM provider",
		Help:       "Prints the tools' definitions in a provider's format, ready to paste into a request: one object for one tool, an array for several or all. Formats: openai (default), anthropic, langchain, gemini, mcp.",
		Example:    "/schema Read\n/schema Read Write --format anthropic\n/schema --category file --format gemini",
		CLIExample: "forge schema -o json | jq '.schemas | length'",
		Flags: func(fs *pflag.FlagSet) Run {
			format := fs.StringP("format", "f", string(tools.FormatOpenAI), "schema format: "+strings.Join(formatNames(), ", "))
			cat := fs.String("category", "", "only the tools of this category: "+strings.Join(categoryNames(), ", "))
			return func(_ context.Context, env *Env, inv Invocation) int {
				return showSchemas(env, inv.Args, *format, *cat)
			}
		},
		FlagValues: map[string][]string{"--format": formatNames(), "-f": formatNames(), "--category": categoryNames()},
		Complete:   toolNames,
	}
}

// showSchemas prints the schemas of the named tools, of a category, or of
// every tool.
func showSchemas(env *Env, names []string, format, cat string) int {
	f, err := tools.ParseFormat(format)
	if err != nil {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	var schemas []json.RawMessage
	switch {
	case len(names) > 0 && cat != "":
		return env.Fail(ExitUsage, "usage", "give tool names or --category, not both")
	case len(names) > 0:
		for _, n := range names {
			t, ok := env.Registry.Get(n)
			if !ok {
				return toolNotFound(env, n)
			}
			sc, err := tools.ExportSchema(tools.Describe(t), f)
			if err != nil {
				return env.Fail(ExitFailed, "schema", err.Error())
			}
			schemas = append(schemas, sc)
		}
	case cat != "":
		c, err := parseCategory(cat)
		if err != nil {
			return env.Fail(ExitUsage, "usage", err.Error())
		}
		if schemas, err = env.Executor.SchemasByCategory(c, f); err != nil {
			return env.Fail(ExitFailed, "schema", err.Error())
		}
	default:
		if schemas, err = env.Executor.Schemas(f); err != nil {
			return env.Fail(ExitFailed, "schema", err.Error())
		}
	}
	env.Printer().Schemas(f, schemas, len(names) == 1)
	return ExitOK
}

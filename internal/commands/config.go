package commands

import (
	"context"

	"github.com/forgehq/forge/internal/config"
)

func configCommand() Command {
	return Command{
		Name: "config", Usage: "/config", Summary: "Show the merged configuration and where each value came from",
		Help: "Values come, lowest first, from forge's defaults, your config file ($XDG_CONFIG_HOME/forge/config.yaml or --config), " +
			"the project's .forge/config.yaml (found from the working directory up to the repository's root), " +
			"FORGE_* environment variables, and flags. A project's settings that widen what forge may do apply only " +
			"once you trust it (forge trust); until then they are listed as ignored.",
		Example: "/config", CLIExample: "forge config -o json", Args: AtMost(0),
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(configCommand(), inv, "/config takes no arguments")
			}
			c := env.Config
			// Laid out to the terminal's width here, so that no value
			// or path is broken where the terminal's edge falls.
			env.Printer().Verbatim(configText(c, env.TermWidth()), configJSON(c))
			return ExitOK
		},
	}
}

// configHeader names the files read and the project's trust.
func configHeader(c config.Config) string {
	user := c.File
	if user == "" {
		user = "none"
	}
	h := "Config file: " + user
	switch {
	case c.Project.Skipped:
		h += "\nProject file: " + c.Project.File + " (has an error, see above: ignored)"
	case c.Project.File != "" && c.Project.Trusted:
		h += "\nProject file: " + c.Project.File + " (trusted)"
	case c.Project.File != "":
		h += "\nProject file: " + c.Project.File + " (not trusted: settings that widen what forge may do are ignored; forge trust applies them)"
	case c.ProjectDir != "":
		h += "\nProject: " + c.ProjectDir + " (no .forge/config.yaml)"
	}
	return h
}

// shownValue makes an empty value visible in the table.
func shownValue(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

type configEntryJSON struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

type configViewJSON struct {
	File           string            `json:"file"`
	ProjectDir     string            `json:"project_dir,omitempty"`
	ProjectFile    string            `json:"project_file,omitempty"`
	ProjectTrusted bool              `json:"project_trusted"`
	Ignored        []string          `json:"ignored,omitempty"`
	Values         []configEntryJSON `json:"values"`
}

func configJSON(c config.Config) configViewJSON {
	v := configViewJSON{File: c.File, ProjectDir: c.ProjectDir, ProjectFile: c.Project.File,
		ProjectTrusted: c.Project.Trusted, Ignored: c.Project.Ignored}
	for _, e := range c.Entries() {
		v.Values = append(v.Values, configEntryJSON(e))
	}
	return v
}

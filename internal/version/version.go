// Package version holds forge's version, set at build time by the Makefile.
package version

// Version is forge's version; "dev" when built without the Makefile.
var Version = "dev"

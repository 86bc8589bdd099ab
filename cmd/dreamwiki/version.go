package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at release time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and Go version",
		Example: "  dreamwiki version",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			commit, dirty := "unknown", ""
			if info, ok := debug.ReadBuildInfo(); ok {
				for _, s := range info.Settings {
					switch s.Key {
					case "vcs.revision":
						commit = s.Value
					case "vcs.modified":
						if s.Value == "true" {
							dirty = " (modified)"
						}
					}
				}
			}
			fmt.Fprintf(e.stdout, "dreamwiki %s\ncommit %s%s\n%s %s/%s\n", version, commit, dirty, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

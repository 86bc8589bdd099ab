package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at release time with -ldflags "-X main.version=v1.2.3".
// Without it, the module version from the build info is used: what
// `go install github.com/dreamwiki/dreamwiki/cmd/dreamwiki@v1.2.3` records.
var version = "dev"

// buildInfo is what a binary knows about itself.
type buildInfo struct {
	version, commit, time string
	modified              bool
}

// readBuildInfo reads the version and the VCS stamp Go records when it
// builds in a checkout (go build, go install; not go run).
func readBuildInfo() buildInfo {
	bi := buildInfo{version: version, commit: "unknown"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return bi
	}
	if bi.version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		bi.version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			bi.commit = s.Value
		case "vcs.time":
			bi.time = s.Value
		case "vcs.modified":
			bi.modified = s.Value == "true"
		}
	}
	return bi
}

// release is the version CI should install: the binary's own when it is a
// release, else latest.
func (bi buildInfo) release() string {
	if strings.HasPrefix(bi.version, "v") && !strings.Contains(bi.version, "-0.") {
		return bi.version
	}
	return "latest"
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and Go version",
		Example: "  dreamwiki version",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			bi := readBuildInfo()
			commit := bi.commit
			if bi.time != "" {
				commit += " (" + bi.time + ")"
			}
			if bi.modified {
				commit += " with local changes"
			}
			fmt.Fprintf(e.stdout, "dreamwiki %s\ncommit %s\n%s %s/%s\n", bi.version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

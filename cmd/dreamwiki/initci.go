package main

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/deploy"
)

type initCIFlags struct {
	root, workspace, branch string
	force, print            bool
}

func newInitCICmd(e *env) *cobra.Command {
	f := &initCIFlags{}
	cmd := &cobra.Command{
		Use:   "init-ci github|netlify|gitlab",
		Short: "Write a CI configuration that checks, builds and publishes the wiki",
		Long: `init-ci writes a ready configuration for publishing the wiki from a
repository that holds the workspace:

  github   .github/workflows/dreamwiki.yml: GitHub Actions to GitHub Pages
           (set Pages > Source to "GitHub Actions" in the repository settings)
  netlify  netlify.toml: Netlify (DREAMWIKI_WORKSPACE names the folder)
  gitlab   .gitlab-ci.yml: GitLab Pages

Each runs 'dreamwiki check --strict' first, so broken links, claims without
evidence, lapsed permissions and secrets stop the deploy; builds with the
host's own base URL, so every page works under a sub-path (/repo/ on
GitHub Pages); and deploys the site. An existing file is kept unless
--force is given (then it is saved as <file>.bak first).`,
		Example: `  dreamwiki init-ci github
  dreamwiki init-ci netlify --workspace agent-memory
  dreamwiki init-ci gitlab --print`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := deploy.Lookup(args[0])
			if err != nil {
				return usageError{err.Error()}
			}
			o := deploy.Options{Workspace: f.workspace, Branch: f.branch, Version: readBuildInfo().release(),
				GoVersion: goVersion()}
			if f.print {
				data, err := t.Render(o)
				if err != nil {
					return usageError{err.Error()}
				}
				_, err = e.stdout.Write(data)
				return err
			}
			p, err := t.Write(f.root, o, f.force)
			if errors.Is(err, deploy.ErrExists) {
				return failure{err.Error()}
			}
			if err != nil {
				return failure{err.Error()}
			}
			fmt.Fprintf(e.stdout, "wrote %s\n", p)
			if t.Name == "github" {
				fmt.Fprintln(e.stdout, "next: in the repository's Settings > Pages, set Source to \"GitHub Actions\", then push")
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&f.root, "repo", "C", ".", "the repository's root folder, where the file is written")
	cmd.Flags().StringVar(&f.workspace, "workspace", ".", "the workspace folder, relative to the repository root")
	cmd.Flags().StringVar(&f.branch, "branch", "main", "the branch that publishes (github)")
	cmd.Flags().BoolVar(&f.force, "force", false, "replace an existing file (kept as <file>.bak)")
	cmd.Flags().BoolVar(&f.print, "print", false, "print the configuration instead of writing it")
	return cmd
}

// goVersion is the Go release CI should use: this binary's, without the
// "go" prefix (1.26.8).
func goVersion() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	if i := strings.IndexAny(v, " -+"); i >= 0 {
		v = v[:i]
	}
	return v
}

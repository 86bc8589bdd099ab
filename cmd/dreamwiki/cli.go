package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks a mistake in how the command was called (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// failure is an error already reported to the user; it only sets the exit code.
type failure struct{ msg string }

func (e failure) Error() string { return e.msg }

// env is what every command writes to.
type env struct {
	stdout, stderr io.Writer
}

// run executes one command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	root := newRoot(e)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var fe failure
	if errors.As(err, &fe) {
		if fe.msg != "" {
			fmt.Fprintln(stderr, "dreamwiki: "+fe.msg)
		}
		return exitFailure
	}
	if ue, ok := asUsage(cmd, err); ok {
		fmt.Fprintln(stderr, "dreamwiki: "+ue)
		return exitUsage
	}
	fmt.Fprintln(stderr, "dreamwiki: "+err.Error())
	return exitFailure
}

// asUsage recognises cobra's and pflag's usage errors and rewrites them
// as one line with a suggestion.
func asUsage(cmd *cobra.Command, err error) (string, bool) {
	var ue usageError
	if errors.As(err, &ue) {
		return ue.msg, true
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown command "):
		name := strings.SplitN(strings.TrimPrefix(msg, "unknown command "), " ", 2)[0]
		name = strings.Trim(name, `"`)
		line := fmt.Sprintf("unknown command %q", name)
		if s := cmd.Root().SuggestionsFor(name); len(s) > 0 {
			line += fmt.Sprintf("; did you mean %q?", s[0])
		} else {
			line += "; run 'dreamwiki --help' for the list"
		}
		return line, true
	case strings.HasPrefix(msg, "unknown flag: "), strings.HasPrefix(msg, "unknown shorthand flag: "):
		flag := msg[strings.LastIndex(msg, " ")+1:]
		line := msg
		if s := suggestFlag(cmd, strings.TrimLeft(flag, "-")); s != "" {
			line += fmt.Sprintf("; did you mean --%s?", s)
		} else {
			line += fmt.Sprintf("; run 'dreamwiki %s --help' for the flags", cmd.Name())
		}
		return line, true
	case strings.Contains(msg, "flag needs an argument"), strings.HasPrefix(msg, "invalid argument"),
		strings.Contains(msg, "accepts at most"), strings.Contains(msg, "accepts "), strings.Contains(msg, "requires at least"):
		return msg + fmt.Sprintf("; run 'dreamwiki %s --help'", cmd.Name()), true
	}
	return "", false
}

// suggestFlag returns the flag of cmd closest to name, if any is close.
func suggestFlag(cmd *cobra.Command, name string) string {
	best, bestD := "", 3
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if d := distance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "dreamwiki",
		Short: "Turn an AI agent's Markdown memory into a provenance vault and a static wiki",
		Long: `dreamwiki reads an agent workspace (MEMORY.md, memory/ daily logs and topic
files, dream logs, DREAMS.md, conversation archives) and writes an
Obsidian-compatible provenance vault and a static HTML wiki.`,
		Example: `  dreamwiki build --demo            # build the embedded demo into dist/
  dreamwiki build ~/agent --out site # build a real workspace
  dreamwiki check ~/agent            # lint only, for CI`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
	root.AddCommand(newBuildCmd(e), newCheckCmd(e), newVersionCmd(e))
	root.AddCommand(newDreamCmd(e))
	root.AddCommand(newRecallCmd(e))
	root.AddCommand(newSupersedeCmd(e))
	root.AddCommand(newDecayCmd(e))
	root.AddCommand(newSearchCmd(e))
	root.AddCommand(newGetCmd(e))
	root.AddCommand(newServeCmd(e))
	root.AddCommand(newMCPCmd(e))
	root.AddCommand(newDiffCmd(e))
	root.AddCommand(newArchiveCmd(e))
	root.AddCommand(newInitCICmd(e))
	return root
}

// isTerminal reports whether w is an interactive terminal, for progress.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

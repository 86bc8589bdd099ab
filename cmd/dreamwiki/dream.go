package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/dream"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// memoryFlags are shared by dream, recall, supersede and decay.
type memoryFlags struct {
	json  bool
	quiet bool
	now   string
}

func (f *memoryFlags) add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.json, "json", false, "print the result as JSON")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
	cmd.Flags().StringVar(&f.now, "now", "", "the time to act at (RFC 3339 or YYYY-MM-DD; default: the current time), for reproducible runs and tests")
}

// clock parses --now.
func (f *memoryFlags) clock() (func() time.Time, error) {
	if f.now == "" {
		return time.Now, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", time.DateOnly} {
		if t, err := time.Parse(layout, f.now); err == nil {
			return func() time.Time { return t }, nil
		}
	}
	return nil, usageError{fmt.Sprintf("--now %q is not a time; use RFC 3339 (2026-11-21T07:00:00Z) or a date (2026-11-21)", f.now)}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// memoryError turns the dream package's errors into exit codes: a held
// lock and everything else that went wrong are failures (1); their
// messages already say what to do.
func memoryError(err error) error { return failure{err.Error()} }

// printRecovered tells what a run put back from an interrupted one before
// doing its own work, and which edited files it left alone.
func printRecovered(w io.Writer, rec *dream.Recovery) {
	if rec != nil {
		rec.WriteText(w)
	}
}

type dreamFlags struct {
	choose []string
	memoryFlags
	demo     bool
	dryRun   bool
	force    bool
	noDiff   bool
	llmURL   string
	llmModel string
}

func newDreamCmd(e *env) *cobra.Command {
	f := &dreamFlags{}
	cmd := &cobra.Command{
		Use:   "dream [WORKSPACE]",
		Short: "Consolidate new daily logs into L2 topic files and the MEMORY.md index",
		Long: `Dream runs one consolidation cycle over WORKSPACE (default: the current folder):
it reads the daily logs written since the last dream (32 days of logs or 192 KiB
at most, oldest first), with the messages of those days that the digests of
public conversation archives cite (archives/*/*/DIGEST.md; a fact from one
cites its raw transcript line), and finds the facts worth keeping. Only three
things are written into curated memory: a line whose recall signals
(short-term-recall.json and recall events) pass the Deep gates, a checked
--llm-url answer, and a proposal someone chose (--choose ID,..., or MCP
dream_apply). Every other candidate (a decision, preference, rule, a line
stated on several days...) is a proposal: it is listed in the plan and in the
DREAMS.md diary with its id, score, six signals and source; never status or
cron output, counters, paths, hashes, transcripts, open to-dos or questions.
A written fact goes to the L2 topic file that is clearly about it, else to the
index (MEMORY.md, or memory/MEMORY.md where the workspace keeps it), kept as
written, relative dates made absolute, with a Source pointer.

Curated memory belongs to its author: a dream never moves, rewrites,
reorders, annotates, closes, supersedes or archives a line it did not write
(use dreamwiki supersede), never writes a dated file (a date in its name or
folder, diary/, archives) and never a daily log. Over budget it drops its own
lowest-scored new lines; a MEMORY.md already over budget gets a report and no
new lines. It appends an entry to memory/dream-log.md in the log's language
(English, Chinese, Japanese, Korean). Every file it changes is
backed up to .backup/memory-dreams/ first and all writes happen in one
journaled transaction. If a dream is interrupted, the next one puts back
what it had written, except files edited since: those are left as they are,
with the interrupted dream's version kept beside their backup. A line of
MEMORY.md or an L2 file that holds a secret is never rewritten; it is
reported, and published outputs redact it.

Only one dream (or recall, supersede, decay) writes at a time: each holds a
kernel lock (flock) on .dreamwiki/dream.lock while it runs, so a running
holder keeps it whatever its PID namespace, and a dead one's is free at once.
A file edited by someone else while the dream replaces it is left as edited,
with the dream's version kept in the backup, and the dream fails naming it.

A dream runs when 3 days have passed since the last one and 3 new days of logs
exist (see [dream] in dreamwiki.toml); --force skips those gates, never the
lock. --dry-run prints the plan, with each action's reason and scores, and a
unified diff of every file it would change, and writes nothing.

--llm-url runs the distil step (which lines are durable, merging, wording,
Rule/Why/How, the file) through an OpenAI-compatible endpoint answering in a
JSON schema (the key is read from DREAMWIKI_LLM_KEY, else OPENAI_API_KEY).
Every answer is checked: a fact must cite lines it was given and say only what
they say, with no secret, instruction or Markdown structure; an answer with one
fact that fails is not used, and its lines go the rule-based way.`,
		Example: `  dreamwiki dream --dry-run                  # show what a dream would do, and the diff
  dreamwiki dream --demo --dry-run --force   # try it on the embedded demo
  dreamwiki dream ~/agent                    # dream if the gates allow it
  dreamwiki dream --force --json             # dream now, report as JSON
  dreamwiki dream --force --choose 3f9a1c0b7e,a41d02c9e5   # write two proposals of the plan
  dreamwiki dream --llm-url http://localhost:8080/v1 --llm-model qwen2.5`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			now, err := f.clock()
			if err != nil {
				return err
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if f.demo {
				if len(args) > 0 {
					return usageError{"--demo dreams over the embedded demo; leave out the WORKSPACE argument"}
				}
				if !f.dryRun {
					return usageError{"the embedded demo is read-only: use --demo with --dry-run, or copy it and dream there"}
				}
			}
			opts := dream.Options{Now: now, Force: f.force, Command: "dreamwiki dream", Choose: f.choose}
			opts.LLM = llmConfig(f.llmURL, f.llmModel)
			var progress func(dream.Event)
			if !f.quiet && !f.json && isTerminal(e.stderr) {
				progress = func(ev dream.Event) { fmt.Fprintf(e.stderr, "  %s: %s\n", ev.Stage, ev.Message) }
			}
			var res *dream.Result
			if f.demo {
				var ws *workspace.Workspace
				if ws, err = workspace.LoadFS(demo.FS(), workspace.Options{}); err == nil {
					var pl *dream.Plan
					pl, err = dream.PlanWorkspace(cmd.Context(), ws, opts)
					res = &dream.Result{Plan: pl}
				}
			} else {
				res, err = dream.Run(cmd.Context(), dir, opts, f.dryRun, progress)
			}
			if err != nil {
				if res != nil && res.StaleLock != nil && !f.quiet {
					fmt.Fprintf(e.stderr, "dreamwiki: %s\n", res.StaleLock.Reason)
				}
				if res != nil && !f.quiet {
					printRecovered(e.stderr, res.Recovered)
				}
				return memoryError(err)
			}
			switch {
			case f.json:
				return writeJSON(e.stdout, res)
			case f.quiet:
			case f.dryRun:
				res.Plan.WriteText(e.stdout)
				if !f.noDiff && len(res.Plan.Files) > 0 {
					fmt.Fprintln(e.stdout)
					io.WriteString(e.stdout, res.Plan.Diff())
				}
			default:
				res.WriteText(e.stdout)
			}
			if res.Plan != nil {
				for _, d := range res.Plan.Diagnostics {
					if d.Code == "dream" && strings.Contains(d.Message, "left alone") && !f.json && !f.quiet {
						fmt.Fprintf(e.stderr, "dreamwiki: %s\n", d.Error())
					}
				}
			}
			return nil
		},
	}
	f.memoryFlags.add(cmd)
	cmd.Flags().BoolVarP(&f.dryRun, "dry-run", "n", false, "print the plan and the diff, write nothing")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "plan a dream over the embedded demo workspace (with --dry-run)")
	cmd.Flags().BoolVar(&f.force, "force", false, "skip the time and session gates (never the lock)")
	cmd.Flags().StringSliceVar(&f.choose, "choose", nil, "write these proposals (ids from the plan or DREAMS.md) into curated memory too")
	cmd.Flags().BoolVar(&f.noDiff, "no-diff", false, "with --dry-run, print the plan without the diff")
	cmd.Flags().StringVar(&f.llmURL, "llm-url", "", "OpenAI-compatible API base URL: the distil step runs through the model, every answer checked (off by default)")
	cmd.Flags().StringVar(&f.llmModel, "llm-model", "", "model name for --llm-url")
	return cmd
}

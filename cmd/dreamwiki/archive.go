package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/archive"
	"github.com/dreamwiki/dreamwiki/internal/llmchat"
)

func newArchiveCmd(e *env) *cobra.Command {
	var opts archive.Options
	var discover, asJSON, quiet bool
	var llmURL, llmModel string
	cmd := &cobra.Command{
		Use:   "archive [WORKSPACE]",
		Short: "Archive agent session transcripts into archives/<channel>/<group>/",
		Long: `Archive reads the agent's session transcripts and writes the workspace's
conversation archive: archives/<channel>/<group>/raw/topic-<id>/<day>.md (the
messages), summaries/topic-<id>.md (an extractive summary citing the raw lines
it quotes), DIGEST.md and INDEX.md. Groups and topics are named by
archives/archive-config.json (agentName, groups {id: {name, label}},
topicNames).

It reads OpenClaw's sessions (~/.openclaw/agents/<agent>/sessions/, sessions.json
and one JSONL transcript per session), Claude Code's projects (~/.claude/projects)
and pi's sessions (~/.pi/agent/sessions), whichever exist, or the folders named
with --sessions. Only group and channel sessions are archived: direct chats,
cron, hook and sub-agent sessions stay private.

Transcripts are only read. A watermark per transcript (archives/.archive-state.json)
makes a second run append only new messages, and a topic is summarised again only
when it has new ones (--force redoes all). Every file is written through a
temporary file and a rename, and the watermark is saved with the renames it
waits for: a run killed at any point and run again archives each message
exactly once. Secrets are redacted before anything is written.
Summaries need no network; with --llm-url (an OpenAI-compatible endpoint, key
from DREAMWIKI_LLM_KEY) a summary also gets the model's points, each citing the
messages it sums up and checked against them, else left out with a warning.
Tool calls, tool results and thinking are left out unless --include-tools
(then one collapsed line each). A line that cannot be read (bad JSON, unknown
entry type, invalid UTF-8, the unfinished last line of a live session) is
skipped with a warning naming file:line.`,
		Example: `  dreamwiki archive --discover                  # what would be archived
  dreamwiki archive ~/agent                     # archive everything new
  dreamwiki archive ~/agent --channel telegram --group homelab-crew
  dreamwiki archive ~/agent --sessions ~/backup/openclaw/agents --force`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Workspace = "."
			if len(args) == 1 {
				opts.Workspace = args[0]
			}
			if len(opts.Sessions) == 0 {
				home, err := os.UserHomeDir()
				if err != nil {
					return failure{"no home folder to find transcripts in; name one with --sessions"}
				}
				opts.Sessions = archive.DefaultSessionDirs(home)
			}
			if discover {
				return runDiscover(cmd, e, opts, asJSON)
			}
			opts.LLM = llmConfig(llmURL, llmModel)
			rep, err := archive.Run(cmd.Context(), opts)
			if err != nil {
				return failure{err.Error()}
			}
			for _, w := range rep.Warnings {
				fmt.Fprintln(e.stderr, "warning: "+w.Error())
			}
			if asJSON {
				return writeJSON(e.stdout, rep)
			}
			if quiet {
				return nil
			}
			for _, t := range rep.Topics {
				state := ""
				if t.Summarised {
					state = ", summarised"
				}
				fmt.Fprintf(e.stdout, "%s topic %s (%s): +%d messages, %d in all%s\n", t.Path, t.Topic, t.Name, t.Added, t.Messages, state)
			}
			fmt.Fprintf(e.stdout, "archived %d new messages\n", rep.Messages)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.Sessions, "sessions", nil, "a transcript folder (repeatable; default: OpenClaw's agents, Claude Code's projects and pi's sessions under $HOME)")
	f.BoolVar(&discover, "discover", false, "list channels, groups and topics with message counts; write nothing")
	f.StringVar(&opts.Channel, "channel", "", "archive only this channel (telegram, discord, claude-code, …)")
	f.StringVar(&opts.Group, "group", "", "archive only this group: its id or its folder name")
	f.BoolVar(&opts.IncludeTools, "include-tools", false, "keep tool calls, tool results and thinking in raw/, collapsed to one line each")
	f.BoolVar(&opts.Force, "force", false, "summarise every topic again and rewrite every digest and index")
	f.StringVar(&llmURL, "llm-url", "", "OpenAI-compatible API base URL: each summary written also gets the model's points, every point checked against the messages it cites (off by default; key from DREAMWIKI_LLM_KEY)")
	f.StringVar(&llmModel, "llm-model", "", "model name for --llm-url")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.BoolVarP(&quiet, "quiet", "q", false, "print only warnings")
	return cmd
}

func runDiscover(cmd *cobra.Command, e *env, opts archive.Options, asJSON bool) error {
	groups, skipped, warns, err := archive.Discover(cmd.Context(), opts)
	if err != nil {
		return failure{err.Error()}
	}
	for _, w := range warns {
		fmt.Fprintln(e.stderr, "warning: "+w.Error())
	}
	if asJSON {
		return writeJSON(e.stdout, struct {
			Groups  []archive.Discovered `json:"groups"`
			Skipped []archive.Skipped    `json:"skipped,omitempty"`
		}{groups, skipped})
	}
	if len(groups) == 0 && len(skipped) == 0 {
		return failure{fmt.Sprintf("no transcripts found in %s", strings.Join(opts.Sessions, ", "))}
	}
	for _, g := range groups {
		fmt.Fprintf(e.stdout, "%s  %s  (group %s → archives/%s/%s)\n", g.Channel, g.Label, g.GroupID, g.Channel, g.Folder)
		for _, t := range g.Topics {
			fmt.Fprintf(e.stdout, "  topic %-8s %-24s %6d messages  %s → %s\n", t.Topic, t.Name, t.Messages, t.First, t.Last)
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "skipped %s: %s\n", s.Key, s.Reason)
	}
	return nil
}

// llmConfig is the endpoint --llm-url names, with its key from the
// environment (DREAMWIKI_LLM_KEY, else OPENAI_API_KEY), never a flag; nil
// when no URL was given.
func llmConfig(url, model string) *llmchat.Config {
	if url == "" {
		return nil
	}
	key := os.Getenv("DREAMWIKI_LLM_KEY")
	if key == "" {
		key = os.Getenv("OPENAI_API_KEY")
	}
	return &llmchat.Config{URL: url, Model: model, Key: key}
}

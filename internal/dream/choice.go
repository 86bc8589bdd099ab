package dream

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// The third way into curated memory (durable.go): a choice by a person or
// an agent. A plan lists its proposals, each with a stable id; a dream
// given some of those ids (Options.Choose) writes them as it would a line
// past the Deep gates, and a line an agent wrote itself from cited
// daily-log lines (Options.Rewrites) is checked exactly as a distiller's
// answer is (llm.go's checkFact: cited, grounded in the cited lines, no
// secret, no instruction, no Markdown structure) before it is written.

// Rewrite is a line an agent wrote from daily-log lines, with their
// citations ("memory/2026-01-02.md#L5" or "#L5-L7").
type Rewrite struct {
	Text  string   `json:"text"`
	Cites []string `json:"cites,omitempty"`
	// Type is user, feedback, project or reference; empty takes the type
	// of the first cited line.
	Type string `json:"type,omitempty"`
	// File is "index" (MEMORY.md, the default) or a topic file's path.
	File string `json:"file,omitempty"`
}

// Proposal is a line a dream found worth a look and may not write by
// itself: it is in the plan and the DREAMS.md diary until someone
// chooses it (Options.Choose with its ID).
type Proposal struct {
	// ID is stable across plans: a hash of the source path and line.
	ID   string `json:"id"`
	Text string `json:"text"`
	Type string `json:"type,omitempty"`
	// Source is where the logs state it (path#Lx-Ly, first the line the
	// ID names).
	Source []string `json:"source"`
	// Score ranks proposals: the Deep score on recall signals raised by
	// the text cues (proposalScore).
	Score float64 `json:"score"`
	// Signals are the six Deep signals, their score and the gates that
	// held the line back.
	Signals *PromotionScores `json:"signals"`
	// Cues say why it is proposed: "stated as a decision", "stated on 3
	// days", "a permission".
	Cues []string `json:"cues"`
}

// ChoiceError is a choice a dream refused, with the reasons: an id no
// candidate of the plan has, a rewrite that fails the distiller's checks.
type ChoiceError struct {
	Reasons []string
}

func (e *ChoiceError) Error() string {
	return "the choice was refused: " + strings.Join(e.Reasons, "; ")
}

// candidateID is the stable id of a daily-log line: a short hash of its
// path and its text (blanks folded), so it survives lines added above it.
func candidateID(path, raw string) string {
	h := sha256.Sum256([]byte(path + "\x00" + strings.Join(strings.Fields(raw), " ")))
	return hex.EncodeToString(h[:5])
}

// reCite reads a citation: "memory/2026-01-02.md#L5", "…#L5-L7", "…:5".
var reCite = regexp.MustCompile(`^(.+?)(?:#L(\d+)(?:-L?(\d+))?|:(\d+)(?:-(\d+))?)$`)

// choose marks the candidates a person or an agent chose and adds the
// lines an agent rewrote, each checked; it returns the candidates the
// dream decides about, oldest first. Any id it cannot find and any
// rewrite that fails a check refuses the whole choice (a *ChoiceError):
// a choice is applied as it was made or not at all.
func choose(e env, mem *curatedMemory, cands []*candidate, ids []string, rewrites []Rewrite) ([]*candidate, error) {
	if len(ids) == 0 && len(rewrites) == 0 {
		return cands, nil
	}
	var why []string
	byID := map[string]*candidate{}
	for _, c := range cands {
		byID[candidateID(c.path, c.raw)] = c
	}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		c := byID[id]
		if c == nil {
			// A proposal of an earlier dream: its log is behind the
			// watermark now, and read again for the choice.
			if c = loggedCandidate(e, id); c != nil {
				cands = append(cands, c)
			}
		}
		switch {
		case c == nil:
			why = append(why, fmt.Sprintf("candidate %q is not in this dream's plan (a dry run, dreamwiki dream --dry-run or MCP dream_plan, lists the proposals and their ids)", id))
		case c.todo:
			why = append(why, fmt.Sprintf("candidate %q is an open to-do, not a fact", id))
		default:
			c.chosen, c.chosenBy = true, "chosen (candidate "+id+")"
		}
	}
	files := map[string]bool{}
	for _, f := range llmFiles(mem) {
		files[f.Path] = true
	}
	for i, rw := range rewrites {
		c, reason := rewriteCandidate(e, rw, files)
		if reason != "" {
			why = append(why, fmt.Sprintf("rewrite %d: %s", i+1, reason))
			continue
		}
		cands = append(cands, c)
	}
	if len(why) > 0 {
		return nil, &ChoiceError{Reasons: why}
	}
	sortCandidates(cands)
	return cands, nil
}

// loggedCandidate finds the daily-log line with a candidate id in any log
// of the workspace.
func loggedCandidate(e env, id string) *candidate {
	for _, log := range e.logs {
		for _, it := range log.Items {
			if candidateID(log.File.Path, it.Raw) != id {
				continue
			}
			if c, skip := newCandidate(0, log, it, newFileSecrets(log.File)); skip == nil {
				return c
			}
		}
	}
	return nil
}

// rewriteCandidate checks a rewritten line against the lines it cites,
// with the distiller's checks, and makes it a chosen candidate; reason
// says why it was refused.
func rewriteCandidate(e env, rw Rewrite, files map[string]bool) (*candidate, string) {
	if len(rw.Cites) == 0 {
		return nil, "it cites no line"
	}
	byRef := map[string]*candidate{}
	for _, ref := range rw.Cites {
		c, why := citedLine(e, ref)
		if why != "" {
			return nil, why
		}
		byRef[ref] = c
	}
	f := llmFact{Sources: rw.Cites, Text: rw.Text, Type: rw.Type, File: rw.File}
	if f.File == "" {
		f.File = "index"
	}
	if f.Type == "" {
		f.Type = byRef[rw.Cites[0]].typ
	}
	from, why := checkFact(f, byRef, files)
	if why != "" {
		return nil, why
	}
	c := factCandidate(f, from)
	c.chosen, c.chosenBy = true, "written by the agent from the lines it cites"
	c.notes = slices.DeleteFunc(c.notes, func(n string) bool { return n == "distilled by the LLM" })
	return c, ""
}

// citedLine reads the daily-log item a citation points into, as the
// dream reads it (newCandidate); why says what is wrong with the citation.
func citedLine(e env, ref string) (*candidate, string) {
	m := reCite.FindStringSubmatch(strings.TrimSpace(ref))
	if m == nil {
		return nil, fmt.Sprintf("citation %q is not path#Ln or path#Ln-Lm", ref)
	}
	path := m[1]
	start, _ := strconv.Atoi(m[2] + m[4])
	end, _ := strconv.Atoi(m[3] + m[5])
	end = max(end, start)
	var log *workspace.DailyLog
	for _, l := range e.logs {
		if l.File.Path == path {
			log = l
			break
		}
	}
	if log == nil {
		return nil, fmt.Sprintf("it cites %s, which is no daily log of this workspace", path)
	}
	for _, it := range log.Items {
		if it.Line > end || max(it.EndLine, it.Line) < start {
			continue
		}
		c, skip := newCandidate(0, log, it, newFileSecrets(log.File))
		if skip != nil {
			return nil, fmt.Sprintf("it cites %s, which holds no fact (%s)", ref, skip.Reason)
		}
		return c, ""
	}
	return nil, fmt.Sprintf("it cites %s, where the log has no item", ref)
}

// collectProposals lists the candidates the dream proposed, highest score
// first (ties oldest first).
func collectProposals(cands []*candidate, sc scorer) []Proposal {
	out := []Proposal{}
	for _, c := range cands {
		if !c.proposed {
			continue
		}
		d, _, _ := sc.promotion(c)
		out = append(out, Proposal{ID: candidateID(c.path, c.raw), Text: c.fact, Type: c.typ, Source: evidenceStrings(c.evidence),
			Score: r3(proposalScore(c, d.Score)), Signals: promotionScores(d), Cues: c.cues})
	}
	slices.SortStableFunc(out, func(a, b Proposal) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out
}

// dreamsPath is OpenClaw's dreaming diary.
const dreamsPath = "DREAMS.md"

// maxDiaryProposals is how many proposals a diary entry lists; the plan
// lists them all.
const maxDiaryProposals = 20

const (
	diaryStart = "<!-- openclaw:dreaming:diary:start -->"
	diaryEnd   = "<!-- openclaw:dreaming:diary:end -->"
)

// diaryOutput is DREAMS.md with the dream's entry added at the end of
// its diary block: what passed the gates, and the proposals with their
// score, signals, source and id. It returns nil when the dream read no
// log (there is nothing to say). The file's bytes are recorded as read.
func diaryOutput(ws *workspace.Workspace, files *fileSet, day time.Time, read bool, summary string, props []Proposal) []byte {
	if !read && len(props) == 0 {
		return nil
	}
	var old string
	if d := ws.Dreams; d != nil && d.File != nil && d.File.Path == dreamsPath {
		old = string(files.read(d.File))
	} else if f := ws.FileByPath(dreamsPath); f != nil {
		old = string(files.read(f))
	} else if ws.FileByPath("dreams.md") != nil {
		return nil // the workspace keeps its diary as dreams.md: not ours to start a second one
	}
	entry := diaryEntry(day, summary, props)
	switch k := strings.LastIndex(old, diaryEnd); {
	case k >= 0:
		head := strings.TrimRight(old[:k], "\n")
		return []byte(head + "\n\n" + entry + "\n" + old[k:])
	case old == "":
		return []byte("# Dream Diary\n\n" + diaryStart + "\n" + entry + "\n" + diaryEnd + "\n")
	default:
		return []byte(strings.TrimRight(old, "\n") + "\n\n" + diaryStart + "\n" + entry + "\n" + diaryEnd + "\n")
	}
}

// diaryEntry is one entry of the diary block: a rule, its date, what the
// dream did, and a list of proposals.
func diaryEntry(day time.Time, summary string, props []Proposal) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\n\n*%s*\n\n", day.Format("January 2, 2006"))
	fmt.Fprintf(&b, "dreamwiki dream: %s.", summary)
	if len(props) > 0 {
		shown := min(len(props), maxDiaryProposals)
		if shown < len(props) {
			fmt.Fprintf(&b, " The %d with the highest scores:", shown)
		}
		b.WriteString(" A proposal is written into memory only when someone chooses it (`dreamwiki dream --choose ID`, or MCP dream_apply).\n\n")
		for _, p := range props[:shown] {
			// Three lines, each within MaxLine: the proposal, its signals,
			// its sources.
			s := p.Signals
			fmt.Fprintf(&b, "- %s — status: proposed · score %.2f · id %s\n", oneLine(p.Text), p.Score, p.ID)
			fmt.Fprintf(&b, "  - signals: relevance %.2f, frequency %.2f, diversity %.2f, recency %.2f, consolidation %.2f, conceptual %.2f",
				s.Relevance, s.Frequency, s.Diversity, s.Recency, s.Consolidation, s.Conceptual)
			if len(p.Cues) > 0 {
				b.WriteString("; " + strings.Join(p.Cues, "; "))
			}
			src := p.Source
			more := ""
			if len(src) > 3 {
				src, more = src[:3], fmt.Sprintf(" and %d more", len(p.Source)-3)
			}
			fmt.Fprintf(&b, "\n  - from %s%s\n", strings.Join(src, ", "), more)
		}
	} else {
		b.WriteString("\n")
	}
	return b.String()
}

// oneLine keeps a proposal's text on its list item's line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

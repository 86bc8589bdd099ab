package provenance

import (
	"regexp"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// reDreamPrefix strips the labels dreaming puts before an item's text.
var reDreamPrefix = regexp.MustCompile(`(?i)^\s*(?:candidate|promoted|theme|reflection|skipped|staged|merged|archived|superseded)\s*:\s*`)

// dreamItems matches the items of DREAMS.md (diary, light, rem, deep) to
// claims; an item's "evidence:" lines become the claim's evidence.
func (a *analyzer) dreamItems() {
	d := a.ws.Dreams
	if d == nil {
		return
	}
	items := append([]*workspace.DreamItem(nil), d.Items...)
	for _, e := range d.Diary {
		items = append(items, e.Items...)
	}
	for _, it := range items {
		c, _, ok := a.findClaim(reDreamPrefix.ReplaceAllString(it.Text, ""), 0.5, nil)
		if !ok {
			continue
		}
		a.itemClaim[it] = c
		terms := evidenceTerms(statedText(c), a.claimRef(c))
		for _, p := range it.Evidence {
			if p.Line == 0 {
				p.Line = it.Line
			}
			if ev, ok := a.resolvePointer(c, terms, p, MethodDream, a.byDate, d.File.Path); ok {
				a.addEvidence(c, ev)
				a.itemEvidence[it] = append(a.itemEvidence[it], ev)
			}
		}
	}
}

// dreams makes one Dream per dream-log entry and per diary entry, with
// what each promoted, superseded and archived.
func (a *analyzer) dreams() {
	taken := map[string]bool{}
	slugFor := func(t time.Time, hasTime bool, suffix string) string {
		// A bare date would take the name of that day's log, and Obsidian
		// resolves [[2026-10-21]] by name: dream notes always carry more.
		s := t.Format("2006-01-02")
		if hasTime {
			s += "-" + t.Format("1504")
		} else {
			s += "-" + suffix
		}
		base := s
		for n := 2; taken[s]; n++ {
			s = base + "-" + itoa(n)
		}
		taken[s] = true
		return s
	}
	if dl := a.ws.DreamLog; dl != nil {
		var prev time.Time
		for _, e := range dl.Entries {
			if e.Date.IsZero() {
				continue
			}
			dr := &Dream{Slug: slugFor(e.Date, e.HasTime, "dream"), Kind: "dream-log", File: dl.File.Path, Line: e.Line, EndLine: e.EndLine,
				Date: e.Date, HasTime: e.HasTime, Heading: e.Heading, Body: e.Body, ConsolidatedThrough: e.ConsolidatedThrough, Fields: e.Fields}
			if through := e.ConsolidatedThrough; !through.IsZero() {
				for _, d := range a.ws.Daily {
					if d.Date.After(through) || (!prev.IsZero() && !d.Date.After(prev)) {
						continue
					}
					dr.Logs = append(dr.Logs, d.File.Path)
				}
				prev = through
			}
			a.readDreamLogBody(dr, e)
			a.res.Dreams = append(a.res.Dreams, dr)
		}
	}
	if d := a.ws.Dreams; d != nil {
		for _, e := range d.Diary {
			if e.Date.IsZero() {
				continue
			}
			dr := &Dream{Slug: slugFor(e.Date, true, "diary"), Kind: "diary", File: d.File.Path, Line: e.Line, EndLine: e.EndLine,
				Date: e.Date, HasTime: true, Heading: e.DateText, Body: e.Text}
			for _, it := range e.Items {
				di := DreamItem{Text: it.Text, Status: it.Status, Confidence: it.Confidence, Recalls: it.Recalls}
				if c := a.itemClaim[it]; c != nil {
					di.Claim = c.ID
					if strings.EqualFold(it.Status, "promoted") {
						dr.Promoted = appendUnique(dr.Promoted, c.ID)
					}
					di.Evidence = a.itemEvidence[it]
				}
				dr.Items = append(dr.Items, di)
			}
			a.res.Dreams = append(a.res.Dreams, dr)
		}
	}
	for _, dr := range a.res.Dreams {
		for _, ids := range [][]string{dr.Promoted, dr.Superseded, dr.Archived} {
			for _, id := range ids {
				if c := a.res.byID[id]; c != nil {
					c.Dreams = appendUnique(c.Dreams, dr.Slug)
				}
			}
		}
	}
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

var (
	reQuoted      = regexp.MustCompile(`["“]([^"”]{6,})["”]`)
	reAside       = regexp.MustCompile(`\([^)]*\)|\[\[[^\]]*\]\]`)
	rePhraseSep   = regexp.MustCompile(`,|;|\band\b`)
	reDreamAction = regexp.MustCompile(`(?i)^\s*[-*]?\s*(promoted|superseded|archived(?:\s+\d+)?(?:\s+to\s+[^:]*)?)\s*:\s*(.+)$`)
)

// readDreamLogBody reads the "Promoted: a, b, c", "Superseded: "old" →
// "new"" and "Archived n to …: "x"" lines of a dream-log entry and links
// them to claims. Only claims that existed by the run's watermark can
// have been promoted by it.
func (a *analyzer) readDreamLogBody(dr *Dream, e *workspace.DreamLogEntry) {
	by := dr.ConsolidatedThrough
	if by.IsZero() {
		by = dates.Day(e.Date)
	}
	for _, line := range strings.Split(e.Body, "\n") {
		m := reDreamAction.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		action, rest := strings.ToLower(m[1]), m[2]
		switch {
		case action == "promoted":
			for _, phrase := range splitPhrases(rest) {
				if c := a.phraseClaim(phrase, func(c *Claim) bool {
					return c.Origin != OriginArchive && (c.Created.IsZero() || !c.Created.After(by))
				}); c != nil {
					dr.Promoted = appendUnique(dr.Promoted, c.ID)
				}
			}
		case action == "superseded":
			q := reQuoted.FindAllStringSubmatch(rest, -1)
			if len(q) == 0 {
				continue
			}
			// The old side is usually archived by now; look there first.
			old := a.phraseClaim(q[0][1], func(c *Claim) bool { return c.Origin == OriginArchive })
			if old == nil {
				old = a.phraseClaim(q[0][1], nil)
			}
			if old == nil {
				continue
			}
			dr.Superseded = appendUnique(dr.Superseded, old.ID)
			if len(q) > 1 {
				cur := a.phraseClaim(q[1][1], func(c *Claim) bool { return c.Origin != OriginArchive })
				if cur != nil && cur != old {
					a.dreamEdges = append(a.dreamEdges, edge{old: old, new: cur, from: "dream-log", file: dr.File, line: e.Line})
				}
			}
		default: // archived
			for _, q := range reQuoted.FindAllStringSubmatch(rest, -1) {
				if c := a.phraseClaim(q[1], func(c *Claim) bool { return c.Origin == OriginArchive }); c != nil {
					dr.Archived = appendUnique(dr.Archived, c.ID)
				}
			}
		}
	}
}

// splitPhrases cuts "a, b and c (note)." into its phrases.
func splitPhrases(s string) []string {
	s = reAside.ReplaceAllString(s, "")
	var out []string
	for _, p := range rePhraseSep.Split(s, -1) {
		if p = strings.Trim(strings.TrimSpace(p), ".:"); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// phraseClaim returns the claim that contains most of a short phrase's
// words ("the Zigbee by-id fix"), nil when none holds three quarters of
// them or the phrase has fewer than two words that mean something.
func (a *analyzer) phraseClaim(phrase string, accept func(*Claim) bool) *Claim {
	a.wordIndex()
	var words []string
	for w := range analysis.ContentWordSet(phrase) {
		words = append(words, w)
	}
	if len(words) < 2 {
		return nil
	}
	counts := map[int]int{}
	for _, w := range words {
		for _, i := range a.claimWords[w] {
			counts[i]++
		}
	}
	best, bestN := -1, 0
	for i, n := range counts {
		if accept != nil && !accept(a.claims[i]) {
			continue
		}
		if n > bestN || (n == bestN && i < best) {
			best, bestN = i, n
		}
	}
	if best < 0 || 4*bestN < 3*len(words) {
		return nil
	}
	return a.claims[best]
}

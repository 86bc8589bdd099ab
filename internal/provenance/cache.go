package provenance

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Cache keeps what Analyze worked out that the next run over the same
// workspace, a few files later, would work out again: the corpus of daily
// logs and conversations (while none of them, the recall store or the
// events changed), the name index (while no file came or went), each
// claim's evidence (while its entry, the corpus and the files its
// pointers read are the same), the blocks and terms of each file, and
// what is read from each claim's text and entry. Each is a function of
// the inputs it is kept by, so a run with a Cache gives the Result a run
// without one gives (TestAnalyze_CacheGivesTheSameResult); serve mode
// keeps one, so that an edit of a topic file reanalyses that file's
// claims and not the workspace. What a file or an entry gives is kept by
// its content, not by the value read: a file read again unchanged (the
// next point of the memory's history, which adds a daily log and so
// dates every undated entry anew) finds it, and a new daily log makes a
// corpus that only merges the terms of the others.
//
// A Cache is safe for concurrent use: a run reads the entries the last
// finished run left, and replaces them with those it used when it ends.
type Cache struct {
	mu    sync.Mutex
	state *cacheState
}

// cacheState is what one run left; it is never changed once installed.
type cacheState struct {
	// result is the run's Result, whose claims and dreams a later run
	// gives again (the same pointers) where it finds them unchanged.
	result *Result
	corpus *corpusEntry
	names  *namesEntry
	// sources are the sources of files, by what each is made from: a
	// file read again unchanged (a git snapshot's, or one whose entries
	// were dated anew) finds its blocks and terms.
	sources  map[sourceKey]*source
	evidence map[*workspace.Entry]*evidenceEntry
	texts    map[string]*textFacts
	// claimTerms are claim texts split for matching, by text: a claim
	// read again (from a file read again, a point of its history) finds
	// them.
	claimTerms map[claimTextKey]*claimTerms
	// entries are the facts of claims' entries by what they are read
	// from, so that an entry read again (its file edited elsewhere, or
	// another point of its history) finds them.
	entries map[entryFactsKey]*entryFacts
	// entryFacts are the same facts by entry, for a claim of an entry the
	// next run reads unchanged (the same pointer and claim text): found
	// without hashing the entry's text.
	entryFacts map[*workspace.Entry]textEntryFacts
	idents     map[identKey]identity
	claimIDs   map[entryKey]identity
	// priors are the identities of the last run's claims as priors of the
	// next (newIdentity of their meta id and text), by entry.
	priors map[entryKey]identity
	// priorIndex is the index of the priors the run matched its claims
	// against.
	priorIndex *priorIndexEntry
	perms      map[permKey]permFacts
	slugs      map[string]bool
	// claimable says of each entry whether it states a fact (claimable).
	claimable map[*workspace.Entry]bool
}

// corpusEntry is a corpus with the inputs it was built from: the corpus
// files in order, and the recall store and events that marked its units.
type corpusEntry struct {
	files  []corpusFile
	recall *workspace.RecallStore
	events []workspace.Event
	corpus *corpus
	// sources are the sources of the corpus files, by path.
	sources map[string]*source
}

type corpusFile struct {
	file  *workspace.File
	daily *workspace.DailyLog
}

// namesEntry is a name index with the paths it indexes: the files, then
// the private files left out. Evidence is kept with the index it was read
// with, so the two lists are told apart: a private note made public again
// changes what a pointer to it gives without changing the index.
type namesEntry struct {
	files, withheld []string
	names           *markdown.NameIndex
}

// evidenceEntry is a claim's evidence as collectEvidence left it, with the
// findings it reported and what it read. It is kept by the claim's entry
// (whose file, lines, text, rule and pointers never change once read)
// and holds the rest of what the evidence was computed from: the date
// partial dates were read at, the corpus, the name index and the files
// the pointers read.
type evidenceEntry struct {
	ref      time.Time
	corpus   *corpus
	names    *markdown.NameIndex
	reads    []fileRead
	evidence []Evidence
	findings diag.List
	codes    []string
}

// fileRead is a file whose content a claim's evidence was read from.
type fileRead struct {
	path string
	file *workspace.File
}

// textFacts are what the analysis reads from a claim's text alone.
type textFacts struct {
	norm       string
	content    map[string]bool
	structural bool
	subject    statedSubject
}

type identKey struct {
	key                string
	text, title, rule1 string
}

// entryKey is a claim's identity by its entry (whose texts never change)
// and the key it is matched by.
type entryKey struct {
	entry *workspace.Entry
	key   string
}

// permKey is what a permission is read from: the entry's text as
// written, and the date it was given.
type permKey struct {
	raw   string
	given time.Time
}

// entryFactsKey is what entryFacts are read from: the claim's text, and
// its entry's text as written, status, type tag, section and shape (the
// last three say its memory type).
type entryFactsKey struct {
	text, raw, status, tag, section string
	shape                           workspace.EntryShape
}

// entryFacts are what the analysis reads from an entry alone: its text's
// facts, its lifecycle markers and what it says of its memory type.
type entryFacts struct {
	*textFacts
	lifecycle memory.Status
	types     typeFacts
}

type permFacts struct {
	ok      bool
	expires time.Time
}

// memo is one run's view of a Cache: what the last run left (old, read
// only) and what this run used (next, installed when it ends). A run uses
// it from one goroutine (the analysis's parallel loops do not).
type memo struct {
	cache *Cache
	old   *cacheState
	next  *cacheState
}

// start begins a run with c; a nil Cache gives a nil memo, which keeps
// nothing.
func (c *Cache) start() *memo {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	old := c.state
	c.mu.Unlock()
	if old == nil {
		old = &cacheState{}
	}
	// The next state holds about what the last one held: sized so, its
	// maps are not grown (and rehashed) entry by entry.
	return &memo{cache: c, old: old, next: &cacheState{
		sources:  make(map[sourceKey]*source, len(old.sources)),
		evidence: make(map[*workspace.Entry]*evidenceEntry, len(old.evidence)),
		texts:    make(map[string]*textFacts, len(old.texts)),

		claimTerms: make(map[claimTextKey]*claimTerms, len(old.claimTerms)),
		entries:    make(map[entryFactsKey]*entryFacts, len(old.entries)),
		entryFacts: make(map[*workspace.Entry]textEntryFacts, len(old.entryFacts)),
		idents:     make(map[identKey]identity, len(old.idents)),
		claimIDs:   make(map[entryKey]identity, len(old.claimIDs)),
		priors:     make(map[entryKey]identity, len(old.priors)),
		perms:      make(map[permKey]permFacts, len(old.perms)),
		slugs:      make(map[string]bool, len(old.slugs)),

		claimable: make(map[*workspace.Entry]bool, len(old.claimable)),
	}}
}

// finish installs what the run used for the next one, and its result.
func (m *memo) finish(res *Result) {
	if m == nil {
		return
	}
	m.next.result = res
	m.cache.mu.Lock()
	m.cache.state = m.next
	m.cache.mu.Unlock()
}

// text returns the facts of a claim text, working them out once; m must
// not be nil (see the analyzer's norm, content, structural and subject,
// which work out only the fact asked for without a cache).
func (m *memo) text(t string) *textFacts {
	f := m.next.texts[t]
	if f != nil {
		return f
	}
	if f = m.old.texts[t]; f == nil {
		f = newTextFacts(t)
	}
	m.next.texts[t] = f
	return f
}

func newTextFacts(t string) *textFacts {
	return &textFacts{norm: analysis.Normalize(t), content: analysis.ContentWordSet(t), structural: memory.IsStructural(t), subject: readSubject(t)}
}

// facts are the facts of c's text and entry; m must not be nil.
func (m *memo) facts(c *Claim) *entryFacts {
	if c.Entry == nil {
		return &entryFacts{textFacts: m.text(c.Text)}
	}
	e := c.Entry
	if tf, ok := m.next.entryFacts[e]; ok && tf.text == c.Text {
		return tf.facts
	}
	if tf, ok := m.old.entryFacts[e]; ok && tf.text == c.Text {
		m.next.entryFacts[e] = tf
		m.next.entries[tf.key] = tf.facts
		return tf.facts
	}
	k := entryFactsKey{c.Text, e.Raw, e.Status, e.TypeTag, e.Section, e.Shape}
	f := m.next.entries[k]
	if f == nil {
		if f = m.old.entries[k]; f == nil {
			f = &entryFacts{textFacts: m.text(c.Text), lifecycle: entryLifecycle(c.Entry), types: entryTypes(c.Entry)}
		}
		m.next.entries[k] = f
	}
	m.next.entryFacts[e] = textEntryFacts{text: c.Text, key: k, facts: f}
	return f
}

// textEntryFacts are the facts of an entry's claim with the claim's text
// they were read for, and their key in cacheState.entries.
type textEntryFacts struct {
	text  string
	key   entryFactsKey
	facts *entryFacts
}

// norm is analysis.Normalize(c.Text).
func (a *analyzer) norm(c *Claim) string {
	if a.memo == nil {
		return analysis.Normalize(c.Text)
	}
	return a.memo.facts(c).norm
}

// content is analysis.ContentWordSet(c.Text); the set is shared, and only read.
func (a *analyzer) content(c *Claim) map[string]bool {
	if a.memo == nil {
		return analysis.ContentWordSet(c.Text)
	}
	return a.memo.facts(c).content
}

// subject is readSubject(c.Text): what the contests read of every live
// claim, a regular expression or two each, kept so that an edit does not
// read every claim of the workspace again.
func (a *analyzer) subject(c *Claim) statedSubject {
	if a.memo == nil {
		return readSubject(c.Text)
	}
	return a.memo.facts(c).subject
}

// claimIdentity is the identity of claim c (see analyzer.claimIdentity)
// with key, kept by its entry.
func (m *memo) claimIdentity(c *Claim, key, title, rule string) identity {
	if c.Entry == nil {
		return m.identity(key, c.Text, title, rule)
	}
	k := entryKey{c.Entry, key}
	id, ok := m.next.claimIDs[k]
	if ok {
		return id
	}
	if id, ok = m.old.claimIDs[k]; !ok {
		id = m.identity(key, c.Text, title, rule)
	}
	m.next.claimIDs[k] = id
	return id
}

// lastClaims are the last run's claims when prior are their Prior(), as
// serve mode passes them; nil otherwise.
func (m *memo) lastClaims(prior []PriorClaim) []*Claim {
	if m == nil || m.old.result == nil || len(m.old.result.Claims) != len(prior) {
		return nil
	}
	last := m.old.result.Claims
	for j, p := range prior {
		if c := last[j]; c.ID != p.ID || c.Text != p.Text || c.MetaID != p.MetaID || c.File != p.File || c.Lifecycle != p.Lifecycle || c.Entry == nil {
			return nil
		}
	}
	return last
}

// matchFromLast is matchIdentities(the claims' identities, the
// identities of the priors) worked out from the last run, when the
// priors are its claims: the claims whose entries are the last run's
// ("kept") keep their priors, and only the others ("fresh", from edited
// files) are matched, against the priors whose claims are gone. ident
// gives the identity of the claim at an index; only fresh claims' are
// asked for, so that an edit does not look up every claim's.
//
// That is what the whole matching gives when no claim has a key (there is
// no memory-meta.json, so stage 1 does nothing), no fresh claim has a form
// as written equal to a kept claim's text, no gone prior has that text,
// and kept claims come in the order of their priors. Each kept claim then
// takes its own prior in the second stage (its text is its first form,
// and the only other claims whose forms name that prior come before it
// and took their own); fresh claims never meet a kept prior in any stage,
// and meet the gone priors in the same order, with the same word limit.
// ok is false when that does not hold, or when the priors are not the
// last run's claims. match holds, for each claim, the index of its prior
// or -1.
func (a *analyzer) matchFromLast(ident func(int) identity) (match []int, ok bool) {
	last := a.memo.lastClaims(a.opts.Previous)
	if last == nil || a.ws.Meta != nil {
		return nil, false
	}
	lastOf := a.memo.old.result.byEntry
	match = make([]int, len(a.claims))
	var fresh, gone []int // claims that are not the last run's; priors whose claims are not kept
	next := 0             // the prior after the last kept claim's
	for i, c := range a.claims {
		match[i] = -1
		o := lastOf[c.Entry]
		if o == nil || c.Entry == nil || c.Text != o.Text {
			fresh = append(fresh, i)
			continue
		}
		j := next
		for j < len(last) && last[j] != o {
			j++
		}
		if j == len(last) || strings.TrimSpace(c.Text) == "" {
			return nil, false // another order, or the text is not its first form
		}
		for ; next < j; next++ {
			gone = append(gone, next)
		}
		match[i], next = j, j+1
	}
	for ; next < len(last); next++ {
		gone = append(gone, next)
	}
	// The texts no kept claim may have, looked for by length first: an
	// edit has a few, the workspace thousands of kept claims.
	clash := map[string]bool{}
	lengths := map[int]bool{}
	probe := func(t string) {
		clash[t], lengths[len(t)] = true, true
	}
	newIDs := make([]identity, len(fresh))
	for k, i := range fresh {
		newIDs[k] = ident(i)
		for _, r := range newIDs[k].raw {
			probe(r)
		}
	}
	goneIDs := make([]identity, len(gone))
	for k, j := range gone {
		p := a.opts.Previous[j]
		goneIDs[k] = a.memo.identity(p.MetaID, p.Text, "", "")
		probe(strings.TrimSpace(p.Text))
	}
	if len(clash) > 0 {
		for i, c := range a.claims {
			if match[i] < 0 {
				continue
			}
			if t := strings.TrimSpace(c.Text); lengths[len(t)] && clash[t] {
				return nil, false
			}
		}
	}
	for k, j := range matchIdentitiesWithin(newIDs, newIdentityIndex(goneIDs), IdentityThreshold, max(64, len(last)/20)) {
		match[fresh[k]] = gone[j]
	}
	return match, true
}

// priorIndexEntry is an identity index of priors with what it was made
// from: each prior's meta id and text, in order (an identity is made of
// nothing else).
type priorIndexEntry struct {
	keys, texts []string
	index       *identityIndex
}

// priorIndex is the identity index of the claims of a previous build
// (their priorIdentities): the last run's when its priors had the same
// meta ids and texts, as every point of the memory's history has (each
// is matched against the build's claims), else made now.
func (m *memo) priorIndex(prior []PriorClaim) *identityIndex {
	if m == nil {
		return newIdentityIndex(m.priorIdentities(prior))
	}
	if e := m.old.priorIndex; e != nil && len(e.keys) == len(prior) {
		same := true
		for j, p := range prior {
			if p.MetaID != e.keys[j] || p.Text != e.texts[j] {
				same = false
				break
			}
		}
		if same {
			m.next.priorIndex = e
			// The identities by entry stay for a run whose priors differ.
			m.next.priors = m.old.priors
			return e.index
		}
	}
	e := &priorIndexEntry{keys: make([]string, len(prior)), texts: make([]string, len(prior)), index: newIdentityIndex(m.priorIdentities(prior))}
	for j, p := range prior {
		e.keys[j], e.texts[j] = p.MetaID, p.Text
	}
	m.next.priorIndex = e
	return e.index
}

// priorIdentities are the identities of the claims of a previous build,
// newIdentity(p.MetaID, p.Text) for each: kept by entry when prior is the
// last run's claims (as serve mode passes them), else worked out from
// their texts.
func (m *memo) priorIdentities(prior []PriorClaim) []identity {
	out := make([]identity, len(prior))
	var last []*Claim
	if m != nil && m.old.result != nil && len(m.old.result.Claims) == len(prior) {
		last = m.old.result.Claims
		for j, p := range prior {
			if c := last[j]; c.ID != p.ID || c.Text != p.Text || c.MetaID != p.MetaID || c.Entry == nil {
				last = nil
				break
			}
		}
	}
	for j, p := range prior {
		switch {
		case last != nil:
			k := entryKey{last[j].Entry, p.MetaID}
			id, ok := m.old.priors[k]
			if !ok {
				id = m.identity(p.MetaID, p.Text, "", "")
			}
			m.next.priors[k] = id
			out[j] = id
		case m != nil:
			out[j] = m.identity(p.MetaID, p.Text, "", "")
		default:
			out[j] = newIdentity(p.MetaID, p.Text)
		}
	}
	return out
}

// identity is newIdentity(key, text, title, rule), worked out once.
func (m *memo) identity(key, text, title, rule string) identity {
	if m == nil {
		return newIdentity(key, text, title, rule)
	}
	k := identKey{key, text, title, rule}
	id, ok := m.next.idents[k]
	if ok {
		return id
	}
	if id, ok = m.old.idents[k]; !ok {
		id = newIdentity(key, text, title, rule)
	}
	m.next.idents[k] = id
	return id
}

// permission is memory.Permission(raw, given), worked out once.
func (m *memo) permission(raw string, given time.Time) (bool, time.Time) {
	if m == nil {
		return memory.Permission(raw, given)
	}
	k := permKey{raw, given}
	p, ok := m.next.perms[k]
	if ok {
		return p.ok, p.expires
	}
	if p, ok = m.old.perms[k]; !ok {
		p.ok, p.expires = memory.Permission(raw, given)
	}
	m.next.perms[k] = p
	return p.ok, p.expires
}

// corpus returns the corpus the last run built from the same inputs, nil
// when there is none.
func (m *memo) corpus(files []corpusFile, recall *workspace.RecallStore, events []workspace.Event) *corpusEntry {
	if m == nil {
		return nil
	}
	e := m.old.corpus
	if e == nil || e.recall != recall || !sameEvents(e.events, events) || len(e.files) != len(files) {
		return nil
	}
	for i, f := range files {
		if e.files[i] != f {
			return nil
		}
	}
	m.next.corpus = e
	return e
}

// corpusBefore returns the corpus the last run built when its files are
// the first of files, with the same recall store and events: the
// workspace has gained files at the end of the list since (the next daily
// logs, as from one point of the memory's history to the next), and the
// corpus is extended by them. Without one it returns an empty entry.
func (m *memo) corpusBefore(files []corpusFile, recall *workspace.RecallStore, events []workspace.Event) *corpusEntry {
	if m == nil {
		return &corpusEntry{}
	}
	e := m.old.corpus
	if e == nil || e.recall != recall || !sameEvents(e.events, events) || len(e.files) >= len(files) {
		return &corpusEntry{}
	}
	for i, f := range e.files {
		if files[i] != f {
			return &corpusEntry{}
		}
	}
	return e
}

// corpusTerms is how many distinct terms the last run's corpus had, 0
// when there was none: about as many as the next will have.
func (m *memo) corpusTerms() int {
	if m == nil || m.old.corpus == nil {
		return 0
	}
	return len(m.old.corpus.corpus.ids)
}

// keepCorpus keeps a corpus built (and marked) by this run.
func (m *memo) keepCorpus(e *corpusEntry) {
	if m != nil {
		m.next.corpus = e
	}
}

func sameEvents(a, b []workspace.Event) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// names returns the name index of the last run when it indexed the same
// files and private files, else one made now (and kept).
func (m *memo) names(files, withheld []string) *markdown.NameIndex {
	if m != nil {
		if e := m.old.names; e != nil && slices.Equal(e.files, files) && slices.Equal(e.withheld, withheld) {
			m.next.names = e
			return e.names
		}
	}
	entries := make([]markdown.IndexEntry, 0, len(files)+len(withheld))
	for _, p := range files {
		entries = append(entries, markdown.IndexEntry{Path: p})
	}
	for _, p := range withheld {
		entries = append(entries, markdown.IndexEntry{Path: p})
	}
	ix := markdown.NewNameIndex(entries)
	if m != nil {
		m.next.names = &namesEntry{files: files, withheld: withheld, names: ix}
	}
	return ix
}

// sourceKey is what a source is made from: a file's path, kind, privacy
// and content, whether it is a corpus's (normalised, see source.norms),
// and for a daily log in the corpus its date and the lines left out of it
// (see skipper), as "header,start-end,...".
type sourceKey struct {
	path, content   string
	kind            workspace.Kind
	private, corpus bool
	date            time.Time
	skip            string
}

func fileKey(f *workspace.File) sourceKey {
	return sourceKey{path: f.Path, content: f.Content, kind: f.Kind, private: f.Private}
}

// carried returns what this run or the last kept at k (keeping the
// last's for the next run too), nil when neither did.
func carried[K comparable, V any](next, old map[K]*V, k K) *V {
	v := next[k]
	if v == nil {
		if v = old[k]; v != nil {
			next[k] = v
		}
	}
	return v
}

// source returns the source the last run made from k, nil when it made
// none. Its terms are complete and it is shared: a corpus numbers its
// units in a copy (see buildCorpus).
func (m *memo) source(k sourceKey) *source {
	if m == nil {
		return nil
	}
	return carried(m.next.sources, m.old.sources, k)
}

// keepSource keeps a source this run made, its terms complete so that no
// later run writes to it.
func (m *memo) keepSource(k sourceKey, s *source) {
	if m == nil || s == nil {
		return
	}
	var tm termer
	s.termAll(&tm)
	m.next.sources[k] = s
}

// claimTerms returns the split texts of key the last run kept, nil when
// it kept none.
func (m *memo) claimTerms(k claimTextKey) *claimTerms {
	if m == nil {
		return nil
	}
	return carried(m.next.claimTerms, m.old.claimTerms, k)
}

// keepClaimTerms keeps a claim's split texts.
func (m *memo) keepClaimTerms(k claimTextKey, ct *claimTerms) {
	if m != nil {
		m.next.claimTerms[k] = ct
	}
}

// evidence returns the evidence c had in the last run, when nothing it
// was computed from changed; nil otherwise.
func (m *memo) evidence(c *Claim, a *analyzer) *evidenceEntry {
	if m == nil || c.Entry == nil {
		return nil
	}
	e := m.old.evidence[c.Entry]
	if e == nil || e.corpus != a.corpus || e.names != a.names || !e.ref.Equal(a.claimRef(c)) {
		return nil
	}
	for _, r := range e.reads {
		if a.ws.FileByPath(r.path) != r.file {
			return nil
		}
	}
	m.next.evidence[c.Entry] = e
	return e
}

// keepEvidence keeps what collectEvidence found for a claim.
func (m *memo) keepEvidence(c *Claim, e *evidenceEntry) {
	if m != nil && c.Entry != nil {
		m.next.evidence[c.Entry] = e
	}
}

// claimable reports whether entry e states a fact, a claim: it has text
// and is no bookkeeping line (notAClaim); worked out once per entry.
func (m *memo) claimable(e *workspace.Entry) bool {
	if m == nil {
		return claimable(e)
	}
	ok, seen := m.old.claimable[e]
	if !seen {
		ok = claimable(e)
	}
	m.next.claimable[e] = ok
	return ok
}

func claimable(e *workspace.Entry) bool {
	return strings.TrimSpace(e.Text) != "" && !notAClaim(e)
}

// validSlug reports whether an id's slug is one slugify would make,
// working it out once per slug.
func (m *memo) validSlug(slug string) bool {
	if m == nil {
		return slug == slugify(slug)
	}
	ok, seen := m.old.slugs[slug]
	if !seen {
		ok = slug == slugify(slug)
	}
	m.next.slugs[slug] = ok
	return ok
}

// share gives back the last run's claims and dreams where this run's are
// equal to them, so that later stages (the vault, the site) tell what
// changed by comparing pointers, and rebuilds the result's indexes.
func (m *memo) share(res *Result) {
	if m == nil || m.old.result == nil {
		return
	}
	prev := m.old.result
	for i, c := range res.Claims {
		if o := prev.byEntry[c.Entry]; o != nil && c.Entry != nil && sameClaim(c, o) {
			res.Claims[i] = o
			res.byID[o.ID] = o
			res.byEntry[o.Entry] = o
		}
	}
	if len(prev.Dreams) == len(res.Dreams) {
		for i, d := range res.Dreams {
			if o := prev.Dreams[i]; reflect.DeepEqual(d, o) {
				res.Dreams[i] = o
			}
		}
	}
}

// sameClaim reports whether two claims hold the same values (their
// entries the same too).
func sameClaim(a, b *Claim) bool {
	if a.ID != b.ID || a.Slug != b.Slug || a.File != b.File || a.Line != b.Line || a.EndLine != b.EndLine ||
		a.Section != b.Section || a.Block != b.Block || a.Text != b.Text || a.Title != b.Title ||
		a.MemoryType != b.MemoryType || a.TypeFrom != b.TypeFrom || a.Status != b.Status || a.Lifecycle != b.Lifecycle ||
		a.Tier != b.Tier || a.Scores != b.Scores || a.Recalls != b.Recalls || a.Created != b.Created ||
		a.LastRecall != b.LastRecall || a.Structural != b.Structural || a.MetaID != b.MetaID || a.Private != b.Private ||
		a.Origin != b.Origin || a.Entry != b.Entry {
		return false
	}
	if (a.Permission == nil) != (b.Permission == nil) || a.Permission != nil && *a.Permission != *b.Permission {
		return false
	}
	return slices.Equal(a.Evidence, b.Evidence) && slices.Equal(a.Chain, b.Chain) && slices.Equal(a.Contests, b.Contests) &&
		slices.Equal(a.Dreams, b.Dreams) && slices.Equal(a.Findings, b.Findings) && slices.Equal(a.Tags, b.Tags)
}

package workspace

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// loader reads one workspace.
type loader struct {
	fsys     fs.FS
	opts     Options
	absRoot  string
	realRoot string
	// guard is the secret guard of the workspace's configuration, once
	// read (Config.Guard).
	guard secrets.Guard
}

func newLoader(fsys fs.FS, opts Options) *loader { return &loader{fsys: fsys, opts: opts} }

// role is what a file is, decided from its path alone so that every file
// can then be read and parsed independently.
type role struct {
	kind   Kind
	sub    string // for data files: recall, events, meta, heartbeat, archive-config, json
	date   time.Time
	suffix string // daily log suffix
	phase  string
	name   string // bootstrap name
	// conversation files
	channel, group, rest string
	// private is set when the path alone makes the file private
	// (privateByPath).
	private bool
}

// parsed is the outcome of reading and parsing one candidate.
type parsed struct {
	file  *File
	asset *Asset
	diags diag.List
	// withheld is set instead of file or asset for a private file left
	// out (Options.OmitPrivate).
	withheld *Withheld

	memory        *MemoryIndex
	daily         *DailyLog
	topic         *TopicFile
	dreamLog      *DreamLog
	dreams        *DreamsDiary
	phase         *PhaseReport
	recall        *RecallStore
	events        []Event
	meta          *MetaStore
	heartbeat     *Heartbeat
	archive       *ArchiveFile
	archiveConfig *ArchiveConfig
	bootstrap     *BootstrapFile
	// byNewest is set when the parse resolved a partial date against the
	// newest daily log date (or, without daily logs, the file's time): a
	// file that did not keeps its parse when that date changes.
	byNewest bool
}

func (l *loader) load() *Workspace {
	sc := l.scan()
	l.guard = sc.config.Guard()
	return l.assemble(sc, l.readAll(sc.cands, sc.roles, sc.newest))
}

// scan is what a load learns before reading any file: the configuration,
// the files the walk found and the role of each. Reread keeps it, so an
// edit to a known file needs no new walk.
type scan struct {
	config Config
	// found are the configuration's and the walk's findings, diags those
	// and the classification's.
	found, diags diag.List
	cands        []candidate
	roles        []role
	newest       time.Time
	ignored      []string
	vaults       []string
	// rules are what the walk left out and why, and private the valid
	// private globs: what a change list is checked against (patchScan).
	rules   *walker
	private []string
	// links is set when the walk met a symbolic link.
	links bool
}

// scan reads the configuration, walks the workspace and classifies what
// it found.
func (l *loader) scan() *scan {
	ws := &Workspace{Config: DefaultConfig()}
	var diags diag.List

	l.readConfig(ws, &diags)
	ws.Config.Private = append(ws.Config.Private, l.opts.Private...)

	globs := make([]string, 0, len(ws.Config.Exclude)+len(l.opts.Exclude))
	for _, g := range append(append([]string(nil), ws.Config.Exclude...), l.opts.Exclude...) {
		if !ValidGlob(g) {
			diags.Warnf("config", ConfigFile, 0, "exclude pattern %q is malformed; it was ignored", g)
			continue
		}
		globs = append(globs, g)
	}
	skip := map[string]bool{}
	for _, s := range l.opts.Skip {
		if c := cleanRel(s); c != "" {
			skip[c] = true
		}
	}

	private := make([]string, 0, len(ws.Config.Private))
	for _, g := range ws.Config.Private {
		if !ValidGlob(g) {
			diags.Warnf("config", ConfigFile, 0, "private pattern %q is malformed; it makes nothing private", g)
			continue
		}
		private = append(private, g)
	}

	w := &walker{fsys: l.fsys, absRoot: l.absRoot, realRoot: l.realRoot, skip: skip, globs: globs, redact: l.opts.Redact,
		guard: ws.Config.Guard()}
	w.walk("", "", []string{""}, nil)
	diags = append(diags, w.diags...)
	sort.Slice(w.cands, func(i, j int) bool { return w.cands[i].path < w.cands[j].path })
	sort.Strings(w.ignored)
	sort.Strings(w.vaults)
	sc := &scan{config: ws.Config, found: diags, cands: w.cands, ignored: w.ignored, vaults: w.vaults,
		rules: &walker{skip: skip, globs: globs}, private: private, links: w.links}
	l.classifyScan(sc)
	return sc
}

// classifyScan gives the candidates of sc their roles, and sc its newest
// daily log date and its findings.
func (l *loader) classifyScan(sc *scan) {
	sc.diags = append(diag.List(nil), sc.found...)
	sc.roles, sc.newest = l.classify(sc.cands, sc.vaults, sc.private, &sc.diags)
}

// assemble builds the workspace from a scan and the parse of each of its
// candidates (results is parallel to sc.cands).
func (l *loader) assemble(sc *scan, results []parsed) *Workspace {
	ws := &Workspace{Config: sc.config, Ignored: sc.ignored, NestedVaults: sc.vaults}
	diags := append(diag.List(nil), sc.diags...)
	roles := sc.roles
	ws.state = &loadState{fsys: l.fsys, opts: l.opts, abs: l.absRoot, real: l.realRoot, scan: sc, results: results}

	ws.byPath = make(map[string]*File, len(results))
	ws.assetByPath = map[string]*Asset{}
	var convs []convFile
	for i, r := range results {
		diags = append(diags, r.diags...)
		if r.withheld != nil {
			ws.Withheld = append(ws.Withheld, *r.withheld)
			continue
		}
		if r.asset != nil {
			ws.Assets = append(ws.Assets, r.asset)
			ws.assetByPath[r.asset.Path] = r.asset
			continue
		}
		f := r.file
		if f == nil {
			continue
		}
		ws.Files = append(ws.Files, f)
		ws.byPath[f.Path] = f
		switch {
		case r.memory != nil:
			ws.Memory = r.memory
		case r.daily != nil:
			ws.Daily = append(ws.Daily, r.daily)
		case r.topic != nil:
			ws.Topics = append(ws.Topics, r.topic)
		case r.dreamLog != nil:
			ws.DreamLog = r.dreamLog
		case r.dreams != nil:
			ws.Dreams = r.dreams
		case r.phase != nil:
			ws.Phases = append(ws.Phases, r.phase)
		case r.recall != nil:
			ws.Recall = r.recall
		case r.events != nil || roles[i].sub == "events":
			ws.Events = r.events
		case r.meta != nil:
			ws.Meta = r.meta
		case r.heartbeat != nil:
			ws.Heartbeat = r.heartbeat
		case r.archive != nil:
			ws.Archive = append(ws.Archive, r.archive)
		case r.archiveConfig != nil:
			ws.ArchiveConfig = r.archiveConfig
		case r.bootstrap != nil:
			ws.Bootstrap = append(ws.Bootstrap, r.bootstrap)
		case f.Kind == KindNote:
			ws.Notes = append(ws.Notes, f)
		}
		if roles[i].kind == KindConversation {
			convs = append(convs, convFile{file: f, channel: roles[i].channel, grp: roles[i].group, rest: roles[i].rest})
		}
	}
	ws.Conversations = buildConversations(convs, ws.ArchiveConfig)

	sort.SliceStable(ws.Daily, func(i, j int) bool {
		a, b := ws.Daily[i], ws.Daily[j]
		if !a.Date.Equal(b.Date) {
			return a.Date.Before(b.Date)
		}
		return a.File.Path < b.File.Path
	})
	sort.SliceStable(ws.Phases, func(i, j int) bool {
		a, b := ws.Phases[i], ws.Phases[j]
		if !a.Date.Equal(b.Date) {
			return a.Date.Before(b.Date)
		}
		return a.File.Path < b.File.Path
	})
	diags.Sort()
	ws.Diagnostics = diags
	return ws
}

// readConfig reads dreamwiki.toml at the root, when there is one.
func (l *loader) readConfig(ws *Workspace, diags *diag.List) {
	fi, err := fs.Lstat(l.fsys, ConfigFile)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			diags.Warnf("config", ConfigFile, 0, "configuration could not be read (%v); the defaults were used", underlying(err))
		}
		return
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		diags.Warnf("config", ConfigFile, 0, "configuration is a symbolic link; it was not followed and the defaults were used")
		return
	}
	var local diag.List
	f, _ := readText(l.fsys, candidate{path: ConfigFile, source: ConfigFile}, &local)
	if f != nil && l.opts.Redact {
		redactFile(f, secrets.Guard{}, &local) // a base URL may carry a password
	}
	*diags = append(*diags, local...)
	if f == nil {
		return
	}
	ws.Config = ParseConfig(ConfigFile, f.Content, diags)
}

// noteFolders under memory/ hold material nobody curated as L2 topics:
// their Markdown files are ordinary notes.
var noteFolders = map[string]bool{
	"research": true, "drafts": true, "inbox": true, "templates": true, "attachments": true, "daily": true,
}

// classify decides every candidate's role and returns the newest daily log
// date, which partial dates in undated files are resolved against. private
// are the configuration's valid private globs.
func (l *loader) classify(cands []candidate, vaults, private []string, diags *diag.List) ([]role, time.Time) {
	has := make(map[string]bool, len(cands))
	for _, c := range cands {
		has[c.path] = true
	}
	roles := make([]role, len(cands))
	secret := privateFiles(cands, private, diags)
	var newest time.Time
	for i, c := range cands {
		if c.asset {
			roles[i].private = secret[c.source]
			continue
		}
		r := classifyPath(c.path, vaults, has)
		r.private = secret[c.source]
		if r.kind == KindDaily && r.date.After(newest) {
			newest = r.date
		}
		if r.kind == KindNote && (c.path == "memory.md" && has["MEMORY.md"] || c.path == "dreams.md" && has["DREAMS.md"]) {
			diags.Warnf("duplicate", c.path, 0, "both %s and %s exist; %s was read as an ordinary note",
				strings.ToUpper(strings.TrimSuffix(c.path, ".md"))+".md", c.path, c.path)
		}
		roles[i] = r
	}
	return roles, newest
}

// DailyLogPath reports whether a workspace path is named as a daily log,
// and its date and the rest of its name: memory/YYYY-MM-DD.md or a file
// named so with a suffix ("2026-04-07-0810.md", "2026-04-07-gateway-move.md"),
// also under memory/daily/. It is the name half of the one rule for "is
// this a daily log?" (IsDailyLog): a caller that holds only a path (a file
// of another commit, one yet to be written) calls it, and a writer that
// must never touch a log refuses every dated path anyway (DatedPath).
func DailyLogPath(p string) (date time.Time, suffix string, ok bool) {
	rest, found := strings.CutPrefix(p, "memory/")
	if !found {
		return time.Time{}, "", false
	}
	dir, name := path.Split(rest)
	if dir != "" && !strings.HasPrefix(dir, "daily/") {
		return time.Time{}, "", false
	}
	return dailyName(name)
}

// DatedPath reports a path whose file belongs to a day or a month: a date
// in its name or in a folder's ("2026-03-01-gateway.md",
// "2026-03/notes.md", "20260301.md"), or a folder of dated writing
// (diary/, journal/, daily/, archive/, archives/). A dream never writes
// into one (#23 rule 2): what was written for a day stays as it was.
func DatedPath(p string) bool {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if i < len(segs)-1 && datedFolders[strings.ToLower(s)] {
			return true
		}
		if reDatedName.MatchString(s) {
			return true
		}
	}
	return false
}

// datedFolders hold writing that belongs to its day.
var datedFolders = map[string]bool{
	"diary": true, "diaries": true, "journal": true, "journals": true, "daily": true, "dailies": true,
	"archive": true, "archives": true, "日记": true, "日記": true, "日誌": true, "일기": true,
}

// reDatedName is a year and month, with or without a day, in a name:
// "2026-03", "2026-03-01", "2026_03_01", "2026.03.01", "20260301".
var reDatedName = regexp.MustCompile(`(?:^|[^0-9])(?:19|20)\d\d(?:[-_.](?:0[1-9]|1[0-2])(?:[-_.](?:0[1-9]|[12]\d|3[01]))?|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?:[^0-9]|$)`)

// classifyPath is the role of a text file from its workspace path.
func classifyPath(p string, vaults []string, has map[string]bool) role {
	ext := strings.ToLower(path.Ext(p))
	isJSON := ext == ".json" || ext == ".jsonl"
	md := ext == ".md" || ext == ".markdown"
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	segs := strings.Split(p, "/")

	switch p {
	case RecallStorePath:
		return role{kind: KindData, sub: "recall"}
	case EventsPath:
		return role{kind: KindData, sub: "events"}
	case "memory/memory-meta.json":
		return role{kind: KindData, sub: "meta"}
	case "memory/heartbeat-state.json":
		return role{kind: KindData, sub: "heartbeat"}
	case "archives/archive-config.json":
		return role{kind: KindData, sub: "archive-config"}
	}
	if segs[0] == "archives" && len(segs) >= 4 {
		rest := strings.Join(segs[3:], "/")
		if !isJSON || strings.HasPrefix(rest, "raw/") {
			return role{kind: KindConversation, channel: segs[1], group: segs[2], rest: rest}
		}
	}
	if isJSON {
		return role{kind: KindData, sub: "json"}
	}
	if !md {
		return role{kind: KindNote}
	}
	for _, v := range vaults {
		if v == "memory" || v == "archives" || strings.HasPrefix(v, "archives/") || v == "memory/daily" {
			continue // the workspace's own folders opened in Obsidian
		}
		if strings.HasPrefix(p, v+"/") {
			return role{kind: KindNote}
		}
	}
	if dir == "" {
		base := strings.TrimSuffix(name, path.Ext(name))
		switch {
		case name == "MEMORY.md" || name == "memory.md" && !has["MEMORY.md"]:
			return role{kind: KindMemory}
		case name == "DREAMS.md" || name == "dreams.md" && !has["DREAMS.md"]:
			return role{kind: KindDreams}
		case bootstrapNames[strings.ToUpper(base)] && (base == strings.ToUpper(base) || base == strings.ToLower(base)):
			return role{kind: KindBootstrap, name: strings.ToUpper(base)}
		}
		return role{kind: KindNote}
	}
	if segs[0] != "memory" {
		return role{kind: KindNote}
	}
	// memory/...
	switch {
	case p == "memory/dream-log.md":
		return role{kind: KindDreamLog}
	case len(segs) >= 3 && segs[1] == "archive":
		return role{kind: KindArchive}
	case len(segs) == 4 && segs[1] == "dreaming" && (segs[2] == "light" || segs[2] == "rem" || segs[2] == "deep"):
		r := role{kind: KindPhase, phase: segs[2]}
		if d, _, ok := dailyName(name); ok {
			r.date = d
		}
		return r
	case segs[1] == "dreaming" || segs[1] == ".dreams":
		return role{kind: KindNote}
	}
	if d, suffix, ok := DailyLogPath(p); ok {
		return role{kind: KindDaily, date: d, suffix: suffix}
	}
	return role{kind: dailyNamedTopic(p)}
}

// dailyNamedTopic is the kind of a file under memory/ that is no daily log:
// a note in a folder of notes, else an L2 topic.
func dailyNamedTopic(p string) Kind {
	segs := strings.Split(p, "/")
	for _, s := range segs[1 : len(segs)-1] {
		if noteFolders[strings.ToLower(s)] {
			return KindNote
		}
	}
	return KindTopic
}

// readAll reads and parses every candidate, in parallel, keeping order.
func (l *loader) readAll(cands []candidate, roles []role, newest time.Time) []parsed {
	results := make([]parsed, len(cands))
	workers := runtime.GOMAXPROCS(0) * 4
	if workers > 16 {
		workers = 16
	}
	parallel.For(len(cands), workers, func(i int) {
		results[i] = l.readOne(cands[i], roles[i], newest)
	})
	return results
}

// readOne reads and parses one file. It never panics on input: a parser
// bug on one file becomes a diagnostic and the file is kept as a note.
func (l *loader) readOne(c candidate, r role, newest time.Time) (res parsed) {
	if c.asset {
		if r.private && l.opts.OmitPrivate {
			res.withheld = &Withheld{Path: c.path, Blob: assetBlobID(l.fsys, c)}
			return res
		}
		res.asset = readAsset(l.fsys, c, l.assetGuard(), &res.diags)
		return res
	}
	f, data := readText(l.fsys, c, &res.diags)
	if f == nil {
		return res
	}
	if r.kind == KindDaily {
		// A file named for a day with words after the date is a daily
		// log only when its content is shaped as one (IsDailyLog).
		if _, _, ok := IsDailyLog(f.Path, f.Content); !ok {
			r = role{kind: dailyNamedTopic(f.Path), private: r.private}
		}
	}
	f.Kind = r.kind
	f.Private = r.private || privateByFrontMatter(f.Path, f.Content, &res.diags)
	if f.Private && l.opts.OmitPrivate {
		res.withheld = &Withheld{Path: f.Path, Kind: f.Kind, Blob: BlobID(data)}
		return res
	}
	if l.opts.Redact {
		redactFile(f, l.guard, &res.diags)
	}
	res.file = f
	defer func() {
		if v := recover(); v != nil {
			res = parsed{file: f, diags: res.diags}
			f.Kind = KindNote
			res.diags.Errorf("internal", f.Path, 0, "dreamwiki could not parse this file (%v); it was read as an ordinary note — please report this", v)
		}
	}()
	parseFile(&res, r, newest, l.opts.Parses)
	return res
}

// parseFile fills res with the typed view of its file; parses (may be
// nil) holds recall stores read by earlier loads.
func parseFile(res *parsed, r role, newest time.Time, parses *Parses) {
	f := res.file
	undated := newest
	if undated.IsZero() {
		undated = dates.Day(f.ModTime)
	}
	switch r.kind {
	case KindMemory:
		res.memory, res.byNewest = parseMemory(f, newest)
	case KindDaily:
		res.daily = parseDaily(f, r.date, r.suffix)
	case KindTopic:
		res.topic, res.byNewest = parseTopic(f, undated)
	case KindDreamLog:
		res.dreamLog = parseDreamLog(f)
	case KindDreams:
		res.dreams = parseDreams(f, &res.diags)
	case KindPhase:
		res.phase = parsePhase(f, r.phase)
	case KindArchive:
		res.archive, res.byNewest = parseArchive(f, undated)
	case KindBootstrap:
		res.bootstrap = parseBootstrap(f, r.name)
	case KindData:
		switch r.sub {
		case "recall":
			res.recall = parses.recallStore(f, &res.diags)
		case "events":
			res.events = parseEvents(f, &res.diags)
		case "meta":
			res.meta = parseMeta(f, &res.diags)
		case "heartbeat":
			res.heartbeat = parseHeartbeat(f, &res.diags)
		case "archive-config":
			res.archiveConfig = parseArchiveConfig(f, &res.diags)
		default:
			validateJSON(f, &res.diags)
		}
	case KindConversation:
		if strings.HasSuffix(strings.ToLower(f.Path), ".json") || strings.HasSuffix(strings.ToLower(f.Path), ".jsonl") {
			validateJSON(f, &res.diags)
		}
	}
}

// parseTopic reads an L2 topic file; byRef reports that a partial date was
// resolved against ref.
func parseTopic(f *File, ref time.Time) (t *TopicFile, byRef bool) {
	rel := strings.TrimPrefix(f.Path, "memory/")
	t = &TopicFile{File: f, Topic: strings.TrimSuffix(rel, path.Ext(rel))}
	t.Sections, byRef = parseEntriesRef(f.Path, f.Content, ref, nil)
	t.Title = fileTitle(f.Content)
	if t.Title == "" {
		t.Title = path.Base(t.Topic)
	}
	return t, byRef
}

// fileTitle is the front matter title, else the first H1, else "".
func fileTitle(content string) string {
	lines := mdline.Split(content)
	fm := mdline.FrontMatterEnd(lines)
	for _, l := range lines[:fm] {
		if k, v, ok := splitKV(l); ok && strings.EqualFold(k, "title") {
			return strings.Trim(v, `"'`)
		}
	}
	var code mdline.Fence
	for _, l := range lines[fm:] {
		t := strings.TrimSpace(l)
		if code.Code(t) {
			continue
		}
		if level, text := mdline.Heading(t); level == 1 {
			return headingText(text)
		}
	}
	return ""
}

// parseArchive reads memory/archive/YYYY-MM.md.
// byFallback reports that a partial date was resolved against fallback.
func parseArchive(f *File, fallback time.Time) (a *ArchiveFile, byFallback bool) {
	a = &ArchiveFile{File: f}
	name := path.Base(f.Path)
	if len(name) >= 7 && name[4] == '-' {
		y, n1 := leadingInt(name, 4)
		m, n2 := leadingInt(name[5:], 2)
		if n1 == 4 && n2 == 2 && (len(name) == 7 || !isDigit(name[7])) {
			if t, ok := dates.Make(y, m, 1); ok {
				a.Month = t
			}
		}
	}
	ref := a.Month
	if d, _, ok := dailyName(name); ok {
		ref = d
	}
	own := !ref.IsZero()
	if !own {
		ref = fallback
	}
	sections, byRef := parseEntriesRef(f.Path, f.Content, ref, nil)
	for _, s := range sections {
		a.Entries = append(a.Entries, s.Entries...)
	}
	return a, byRef && !own
}

package history

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Source is where a snapshot's files came from.
type Source string

// Snapshot sources, most faithful first.
const (
	// SourceGit is a commit of the workspace's git repository.
	SourceGit Source = "git"
	// SourceBackups is the dream backups laid over the workspace.
	SourceBackups Source = "backups"
	// SourceDates is the workspace as it is now, less what its dates say
	// came later.
	SourceDates Source = "dates"
)

// BackupRoot is where dreams keep the files they changed, one folder per
// run named YYYYMMDD-HHMM[-N] (dream.BackupRoot; the dream package sits
// above the readers and cannot be imported here).
const BackupRoot = ".backup/memory-dreams"

// Snapshot is a workspace as it stood at a time.
type Snapshot struct {
	// Source says where the files came from.
	Source Source `json:"source"`
	// At is the time the snapshot shows (the end of the --as-of day).
	At time.Time `json:"at"`
	// Commit and CommitTime name the commit read, for SourceGit.
	Commit     string    `json:"commit,omitempty"`
	CommitTime time.Time `json:"commit_time,omitzero"`
	// Backups are the backup runs whose copies were used, oldest first,
	// for SourceBackups.
	Backups []string `json:"backups,omitempty"`
	// BeforeGit is the time of the repository's first commit when the
	// snapshot, from backups or dates, shows a time before it.
	BeforeGit time.Time `json:"before_git,omitzero"`
	// FS holds the workspace's files as they were.
	FS fs.FS `json:"-"`

	layer *layerFS
}

// Options configure Take.
type Options struct {
	// Hide reports the workspace paths never to show, whatever they held
	// then: the files private now (workspace.Workspace.Unpublished).
	Hide func(p string) bool
	// Private are the git object ids (workspace.BlobID) of the files
	// private now (workspace.Withheld.Blob). A file private now is absent
	// from every past point wherever it was then: a past file with one
	// of these ids, or one a commit had at a path Hide hides, is left out,
	// and so is every earlier version at its path (see Past.privacy).
	Private []string
	// Contents are texts the caller has read already (the workspace's
	// files as they are now): a commit's file with the content hash of one
	// of them is taken from it, not read from the repository again (most
	// files of a past commit, the daily logs, are as they are now).
	Contents []string
}

// Describe says in one line where the snapshot came from.
func (s *Snapshot) Describe() string {
	day := s.At.Format("2006-01-02")
	switch s.Source {
	case SourceGit:
		return fmt.Sprintf("memory as of %s from git commit %s (%s)", day, shortHash(s.Commit), s.CommitTime.UTC().Format("2006-01-02 15:04 UTC"))
	case SourceBackups:
		before := ""
		if !s.BeforeGit.IsZero() {
			before = fmt.Sprintf(", before the repository's first commit (%s)", s.BeforeGit.Format("2006-01-02"))
		}
		return fmt.Sprintf("memory as of %s from the dream backups (%s)%s", day, strings.Join(s.Backups, ", "), before)
	}
	before := ""
	if !s.BeforeGit.IsZero() {
		before = fmt.Sprintf(", before the repository's first commit (%s)", s.BeforeGit.Format("2006-01-02"))
	}
	return fmt.Sprintf("memory as of %s from the dates written in it%s: the daily logs of that day and before, other files as they are now less the claims created later", day, before)
}

func shortHash(h string) string { return h[:min(len(h), 10)] }

// EndOfDay is the last instant of day's date in UTC: an --as-of day
// includes everything done on it.
func EndOfDay(day time.Time) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
}

// Take reads the workspace in the folder root as it stood at the time at:
// from its git repository when it is in one that has a commit at or
// before at, else from fsys (the workspace's files) with its backups and
// dates.
func Take(root string, fsys fs.FS, at time.Time, opts Options) (*Snapshot, error) {
	p, err := Open(root, fsys, opts)
	if err != nil {
		return nil, err
	}
	return p.At(at)
}

// Past is a workspace's history opened once for many snapshots (a
// timeline takes one per dream): its git repository is opened and its
// log read once, not once a snapshot.
type Past struct {
	fsys fs.FS
	opts Options
	repo *git.Repository
	// prefix is the workspace's folder in the repository's work tree.
	prefix string
	// commits are those reachable from HEAD, by committer time, the
	// smaller hash last among equal times (see commitIndex).
	commits []*object.Commit
	// blobs are the files read so far, by content hash: most files are
	// the same from one commit to the next (a daily log never changes),
	// and each is read from the repository once. trees are the files of
	// the trees read so far (see files), by the tree's hash and path.
	// mu guards both: a folder no reader opens is read when something in
	// it is first opened, perhaps by several readers at once.
	mu    sync.Mutex
	blobs map[plumbing.Hash]*layerFile
	trees map[treeKey][]treeFile

	// unread is why the repository's history could not be read: the
	// past then comes from backups and dates, as without git; nil when it
	// was read or there is none. shallow is set when the history stops at
	// commits whose parents the clone does not hold (git clone --depth).
	unread  error
	shallow bool

	// private is what Options.Private and the history say is private
	// (see privacy), worked out when a commit is first read.
	private     *pastPrivacy
	privateOnce sync.Once
	privateErr  error
}

// pastPrivacy is how the files private now appear in the history.
type pastPrivacy struct {
	// blobs are the object ids of their versions: those private now, and
	// those a commit had at a path hidden now.
	blobs map[plumbing.Hash]bool
	// until is, for each path that held one of blobs, the index (in
	// Past.commits) of the last commit it did: up to that commit the path
	// held the file that is private now, in earlier versions too.
	until map[string]int
}

// hides reports whether the file at the workspace path p with the
// object id h is left out of commit i.
func (pp *pastPrivacy) hides(i int, p string, h plumbing.Hash) bool {
	if pp == nil {
		return false
	}
	last, ok := pp.until[p]
	return pp.blobs[h] || ok && i <= last
}

// treeKey is a tree at a workspace path ("" for the workspace's own):
// which of its folders are read depends on where it is (NeverRead).
type treeKey struct {
	hash plumbing.Hash
	dir  string
}

// Open opens the history of the workspace in the folder root, whose
// files fsys holds (root "" has no git history).
func Open(root string, fsys fs.FS, opts Options) (*Past, error) {
	p := &Past{fsys: fsys, opts: opts, blobs: map[plumbing.Hash]*layerFile{}, trees: map[treeKey][]treeFile{}}
	if root == "" {
		return p, nil
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace %q cannot be read (%v)", root, err)
	}
	repo, err := openRepo(abs)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return p, nil
	}
	if err == nil {
		p.prefix, err = repoPrefix(repo, abs)
	}
	if err == nil {
		p.commits, p.shallow, err = commits(repo)
	}
	if err != nil {
		// History degrades, never fails: a repository go-git cannot read
		// (an extension it lacks, objects missing) leaves the past to the
		// backups and dates, and the caller says why.
		p.commits, p.unread = nil, err
		return p, nil
	}
	p.repo = repo
	p.private = newPastPrivacy(opts)
	for _, c := range opts.Contents {
		h := plumbing.ComputeHash(plumbing.BlobObject, []byte(c))
		p.blobs[h] = &layerFile{size: int64(len(c)), read: func() ([]byte, error) { return []byte(c), nil }, hash: h}
	}
	return p, nil
}

// Unread says why the workspace's git history could not be read (the
// past then comes from its backups and dates); nil when it was read or
// there is none.
func (p *Past) Unread() error { return p.unread }

// Shallow reports whether the history is a shallow clone's: it begins at
// the oldest commit the clone holds, not at the repository's first.
func (p *Past) Shallow() bool { return p.shallow }

// openRepo opens the git repository holding the folder abs. A repository
// with extensions.worktreeConfig (set by git sparse-checkout) is opened
// too: go-git refuses that extension, which only says where per-worktree
// settings live, and nothing history reads depends on them.
func openRepo(abs string) (*git.Repository, error) {
	repo, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{DetectDotGit: true})
	if err == nil || !errors.Is(err, git.ErrUnsupportedExtensionRepositoryFormatVersion) && !errors.Is(err, git.ErrUnknownExtension) {
		return repo, err
	}
	top := abs
	for {
		if fi, serr := os.Stat(filepath.Join(top, ".git")); serr == nil && fi.IsDir() {
			break
		}
		up := filepath.Dir(top)
		if up == top {
			return nil, err
		}
		top = up
	}
	st := &noWorktreeConfig{filesystem.NewStorage(osfs.New(filepath.Join(top, ".git")), cache.NewObjectLRUDefault())}
	cfg, cerr := st.Config()
	if cerr != nil {
		return nil, cerr
	}
	if len(extensions(cfg)) > 0 {
		return nil, err // an extension that does change what is read
	}
	return git.Open(st, osfs.New(top))
}

// noWorktreeConfig is a repository's storage whose configuration leaves
// out extensions.worktreeConfig (see openRepo).
type noWorktreeConfig struct{ *filesystem.Storage }

// Config returns the repository's configuration less that extension.
func (s *noWorktreeConfig) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil || cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return cfg, err
	}
	sec := cfg.Raw.Section("extensions")
	for _, o := range sec.Options {
		if strings.EqualFold(o.Key, "worktreeConfig") {
			sec.RemoveOption(o.Key)
			break
		}
	}
	if len(sec.Options) == 0 {
		cfg.Raw.RemoveSection("extensions")
	}
	return cfg, nil
}

// extensions names the extensions cfg sets.
func extensions(cfg *config.Config) []string {
	if cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return nil
	}
	var out []string
	for _, o := range cfg.Raw.Section("extensions").Options {
		out = append(out, o.Key)
	}
	return out
}

// Git reports whether the workspace has a git history.
func (p *Past) Git() bool { return len(p.commits) > 0 }

// Commits are the times of the workspace's commits, oldest first.
func (p *Past) Commits() []time.Time {
	out := make([]time.Time, len(p.commits))
	for i, c := range p.commits {
		out[i] = c.Committer.When.UTC()
	}
	return out
}

// At reads the workspace as it stood at the time at: from the last
// commit at or before at, else from its backups and dates.
//
// Before the repository's first commit (a full clone's; a shallow one's
// start says nothing of when memory began) the backups and dates are
// used only when they reach back that far, a dream backup or a daily
// log of that day or earlier, and the snapshot says it is from before
// the first commit; otherwise At returns an ErrNoPast: there is no past
// to show, and inventing one from today's files would mislead.
func (p *Past) At(at time.Time) (*Snapshot, error) {
	s, err := p.fromGit(at)
	if err != nil || s != nil {
		return s, err
	}
	s, err = TakeFS(p.fsys, at, p.opts)
	if err != nil || len(p.commits) == 0 || p.shallow {
		return s, err
	}
	first := p.commits[0].Committer.When.UTC()
	if s.Source == SourceDates && !s.layer.holdsLog() {
		return nil, fmt.Errorf("%w before %s, the repository's first commit: no daily log or dream backup reaches back to %s; choose a later date",
			ErrNoPast, first.Format("2006-01-02 15:04 UTC"), at.Format("2006-01-02"))
	}
	s.BeforeGit = first
	return s, nil
}

// ErrNoPast says there is no record of memory at the time asked for.
var ErrNoPast = errors.New("there is no history")

// TakeFS reads the workspace fsys as it stood at the time at from its
// dream backups and its dates (see the package documentation).
func TakeFS(fsys fs.FS, at time.Time, opts Options) (*Snapshot, error) {
	l := newLayer(fsys, opts.Hide, 0)
	s := &Snapshot{Source: SourceDates, At: at, FS: l, layer: l}
	private := newPastPrivacy(opts)
	withheld := map[string]bool{}
	runs, err := backupRuns(fsys, at)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		used := false
		err := fs.WalkDir(fsys, r.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			orig, ok := strings.CutSuffix(strings.TrimPrefix(p, r.dir+"/"), ".bak")
			// A backup is a plain file: a symbolic link there could point
			// out of the workspace, and is never read.
			if !d.Type().IsRegular() || !ok || l.files[orig] != nil || withheld[orig] || !fs.ValidPath(orig) {
				return nil
			}
			if private != nil && len(private.blobs) > 0 {
				// A copy of a file private now, from before it was moved
				// where it is private, is as private as the file.
				data, err := fs.ReadFile(fsys, p)
				if err != nil {
					return err
				}
				if h := plumbing.ComputeHash(plumbing.BlobObject, data); private.blobs[h] && h != emptyBlob {
					// Its later copies are of the same file.
					withheld[orig] = true
					l.remove(orig)
					return nil
				}
			}
			l.put(orig, &layerFile{size: sizeOf(d), mod: r.time, read: func() ([]byte, error) { return fs.ReadFile(fsys, p) }})
			used = true
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading the backups in %s: %w", r.dir, err)
		}
		if used {
			s.Backups = append(s.Backups, path.Base(r.dir))
		}
	}
	if len(s.Backups) > 0 {
		s.Source = SourceBackups
	}
	if err := l.dropLaterLogs(at); err != nil {
		return nil, err
	}
	return s, nil
}

func sizeOf(d fs.DirEntry) int64 {
	if fi, err := d.Info(); err == nil {
		return fi.Size()
	}
	return 0
}

// dropLaterLogs leaves out the daily logs dated after at: they were not
// written yet.
func (l *layerFS) dropLaterLogs(at time.Time) error {
	for _, dir := range logDirs {
		entries, err := fs.ReadDir(l, dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := dir + "/" + e.Name()
			if date, _, ok := workspace.DailyLogPath(p); ok && !e.IsDir() && date.After(at) {
				l.remove(p)
			}
		}
	}
	return nil
}

// holdsLog reports whether the layer holds a daily log (by its dated
// name): after dropLaterLogs, one of the snapshot's day or before.
func (l *layerFS) holdsLog() bool {
	for _, dir := range logDirs {
		entries, _ := fs.ReadDir(l, dir)
		for _, e := range entries {
			if _, _, ok := workspace.DailyLogPath(dir + "/" + e.Name()); ok && !e.IsDir() {
				return true
			}
		}
	}
	return false
}

// logDirs are the folders daily logs are kept in.
var logDirs = []string{"memory", "memory/daily"}

type backupRun struct {
	dir  string
	time time.Time
}

// backupRuns lists the backup runs made after at, oldest first: each
// holds files as they were before that run changed them, so the first
// later run that has a file has it as it stood at at.
func backupRuns(fsys fs.FS, at time.Time) ([]backupRun, error) {
	entries, err := fs.ReadDir(fsys, BackupRoot)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", BackupRoot, err)
	}
	var runs []backupRun
	for _, e := range entries {
		if !e.IsDir() || len(e.Name()) < len("20060102-1504") {
			continue
		}
		t, err := time.Parse("20060102-1504", e.Name()[:len("20060102-1504")])
		if err != nil || !t.After(at) {
			continue
		}
		runs = append(runs, backupRun{dir: BackupRoot + "/" + e.Name(), time: t})
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].time.Before(runs[j].time) })
	return runs, nil
}

// fromGit reads the workspace from the last commit at or before at; nil
// when there is no such commit.
func (p *Past) fromGit(at time.Time) (*Snapshot, error) {
	i := p.commitIndex(at)
	if i < 0 {
		return nil, nil
	}
	c := p.commits[i]
	tree, err := p.tree(c)
	if err != nil || tree == nil {
		return nil, err
	}
	if err := p.privacy(); err != nil {
		return nil, err
	}
	l, err := p.layer(tree, "", i, c.Committer.When.UTC())
	if err != nil {
		return nil, fmt.Errorf("reading commit %s: %w", shortHash(c.Hash.String()), err)
	}
	return &Snapshot{Source: SourceGit, At: at, Commit: c.Hash.String(), CommitTime: c.Committer.When, FS: l, layer: l}, nil
}

// tree is the workspace's folder in the commit c; nil when the
// workspace did not exist yet.
func (p *Past) tree(c *object.Commit) (*object.Tree, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading commit %s: %w", shortHash(c.Hash.String()), err)
	}
	if p.prefix != "" {
		if tree, err = tree.Tree(p.prefix); errors.Is(err, object.ErrDirectoryNotFound) {
			return nil, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading %s in commit %s: %w", p.prefix, shortHash(c.Hash.String()), err)
		}
	}
	return tree, nil
}

// newPastPrivacy is the privacy of Options.Private, before the history
// is read; nil when nothing is private (then no commit needs reading).
func newPastPrivacy(opts Options) *pastPrivacy {
	if len(opts.Private) == 0 && opts.Hide == nil {
		return nil
	}
	pp := &pastPrivacy{blobs: map[plumbing.Hash]bool{}, until: map[string]int{}}
	for _, id := range opts.Private {
		pp.blobs[plumbing.NewHash(id)] = true
	}
	return pp
}

// emptyBlob is the object id of an empty file: it holds nothing to keep
// private, and would hide every empty file of the history.
var emptyBlob = plumbing.ComputeHash(plumbing.BlobObject, nil)

// privacy works out, once, how the files private now appear in the
// history: the versions a commit had at a path private now join those
// private now, and each path that held one of them is hidden up to the
// last commit it did (so a note moved or renamed into a private folder,
// committed or not, is absent from its old path, in its earlier versions
// too). A version published now at a public path stays visible: hiding
// it in the past would keep nothing private.
func (p *Past) privacy() error {
	p.privateOnce.Do(func() {
		pp := p.private
		if pp == nil {
			return
		}
		trees := make([][]treeFile, len(p.commits))
		for i, c := range p.commits {
			tree, err := p.tree(c)
			if err != nil {
				p.privateErr = err
				return
			}
			if tree == nil {
				continue
			}
			p.mu.Lock()
			trees[i], err = p.files(tree, "")
			p.mu.Unlock()
			if err != nil {
				p.privateErr = fmt.Errorf("reading commit %s: %w", shortHash(c.Hash.String()), err)
				return
			}
			for _, f := range trees[i] {
				if f.f != nil && p.opts.Hide != nil && p.opts.Hide(f.path) {
					pp.blobs[f.f.hash] = true
				}
			}
		}
		delete(pp.blobs, emptyBlob)
		for _, c := range p.opts.Contents {
			delete(pp.blobs, plumbing.ComputeHash(plumbing.BlobObject, []byte(c)))
		}
		for i, files := range trees {
			for _, f := range files {
				if f.f != nil && pp.blobs[f.f.hash] {
					pp.until[f.path] = i
				}
			}
		}
	})
	return p.privateErr
}

// layer is the layer of the files of tree, the folder dir of the
// workspace ("" for the whole) in the commit p.commits[i], dated mod. Its
// folders no reader opens (workspace.NeverRead: the dreams' backups, an
// Obsidian vault's settings) are listed, and read only when something in
// them is opened: half the trees of a history of dreams are their
// backups. What is private now is left out (pastPrivacy.hides).
func (p *Past) layer(tree *object.Tree, dir string, i int, mod time.Time) (*layerFS, error) {
	p.mu.Lock()
	files, err := p.files(tree, dir)
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	hide := p.opts.Hide
	if dir != "" && hide != nil {
		hide = func(rel string) bool { return p.opts.Hide(dir + "/" + rel) }
	}
	l := newLayer(nil, hide, len(files))
	for _, f := range files {
		if f.f != nil {
			if !p.private.hides(i, path.Join(dir, f.path), f.f.hash) {
				l.put(f.path, &layerFile{size: f.f.size, mod: mod, read: f.f.read, hash: f.f.hash})
			}
			continue
		}
		h, full := f.tree, path.Join(dir, f.path)
		if l.unread == nil {
			l.unread = map[string]*unreadDir{}
		}
		l.unread[f.path] = &unreadDir{hash: h, load: sync.OnceValues(func() (*layerFS, error) {
			t, err := p.repo.TreeObject(h)
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", full, err)
			}
			return p.layer(t, full, i, mod)
		})}
	}
	return l, nil
}

// treeFile is a file of a tree, by its path in the tree; or, with f nil,
// a folder no reader opens, by its tree's hash.
type treeFile struct {
	path string
	f    *layerFile
	tree plumbing.Hash
}

// files lists the regular files of tree, the folder dir of the
// workspace, and of its subtrees, each tree read once by its hash and
// path: most folders are the same from one commit to the next. A folder
// the workspace reader never opens is listed, not read. Symbolic links
// and submodules are not the workspace's own text. p.mu is held.
func (p *Past) files(tree *object.Tree, dir string) ([]treeFile, error) {
	if fs, ok := p.trees[treeKey{tree.Hash, dir}]; ok {
		return fs, nil
	}
	var out []treeFile
	for _, e := range tree.Entries {
		switch e.Mode {
		case filemode.Dir:
			at := path.Join(dir, e.Name)
			if workspace.NeverRead(at) {
				out = append(out, treeFile{path: e.Name, tree: e.Hash})
				continue
			}
			sub, ok := p.trees[treeKey{e.Hash, at}]
			if !ok {
				// By its hash: by its name, go-git would index the parent's
				// entries first.
				t, err := p.repo.TreeObject(e.Hash)
				if err != nil {
					return nil, err
				}
				if sub, err = p.files(t, at); err != nil {
					return nil, err
				}
			}
			for _, f := range sub {
				out = append(out, treeFile{path: e.Name + "/" + f.path, f: f.f, tree: f.tree})
			}
		case filemode.Regular, filemode.Executable:
			out = append(out, treeFile{path: e.Name, f: p.blob(e.Hash)})
		}
	}
	p.trees[treeKey{tree.Hash, dir}] = out
	return out, nil
}

// blob is the file whose content hash is h, kept by that hash and read
// from the repository once, when first opened.
func (p *Past) blob(h plumbing.Hash) *layerFile {
	if f := p.blobs[h]; f != nil {
		return f
	}
	read := sync.OnceValues(func() ([]byte, error) {
		b, err := p.repo.BlobObject(h)
		if err != nil {
			return nil, err
		}
		r, err := b.Reader()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	})
	f := &layerFile{size: -1, read: read, hash: h}
	p.blobs[h] = f
	return f
}

// repoPrefix is the workspace's folder inside the repository's work
// tree, "" when it is the work tree itself.
func repoPrefix(repo *git.Repository, abs string) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", fmt.Errorf("reading the git repository of %s: %w", abs, err)
	}
	top, err := filepath.EvalSymlinks(wt.Filesystem.Root())
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == "." {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// commits lists the commits reachable from HEAD by committer time, and
// among equal times the smaller hash last; none when there is no commit
// yet. A shallow clone's history stops where the clone does: a parent it
// does not hold is left out and shallow is set.
func commits(repo *git.Repository) (out []*object.Commit, shallow bool, err error) {
	head, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, false, nil // no commit yet
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the git HEAD: %w", err)
	}
	seen := map[plumbing.Hash]bool{}
	todo := []plumbing.Hash{head.Hash()}
	for len(todo) > 0 {
		h := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[h] {
			continue
		}
		seen[h] = true
		c, err := repo.CommitObject(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) && h != head.Hash() {
			shallow = true
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("reading the git log: %w", err)
		}
		out = append(out, c)
		todo = append(todo, c.ParentHashes...)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Committer.When, out[j].Committer.When
		if !a.Equal(b) {
			return a.Before(b)
		}
		return out[i].Hash.String() > out[j].Hash.String()
	})
	return out, shallow, nil
}

// commitIndex is the index of the commit with the latest committer time
// at or before at (ties: the smaller hash, so the answer never depends
// on the walk's order); -1 when there is none.
func (p *Past) commitIndex(at time.Time) int {
	return sort.Search(len(p.commits), func(i int) bool { return p.commits[i].Committer.When.After(at) }) - 1
}

// ChangedSince lists the files added, changed or removed between the
// snapshot prev and s, sorted, and each folder no reader opens that
// changed (see Past.layer) as itself; ok is false when they cannot be
// compared by content hash (either is not from git, or was edited).
func (s *Snapshot) ChangedSince(prev *Snapshot) (paths []string, ok bool) {
	if prev == nil || s.Source != SourceGit || prev.Source != SourceGit || s.layer.edited || prev.layer.edited {
		return nil, false
	}
	paths = changed(paths, s.layer, prev.layer, s.layer.files, prev.layer.files, func(f *layerFile) plumbing.Hash { return f.hash })
	// A folder no reader opens is named when anything in it changed.
	paths = changed(paths, s.layer, prev.layer, s.layer.unread, prev.layer.unread, func(u *unreadDir) plumbing.Hash { return u.hash })
	sort.Strings(paths)
	return paths, true
}

// changed appends to paths the keys of cur that prev does not have or
// has with another hash, then those of prev that cur does not have,
// leaving out what the layer of each (l, of cur; lp, of prev) hides.
func changed[V any](paths []string, l, lp *layerFS, cur, prev map[string]V, hash func(V) plumbing.Hash) []string {
	for p, v := range cur {
		if o, ok := prev[p]; (!ok || hash(o) != hash(v)) && !l.hidden(p) {
			paths = append(paths, p)
		}
	}
	for p := range prev {
		if _, ok := cur[p]; !ok && !lp.hidden(p) {
			paths = append(paths, p)
		}
	}
	return paths
}

// Edit returns the snapshot with the files named in edits rewritten by
// their functions (an edit that fails leaves its file as it was): for the
// sources that cannot tell on their own, the entries of claims made after
// the snapshot's time are cut this way.
func (s *Snapshot) Edit(edits map[string]func([]byte) ([]byte, error)) *Snapshot {
	l := s.layer.clone()
	l.edited = true
	for p, edit := range edits {
		data, err := fs.ReadFile(s.FS, p)
		if err != nil {
			continue // a file that cannot be read has no entries to cut
		}
		kept, err := edit(data)
		if err != nil {
			continue
		}
		mod := time.Time{}
		if fi, err := fs.Stat(s.FS, p); err == nil {
			mod = fi.ModTime()
		}
		l.put(p, &layerFile{size: int64(len(kept)), mod: mod, read: func() ([]byte, error) { return kept, nil }})
	}
	out := *s
	out.FS, out.layer = l, l
	return &out
}

// OnDisk is the file system Take reads a workspace folder through when
// it has no git history.
func OnDisk(root string) (fs.FS, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	return os.DirFS(real), nil
}

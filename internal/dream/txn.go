package dream

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/atomicfile"
)

// Every change a dream (or a recall, supersede or decay) makes is one
// transaction; the package documentation ("Crash safety") gives the
// protocol and what recovery may touch.

const (
	cacheDir    = ".dreamwiki"
	journalPath = cacheDir + "/journal.json"
	stagingDir  = cacheDir + "/staging"
	// BackupRoot is where backups go, one folder per run.
	BackupRoot = ".backup/memory-dreams"
)

// fileWrite is one file a transaction writes.
type fileWrite struct {
	Path string // workspace-relative, forward slashes
	Data []byte
	// Before is the hex SHA-256 of the bytes the file held when the change
	// was planned; "" for a file that did not exist.
	Before string
	// Backup asks for a copy of the old bytes in the backup folder before
	// anything is written.
	Backup bool
}

// journal is what .dreamwiki/journal.json holds while files are renamed.
type journal struct {
	Version int       `json:"version"`
	Run     string    `json:"run"`
	Started time.Time `json:"started"`
	Staging string    `json:"staging"`
	// Keep is the folder a rollback keeps the run's version of a changed
	// file in.
	Keep  string         `json:"keep,omitempty"`
	Files []journalEntry `json:"files"`
}

type journalEntry struct {
	Path   string `json:"path"`
	Before string `json:"before,omitempty"` // "" for a new file
	After  string `json:"after"`
	// Backup holds the old bytes: in the backup folder, or in staging for
	// files that get no backup (the state files of a recall).
	Backup string `json:"backup,omitempty"`
	Staged string `json:"staged"` // the new bytes, renamed into place
	// Copy is the new bytes again: once Staged is renamed, it is the run's
	// version of a file someone edits before the run ends.
	Copy string `json:"copy,omitempty"`
}

// txn writes a set of files atomically as a whole.
type txn struct {
	root   string // absolute workspace root
	run    string // "20261121-0700", unique among the backups
	now    time.Time
	writes []fileWrite
	// lock is the workspace lock the transaction runs under: it is checked
	// before the commit point and before every rename.
	lock *lock
	// hook, when set, is called at each step ("backup", "stage",
	// "journal", "recheck:<path>" between a file's last hash and its
	// rename, "rename:<path>", "done"): tests use it to simulate a crash
	// or an edit.
	hook func(step string)
}

// ChangedError reports a file that changed between planning and writing.
type ChangedError struct {
	Path string
	// Kept is where the dream's version of the file went, when the change
	// came while the dream was writing ("" when it came before).
	Kept string
	// Restored lists the files of the run already written and put back.
	Restored []string
}

func (e *ChangedError) Error() string {
	if e.Kept == "" && len(e.Restored) == 0 {
		return fmt.Sprintf("%s changed since the plan was made; nothing was written, plan again", e.Path)
	}
	s := fmt.Sprintf("%s changed since the plan was made, while the dream was writing: it was left as it is", e.Path)
	if e.Kept != "" {
		s += " (the dream's version is " + e.Kept + ")"
	}
	return s + "; " + putBackNote(len(e.Restored)) + "; dream again"
}

// putBackNote says how many files a rollback put back.
func putBackNote(n int) string {
	switch n {
	case 0:
		return "nothing else had been written"
	case 1:
		return "the one file already written was put back"
	}
	return fmt.Sprintf("the %d files already written were put back", n)
}

// commit runs the transaction and returns the backup folder
// (workspace-relative, "" when nothing needed a backup).
func (t *txn) commit() (backupDir string, err error) {
	if len(t.writes) == 0 {
		return "", nil
	}
	step := func(s string) {
		if t.hook != nil {
			t.hook(s)
		}
	}
	// 2. Nothing changed since the plan (1, the lock, is held by the caller).
	for _, w := range t.writes {
		if err := checkInside(w.Path); err != nil {
			return "", err
		}
		cur, err := hashFile(t.abs(w.Path))
		if err != nil {
			return "", err
		}
		if cur != w.Before {
			return "", &ChangedError{Path: w.Path}
		}
	}

	// 3. Backups: staged, then renamed into the backup folder, so that a
	// backup is whole or absent.
	if slices.ContainsFunc(t.writes, func(w fileWrite) bool { return w.Backup && w.Before != "" }) {
		if backupDir, err = t.backupFolder(); err != nil {
			return "", fmt.Errorf("backup failed (%v); nothing was written", err)
		}
	}
	j := journal{Version: 2, Run: t.run, Started: t.now.UTC(), Staging: stagingDir + "/" + t.run, Keep: backupDir}
	if j.Keep == "" {
		// Without a backup folder of its own (a recall's state files), a
		// run keeps changed files' versions in a folder no run shares.
		var tok [4]byte
		rand.Read(tok[:])
		j.Keep = fmt.Sprintf("%s/%s-%x", BackupRoot, t.run, tok)
	}
	if err := os.RemoveAll(t.abs(j.Staging)); err != nil {
		return backupDir, err
	}
	fail := func(format string, args ...any) (string, error) {
		os.RemoveAll(t.abs(j.Staging))
		return backupDir, fmt.Errorf(format+"; nothing was written", args...)
	}
	for _, w := range t.writes {
		e := journalEntry{Path: w.Path, Before: w.Before, After: hashBytes(w.Data),
			Staged: j.Staging + "/new/" + w.Path, Copy: j.Staging + "/copy/" + w.Path}
		if w.Before != "" {
			if err := t.saveOld(&e, w, j.Staging, backupDir); err != nil {
				var ce *ChangedError
				if errors.As(err, &ce) {
					os.RemoveAll(t.abs(j.Staging))
					return backupDir, err
				}
				return fail("backup of %s failed (%v)", w.Path, err)
			}
		}
		j.Files = append(j.Files, e)
	}
	step("backup")

	// 4. Stage the new bytes, twice.
	for i, w := range t.writes {
		for _, p := range []string{j.Files[i].Staged, j.Files[i].Copy} {
			if err := writeSynced(t.abs(p), w.Data); err != nil {
				return fail("%s could not be staged (%v)", w.Path, err)
			}
		}
	}
	step("stage")

	// 5. The journal: the commit point. From here on a crash is rolled
	// back.
	if err := t.lock.check(); err != nil {
		return backupDir, err
	}
	jb, _ := json.MarshalIndent(j, "", "  ")
	if err := writeSynced(t.abs(j.Staging+"/journal.json"), append(jb, '\n')); err != nil {
		return fail("the journal could not be written (%v)", err)
	}
	if err := os.Rename(t.abs(j.Staging+"/journal.json"), t.abs(journalPath)); err != nil {
		return fail("the journal could not be written (%v)", err)
	}
	syncDir(t.abs(cacheDir))
	step("journal")

	// 6. Rename into place, each file checked again first, and checked
	// once more as it is replaced (an editor does not take the lock).
	replaced := map[string]string{} // path -> where its replaced bytes are
	for _, e := range j.Files {
		if err := t.lock.check(); err != nil {
			return backupDir, err // taken over: whoever holds the lock owns the journal now
		}
		cur, err := hashFile(t.abs(e.Path))
		if err != nil {
			return backupDir, t.abort(j, err)
		}
		if cur != e.Before {
			return backupDir, t.abort(j, &ChangedError{Path: e.Path})
		}
		if err := os.MkdirAll(filepath.Dir(t.abs(e.Path)), 0o755); err != nil {
			return backupDir, t.abort(j, err)
		}
		step("recheck:" + e.Path)
		r, err := replaceChecked(t.abs(e.Staged), t.abs(e.Path), e.Before)
		if errors.Is(err, errReplacedChanged) {
			return backupDir, t.abort(j, &ChangedError{Path: e.Path})
		}
		if err != nil {
			return backupDir, t.abort(j, err)
		}
		replaced[e.Path] = r
		step("rename:" + e.Path)
	}
	syncDirs(t.root, j.Files)

	// 7. Done, unless the journal is no longer this run's to remove.
	if err := t.lock.check(); err != nil {
		return backupDir, err
	}
	late, err := t.keepLateEdits(j, replaced)
	if err != nil {
		return backupDir, err
	}
	os.Remove(t.abs(journalPath))
	os.RemoveAll(t.abs(j.Staging))
	os.Remove(t.abs(stagingDir)) // when no other run's folder is in it
	step("done")
	if len(late) > 0 {
		return backupDir, fmt.Errorf("the dream was written, but %s; copy the edits back by hand", strings.Join(late, "; "))
	}
	return backupDir, nil
}

// keepLateEdits looks at the bytes each rename replaced once more, before
// staging is removed: an editor that opened a file before the dream
// replaced it writes into the replaced file, and such an edit is moved to
// the journal's keep folder and described.
func (t *txn) keepLateEdits(j journal, replaced map[string]string) ([]string, error) {
	var late []string
	for _, e := range j.Files {
		r := replaced[e.Path]
		if r == "" {
			continue
		}
		if h, _ := hashFile(r); h == e.Before {
			continue
		}
		kept := j.Keep + "/" + e.Path + ".edited"
		if err := os.MkdirAll(filepath.Dir(t.abs(kept)), 0o755); err != nil {
			return nil, err
		}
		if err := moveInto(r, t.abs(kept)); err != nil {
			return nil, fmt.Errorf("%s was edited while the dream replaced it, and the edit could not be kept (%v); it is in %s", e.Path, err, r)
		}
		late = append(late, fmt.Sprintf("%s was edited while the dream replaced it: the edit went to the file replaced, kept as %s", e.Path, kept))
	}
	return late, nil
}

// saveOld keeps a file's old bytes where the journal says: in the backup
// folder when the write asks for a backup, else in staging.
func (t *txn) saveOld(e *journalEntry, w fileWrite, staging, backupDir string) error {
	data, err := os.ReadFile(t.abs(w.Path))
	if err != nil {
		return err
	}
	if hashBytes(data) != w.Before {
		return &ChangedError{Path: w.Path}
	}
	if !w.Backup || backupDir == "" {
		e.Backup = staging + "/old/" + w.Path
		return writeSynced(t.abs(e.Backup), data)
	}
	e.Backup = backupDir + "/" + w.Path + ".bak"
	tmp := staging + "/bak/" + w.Path
	if err := writeSynced(t.abs(tmp), data); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.abs(e.Backup)), 0o755); err != nil {
		return err
	}
	return os.Rename(t.abs(tmp), t.abs(e.Backup))
}

// abort rolls back after a failed or refused rename and says so. A
// transaction whose lock was taken over rolls back nothing.
func (t *txn) abort(j journal, cause error) error {
	if err := t.lock.check(); err != nil {
		return err
	}
	rec, err := rollback(t.root, j)
	if err != nil {
		return fmt.Errorf("writing failed (%v) and so did putting the old files back (%v); the journal %s lists what to restore from %s", cause, err, journalPath, BackupRoot)
	}
	var ce *ChangedError
	if errors.As(cause, &ce) {
		ce.Restored = rec.Restored
		for _, k := range rec.Kept {
			if k.Path == ce.Path {
				ce.Kept = k.Dream
			}
		}
		return ce
	}
	msg := fmt.Sprintf("writing failed (%v); %s", cause, putBackNote(len(rec.Restored)))
	for _, k := range rec.Kept {
		msg += "; " + k.String()
	}
	return errors.New(msg)
}

// backupFolder creates .backup/memory-dreams/<run>/, adding "-2", "-3"...
// when a run in the same minute already made one.
func (t *txn) backupFolder() (string, error) {
	for n := 1; n < 1000; n++ {
		name := t.run
		if n > 1 {
			name = fmt.Sprintf("%s-%d", t.run, n)
		}
		dir := BackupRoot + "/" + name
		if err := os.MkdirAll(t.abs(BackupRoot), 0o755); err != nil {
			return "", err
		}
		err := os.Mkdir(t.abs(dir), 0o755)
		if err == nil {
			t.run = name
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", errors.New("too many backup folders for one minute")
}

func (t *txn) abs(rel string) string { return filepath.Join(t.root, filepath.FromSlash(rel)) }

// Recovery is what Recover (or a rollback) did.
type Recovery struct {
	Run string `json:"run"`
	// Restored lists the files put back as they were before the run.
	Restored []string `json:"restored"`
	// Kept lists the files left as they are because someone changed them
	// after the run wrote them (or before it reached them).
	Kept []Conflict `json:"kept,omitempty"`
}

// Conflict is a file a rollback left alone because it no longer held the
// bytes the run wrote: someone's edit is in it.
type Conflict struct {
	Path string `json:"path"`
	// Dream is the run's version of the file, kept in the backup folder
	// ("" when the journal had no copy of it).
	Dream string `json:"dream,omitempty"`
	// Before is the file as it was before the run ("" for a file the run
	// created).
	Before string `json:"before,omitempty"`
}

func (c Conflict) String() string {
	s := c.Path + " changed after the dream read it and was left as it is"
	if c.Dream != "" {
		s += "; the dream's version is " + c.Dream
	}
	if c.Before != "" {
		s += "; the version before the dream is " + c.Before
	}
	return s
}

// Recover finishes what an interrupted transaction left: when a journal is
// present, it rolls the run back (see the package documentation: only
// files that still hold the run's bytes are put back; changed ones are
// left alone and reported), then the journal and the staging folder go. It
// returns nil when there was nothing to recover. Stray staging folders of
// runs that died before their journal are removed too. The caller holds
// the lock.
func Recover(root string) (*Recovery, error) {
	jpath := filepath.Join(root, filepath.FromSlash(journalPath))
	b, err := os.ReadFile(jpath)
	if errors.Is(err, fs.ErrNotExist) {
		os.RemoveAll(filepath.Join(root, filepath.FromSlash(stagingDir)))
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("%s is not a valid journal (%v); restore the files from %s by hand and delete it", journalPath, err, BackupRoot)
	}
	return rollback(root, j)
}

// Pending reports whether an interrupted transaction waits to be recovered.
func Pending(root string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(journalPath)))
	return err == nil
}

// rollback undoes a run from its journal. A file is put back only while it
// holds exactly the bytes the run wrote; a file holding the old bytes is
// done with; any other file is someone's edit: it is left as it is and
// the run's version kept beside its backup.
func rollback(root string, j journal) (*Recovery, error) {
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	rec := &Recovery{Run: j.Run, Restored: []string{}}
	for _, e := range j.Files {
		for _, p := range []string{e.Path, e.Backup, e.Staged, e.Copy, j.Keep} {
			if err := checkInside(p); p != "" && err != nil {
				return rec, err
			}
		}
		cur, err := hashFile(abs(e.Path))
		if err != nil {
			return rec, err
		}
		switch cur {
		case e.Before:
			continue // never renamed, or already put back
		case e.After:
			done, err := putBack(root, j, e)
			if err != nil {
				return rec, err
			}
			if done {
				rec.Restored = append(rec.Restored, e.Path)
				continue
			}
		}
		c, err := keepVersions(root, j, e)
		if err != nil {
			return rec, err
		}
		rec.Kept = append(rec.Kept, c)
	}
	if err := os.Remove(abs(journalPath)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rec, err
	}
	os.RemoveAll(abs(stagingDir))
	slices.Sort(rec.Restored)
	return rec, nil
}

// putBack returns a file holding the run's bytes to its old bytes (or
// removes it, when the run created it). The file is hashed again right
// before it is replaced: false means it changed meanwhile and was left
// alone.
func putBack(root string, j journal, e journalEntry) (bool, error) {
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	if e.Before == "" {
		if cur, err := hashFile(abs(e.Path)); err != nil || cur != e.After {
			return false, err
		}
		return true, os.Remove(abs(e.Path))
	}
	if e.Backup == "" {
		return false, fmt.Errorf("%s has no backup to restore", e.Path)
	}
	data, err := os.ReadFile(abs(e.Backup))
	if err != nil {
		return false, fmt.Errorf("the backup of %s cannot be read (%v); restore it by hand, then delete %s", e.Path, err, journalPath)
	}
	if hashBytes(data) != e.Before {
		return false, fmt.Errorf("the backup %s does not hold the old bytes of %s; restore it by hand, then delete %s", e.Backup, e.Path, journalPath)
	}
	tmp := j.Staging + "/restore/" + e.Path
	if err := writeSynced(abs(tmp), data); err != nil {
		return false, err
	}
	if cur, err := hashFile(abs(e.Path)); err != nil || cur != e.After {
		return false, err
	}
	return true, moveInto(abs(tmp), abs(e.Path))
}

// keepVersions keeps the run's version of a changed file (and its old
// bytes, when only staging had them) in the journal's keep folder, and
// says where. Running it again after a crash finds them there.
func keepVersions(root string, j journal, e journalEntry) (Conflict, error) {
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	c := Conflict{Path: e.Path}
	keep := func(dst string, hash string, srcs ...string) (string, error) {
		if h, _ := hashFile(abs(dst)); h != "" && h == hash {
			return dst, nil
		}
		for _, src := range srcs {
			if src == "" {
				continue
			}
			if h, _ := hashFile(abs(src)); h != hash {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(abs(dst)), 0o755); err != nil {
				return "", err
			}
			return dst, moveInto(abs(src), abs(dst))
		}
		return "", nil
	}
	var err error
	if j.Keep == "" {
		return c, nil // a journal of an older version: no copy to keep
	}
	if c.Dream, err = keep(j.Keep+"/"+e.Path+".dream", e.After, e.Staged, e.Copy); err != nil {
		return c, err
	}
	switch {
	case e.Before == "":
	case strings.HasPrefix(e.Backup, BackupRoot+"/"):
		c.Before = e.Backup
	default:
		c.Before, err = keep(j.Keep+"/"+e.Path+".bak", e.Before, e.Backup)
	}
	return c, err
}

// checkInside refuses paths that could leave the workspace.
func checkInside(rel string) error {
	c := path.Clean(rel)
	if rel == "" || path.IsAbs(rel) || c == ".." || strings.HasPrefix(c, "../") || strings.Contains(rel, "\\") {
		return fmt.Errorf("refusing to write %q: outside the workspace", rel)
	}
	return nil
}

// hashFile is the hex SHA-256 of a file's bytes, "" when it does not exist.
func hashFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return hashBytes(b), nil
}

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writeSynced creates p (and its folders) with data, synced to disk.
func writeSynced(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeAtomic writes p through a temporary file in the same folder and a
// rename, so a reader sees the old bytes or the new, never a mix.
func writeAtomic(p string, data []byte) error { return atomicfile.Write(p, data) }

// moveInto renames a staged file over its target. When the two are on
// different file systems (a memory/ folder mounted elsewhere), it copies
// into a temporary file beside the target and renames that instead.
func moveInto(staged, target string) error {
	err := os.Rename(staged, target)
	var le *os.LinkError
	if err != nil && errors.As(err, &le) && errors.Is(le.Err, syscall.EXDEV) {
		data, rerr := os.ReadFile(staged)
		if rerr != nil {
			return rerr
		}
		if err := writeAtomic(target, data); err != nil {
			return err
		}
		return os.Remove(staged)
	}
	return err
}

// syncDirs syncs the folders renames happened in, so the renames survive a
// power cut.
func syncDirs(root string, files []journalEntry) {
	seen := map[string]bool{}
	for _, e := range files {
		d := filepath.Dir(filepath.Join(root, filepath.FromSlash(e.Path)))
		if !seen[d] {
			seen[d] = true
			syncDir(d)
		}
	}
}

// syncDir syncs a folder (best effort: not every platform can).
func syncDir(d string) {
	if f, err := os.Open(d); err == nil {
		f.Sync()
		f.Close()
	}
}

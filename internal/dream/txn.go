package dream

import (
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
)

// Every change a dream (or a recall, supersede or decay) makes is one
// transaction, written so that a crash at any instant leaves the workspace
// either as it was or recoverable to it:
//
//  1. check that every file still has the bytes the plan was made from;
//  2. copy every existing file it will change to
//     .backup/memory-dreams/YYYYMMDD-HHMM/<path>.bak (a failed backup
//     cancels everything: nothing has been written yet);
//  3. write every new file into .dreamwiki/staging/<run>/ and sync it;
//  4. write the journal .dreamwiki/journal.json: the commit point;
//  5. rename the staged files into place, one by one;
//  6. remove the journal and the staging folder.
//
// A crash before 4 leaves the workspace untouched (staging lives in the
// cache folder, which nothing reads). A crash during 5 leaves a journal:
// the next transaction (or Recover) puts back every file from its backup,
// and removes the files the run created, before doing anything else.

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
	// Backup asks for a copy of the old bytes before anything is written.
	Backup bool
}

// journal is what .dreamwiki/journal.json holds while files are renamed.
type journal struct {
	Version int            `json:"version"`
	Run     string         `json:"run"`
	Started time.Time      `json:"started"`
	Staging string         `json:"staging"`
	Files   []journalEntry `json:"files"`
}

type journalEntry struct {
	Path   string `json:"path"`
	Before string `json:"before,omitempty"` // "" for a new file
	After  string `json:"after"`
	Backup string `json:"backup,omitempty"`
	Staged string `json:"staged"`
}

// txn writes a set of files atomically as a whole.
type txn struct {
	root   string // absolute workspace root
	run    string // "20261121-0700", unique among the backups
	now    time.Time
	writes []fileWrite
	// hook, when set, is called at each step ("backup", "stage",
	// "journal", "rename:<path>", "done"): tests use it to simulate a crash.
	hook func(step string)
}

// ChangedError reports a file that changed between planning and writing.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed since the plan was made; nothing was written, plan again", e.Path)
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

	// 2. Backups.
	var needBackup bool
	for _, w := range t.writes {
		needBackup = needBackup || w.Backup && w.Before != ""
	}
	if needBackup {
		if backupDir, err = t.backupFolder(); err != nil {
			return "", fmt.Errorf("backup failed (%v); nothing was written", err)
		}
	}
	j := journal{Version: 1, Run: t.run, Started: t.now.UTC(), Staging: stagingDir + "/" + t.run}
	for _, w := range t.writes {
		e := journalEntry{Path: w.Path, Before: w.Before, After: hashBytes(w.Data), Staged: j.Staging + "/" + w.Path}
		if w.Before != "" && backupDir != "" {
			e.Backup = backupDir + "/" + w.Path + ".bak"
			if w.Backup {
				if err := copyFile(t.abs(w.Path), t.abs(e.Backup)); err != nil {
					return backupDir, fmt.Errorf("backup of %s failed (%v); nothing was written", w.Path, err)
				}
			} else {
				e.Backup = ""
			}
		}
		j.Files = append(j.Files, e)
	}
	step("backup")

	// 3. Stage.
	if err := os.RemoveAll(t.abs(j.Staging)); err != nil {
		return backupDir, err
	}
	for i, w := range t.writes {
		if err := writeSynced(t.abs(j.Files[i].Staged), w.Data); err != nil {
			os.RemoveAll(t.abs(j.Staging))
			return backupDir, fmt.Errorf("%s could not be staged (%v); nothing was written", w.Path, err)
		}
	}
	step("stage")

	// 4. Journal: from here on a crash is rolled back from the backups. A
	// file without a backup (state files of a recall) is kept as a second
	// staged copy of its old bytes so it can be put back too.
	for i, w := range t.writes {
		if j.Files[i].Before != "" && j.Files[i].Backup == "" {
			old := j.Staging + "/.old/" + w.Path
			if err := copyFile(t.abs(w.Path), t.abs(old)); err != nil {
				os.RemoveAll(t.abs(j.Staging))
				return backupDir, fmt.Errorf("%s could not be staged (%v); nothing was written", w.Path, err)
			}
			j.Files[i].Backup = old
		}
	}
	jb, _ := json.MarshalIndent(j, "", "  ")
	if err := writeAtomic(t.abs(journalPath), append(jb, '\n')); err != nil {
		os.RemoveAll(t.abs(j.Staging))
		return backupDir, fmt.Errorf("the journal could not be written (%v); nothing was written", err)
	}
	step("journal")

	// 5. Rename into place.
	for _, e := range j.Files {
		if err := os.MkdirAll(filepath.Dir(t.abs(e.Path)), 0o755); err != nil {
			return backupDir, t.abort(j, err)
		}
		if err := moveInto(t.abs(e.Staged), t.abs(e.Path)); err != nil {
			return backupDir, t.abort(j, err)
		}
		step("rename:" + e.Path)
	}
	syncDirs(t.root, j.Files)

	// 6. Done.
	os.Remove(t.abs(journalPath))
	os.RemoveAll(t.abs(j.Staging))
	step("done")
	return backupDir, nil
}

// abort rolls back after a failed rename and says so.
func (t *txn) abort(j journal, cause error) error {
	restored, err := rollback(t.root, j)
	if err != nil {
		return fmt.Errorf("writing failed (%v) and so did putting the old files back (%v); the journal %s lists what to restore from %s", cause, err, journalPath, BackupRoot)
	}
	return fmt.Errorf("writing failed (%v); the %d files already written were put back", cause, len(restored))
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

// Recovery is what Recover did.
type Recovery struct {
	Run      string   `json:"run"`
	Restored []string `json:"restored"`
}

// Recover finishes what an interrupted transaction left: when a journal is
// present, every file it lists is put back from its backup (or removed, if
// the run created it), then the journal and the staging folder go. It
// returns nil when there was nothing to recover. Stray staging folders of
// runs that died before their journal are removed too.
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
	restored, err := rollback(root, j)
	if err != nil {
		return nil, err
	}
	return &Recovery{Run: j.Run, Restored: restored}, nil
}

// Pending reports whether an interrupted transaction waits to be recovered.
func Pending(root string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(journalPath)))
	return err == nil
}

// rollback puts every journal file back as it was before the run.
func rollback(root string, j journal) ([]string, error) {
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	var restored []string
	for _, e := range j.Files {
		if err := checkInside(e.Path); err != nil {
			return restored, err
		}
		cur, err := hashFile(abs(e.Path))
		if err != nil {
			return restored, err
		}
		switch {
		case cur == e.Before:
			continue // never renamed, or already restored
		case e.Before == "":
			if cur == e.After {
				if err := os.Remove(abs(e.Path)); err != nil {
					return restored, err
				}
				restored = append(restored, e.Path)
			}
		default:
			if e.Backup == "" || checkInside(e.Backup) != nil {
				return restored, fmt.Errorf("%s has no backup to restore", e.Path)
			}
			data, err := os.ReadFile(abs(e.Backup))
			if err != nil {
				return restored, fmt.Errorf("backup of %s cannot be read (%v)", e.Path, err)
			}
			if hashBytes(data) != e.Before {
				return restored, fmt.Errorf("backup of %s does not hold the old bytes", e.Path)
			}
			if err := writeAtomic(abs(e.Path), data); err != nil {
				return restored, err
			}
			restored = append(restored, e.Path)
		}
	}
	if err := os.Remove(abs(journalPath)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return restored, err
	}
	os.RemoveAll(abs(stagingDir))
	slices.Sort(restored)
	return restored, nil
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
func writeAtomic(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// copyFile copies src to dst (created with its folders), synced.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeSynced(dst, data)
}

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
		return writeAtomic(target, data)
	}
	return err
}

// syncDirs syncs the folders renames happened in, so the renames survive a
// power cut (best effort: not every platform can sync a folder).
func syncDirs(root string, files []journalEntry) {
	seen := map[string]bool{}
	for _, e := range files {
		d := filepath.Dir(filepath.Join(root, filepath.FromSlash(e.Path)))
		if seen[d] {
			continue
		}
		seen[d] = true
		if f, err := os.Open(d); err == nil {
			f.Sync()
			f.Close()
		}
	}
}

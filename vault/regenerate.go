package vault

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// The vault is generated, but people open it in Obsidian and write in it.
// Regeneration keeps what they wrote:
//
//   - The manifest (.dreamwiki-manifest.json) records, for every file the
//     builder wrote, the hash of its content outside human blocks, and the
//     claims, so the next build can keep their ids.
//   - Text between <!-- human:start --> and <!-- human:end --> is carried
//     into the same block (by order) of the regenerated file; blocks the
//     new file does not have are appended at its end.
//   - A generated file edited outside those blocks is copied to the backup
//     folder before it is replaced, and reported. So is a file the builder
//     no longer writes if a person wrote in it.
//   - Files the builder never wrote (notes made in Obsidian, its workspace
//     state in .obsidian/) are carried over as they are. Obsidian rewrites
//     its own settings files, so a changed .obsidian/*.json of ours is kept
//     as the person left it rather than replaced.

// ManifestFile is the manifest's name in the vault.
const ManifestFile = ".dreamwiki-manifest.json"

// Manifest is what a build wrote into the vault.
type Manifest struct {
	Version   int    `json:"version"`
	Generator string `json:"generator"`
	// Files maps each vault path the builder wrote to the hex SHA-256 of
	// its content with the inside of human blocks left out.
	Files map[string]string `json:"files"`
	// Claims are the claims of the build, for id stability.
	Claims []provenance.PriorClaim `json:"claims"`
}

// Previous is the vault a former build left where this build writes.
type Previous struct {
	dir      string
	manifest *Manifest
	raw      []byte
}

// ReadPrevious opens the vault in dir. It returns nil and no error when
// there is none. A missing or unreadable manifest leaves the old vault
// unmanaged: every file that differs is backed up.
func ReadPrevious(dir string) (*Previous, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	p := &Previous{dir: dir}
	if raw, err := os.ReadFile(filepath.Join(dir, ManifestFile)); err == nil {
		var m Manifest
		if json.Unmarshal(raw, &m) == nil && m.Files != nil {
			p.manifest, p.raw = &m, raw
		}
	}
	return p, nil
}

// Claims returns the claims the previous build recorded, for
// provenance.Options.Previous.
func (p *Previous) Claims() []provenance.PriorClaim {
	if p == nil || p.manifest == nil {
		return nil
	}
	// A claim id is a slug of its text, and survives edits: one made by
	// a version of the guard that missed a secret (or before [publish]
	// redact_personal was set) would carry the value into this build's
	// file names. Such a claim gets a new id, made from redacted text.
	g := secrets.Guard{Personal: true}
	out := make([]provenance.PriorClaim, 0, len(p.manifest.Claims))
	for _, c := range p.manifest.Claims {
		if _, found := g.RedactName(c.ID); len(found) > 0 {
			continue
		}
		if _, found := g.Redact(c.Text); len(found) > 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// BackupName is the folder name hand-edited files of this previous vault
// are saved under: derived from its manifest, so it is the same for the
// same vault and never taken from the clock.
func (p *Previous) BackupName() string {
	if p == nil {
		return ""
	}
	if p.manifest == nil {
		return "unmanaged"
	}
	sum := sha256.Sum256(p.raw)
	return hex.EncodeToString(sum[:6])
}

func (p *Previous) read(name string) ([]byte, bool) {
	data, err := os.ReadFile(filepath.Join(p.dir, filepath.FromSlash(name)))
	return data, err == nil
}

// WriteOptions tune WriteWith.
type WriteOptions struct {
	// Previous is the vault being replaced; nil for a fresh one.
	Previous *Previous
	// Backup receives files edited by hand before they are replaced. Nil
	// with a Previous is an error when a backup is needed.
	Backup output.Writer
	// BackupDir names Backup's folder in reports ("dist/vault-backup/ab12").
	BackupDir string
}

// generated is one file of the vault as the builder makes it.
type generated struct {
	name string
	data []byte
}

// WriteWith writes the vault like Write, carrying over what people wrote
// in the previous vault (see the package notes above) and reporting what
// it backed up. It stops between files when ctx is done.
func (v *Vault) WriteWith(ctx context.Context, w output.Writer, opts WriteOptions) (diag.List, error) {
	files, err := v.files(ctx)
	if err != nil {
		return nil, err
	}
	prev := opts.Previous
	var diags diag.List
	var mu sync.Mutex
	hashes := make([]string, len(files))
	backup := func(name string, data []byte, why string) error {
		if opts.Backup == nil {
			return fmt.Errorf("%s %s, and no backup folder was given; nothing was replaced", name, why)
		}
		if err := opts.Backup.WriteFile(name, data); err != nil {
			return fmt.Errorf("backing up %s: %w", name, err)
		}
		mu.Lock()
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "hand-edit",
			Message: fmt.Sprintf("vault/%s %s; the old file was saved as %s before it was replaced", name, why, path.Join(opts.BackupDir, name)),
			Hint:    "write in the vault between <!-- human:start --> and <!-- human:end --> to keep text in place"})
		mu.Unlock()
		return nil
	}
	err = parallel.Each(ctx, len(files), runtime.GOMAXPROCS(0), func(i int) error {
		f := &files[i]
		if prev != nil {
			if old, ok := prev.read(f.name); ok {
				f.data = mergeHuman(f.data, humanBlocks(old))
				oldHash, want := outsideHash(old), ""
				if prev.manifest != nil {
					want = prev.manifest.Files[f.name]
				}
				switch {
				case want != "" && oldHash == want:
					// Unchanged outside human blocks.
				case want == "" && oldHash == outsideHash(f.data):
					// Identical to what would be written.
				case strings.HasPrefix(f.name, ".obsidian/"):
					// Obsidian's own settings, changed in Obsidian: keep them.
					f.data = old
					mu.Lock()
					diags.Add(diag.Diagnostic{Severity: diag.Info, Code: "hand-edit",
						Message: fmt.Sprintf("vault/%s was changed in Obsidian; your version was kept", f.name)})
					mu.Unlock()
				default:
					why := "was edited by hand outside human blocks"
					if want == "" {
						why = "was not written by dreamwiki (or its manifest is missing) and differs from the generated file"
					}
					if err := backup(f.name, old, why); err != nil {
						return err
					}
				}
			}
		}
		hashes[i] = outsideHash(f.data)
		return w.WriteFile(f.name, f.data)
	})
	if err != nil {
		return nil, err
	}
	written := make(map[string]string, len(files))
	for i, f := range files {
		written[f.name] = hashes[i]
	}
	if prev != nil {
		if err := carryOver(prev, written, w, backup, &diags); err != nil {
			return nil, err
		}
	}
	m := Manifest{Version: 1, Generator: "dreamwiki", Files: written, Claims: []provenance.PriorClaim{}}
	if v.Provenance != nil {
		m.Claims = v.Provenance.Prior()
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := w.WriteFile(ManifestFile, append(data, '\n')); err != nil {
		return nil, err
	}
	diags.Sort()
	return diags, nil
}

// carryOver brings the files of the previous vault this build did not
// write: a person's own files as they are; files the builder wrote before
// but no longer does only when a person wrote in them, and then to the
// backup.
func carryOver(prev *Previous, written map[string]string, w output.Writer,
	backup func(name string, data []byte, why string) error, diags *diag.List) error {
	var names []string
	err := filepath.WalkDir(prev.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner of the old vault is left behind
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(prev.dir, p)
		if err != nil {
			return nil
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		if name == ManifestFile || written[name] != "" {
			continue
		}
		data, ok := prev.read(name)
		if !ok {
			continue
		}
		want := ""
		if prev.manifest != nil {
			want = prev.manifest.Files[name]
		}
		if want == "" {
			// Not ours: a note or setting a person made. Keep it.
			if err := w.WriteFile(name, data); err != nil {
				return err
			}
			diags.Add(diag.Diagnostic{Severity: diag.Info, Code: "vault-file-kept",
				Message: fmt.Sprintf("vault/%s was not written by dreamwiki; it was kept", name)})
			continue
		}
		if outsideHash(data) != want || hasHumanText(data) {
			if err := backup(name, data, "is no longer generated (its claim, dream or note is gone) but was written in"); err != nil {
				return err
			}
		}
	}
	return nil
}

// files returns every file of the vault, notes first, in a fixed order.
func (v *Vault) files(ctx context.Context) ([]generated, error) {
	out := make([]generated, len(v.Notes), len(v.Notes)+len(v.Assets)+3)
	err := parallel.Each(ctx, len(v.Notes), runtime.GOMAXPROCS(0), func(i int) error {
		n := v.Notes[i]
		out[i] = generated{n.Path, v.Markdown(n)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, a := range v.Assets {
		data, err := a.Read()
		if err != nil {
			return nil, fmt.Errorf("copying %s: %w", a.Source, err)
		}
		out = append(out, generated{a.Path, data})
	}
	settings, err := settingsFiles()
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(settings)) {
		out = append(out, generated{name, settings[name]})
	}
	return out, nil
}

var (
	humanStart = []byte(HumanStart)
	humanEnd   = []byte(HumanEnd)
)

// humanSpans returns the byte ranges inside each closed human block: from
// the end of a start marker to the start of its end marker. A start marker
// with no end is no block.
func humanSpans(data []byte) [][2]int {
	var out [][2]int
	for at := 0; ; {
		s := bytes.Index(data[at:], humanStart)
		if s < 0 {
			return out
		}
		s += at + len(humanStart)
		e := bytes.Index(data[s:], humanEnd)
		if e < 0 {
			return out
		}
		e += s
		out = append(out, [2]int{s, e})
		at = e + len(humanEnd)
	}
}

// humanBlocks returns the text inside each human block of data.
func humanBlocks(data []byte) []string {
	spans := humanSpans(data)
	out := make([]string, len(spans))
	for i, sp := range spans {
		out[i] = string(data[sp[0]:sp[1]])
	}
	return out
}

func hasHumanText(data []byte) bool {
	for _, b := range humanBlocks(data) {
		if strings.TrimSpace(b) != "" {
			return true
		}
	}
	return false
}

// mergeHuman puts the old human blocks' text into the new file's blocks,
// in order; old blocks with text that have no counterpart are appended.
func mergeHuman(data []byte, old []string) []byte {
	keep := false
	for _, b := range old {
		if strings.TrimSpace(b) != "" {
			keep = true
			break
		}
	}
	if !keep {
		return data
	}
	spans := humanSpans(data)
	var out bytes.Buffer
	out.Grow(len(data) + 256)
	at := 0
	for i, sp := range spans {
		out.Write(data[at:sp[0]])
		if i < len(old) && strings.TrimSpace(old[i]) != "" {
			out.WriteString(old[i])
		} else {
			out.Write(data[sp[0]:sp[1]])
		}
		at = sp[1]
	}
	out.Write(data[at:])
	for i := len(spans); i < len(old); i++ {
		if strings.TrimSpace(old[i]) == "" {
			continue
		}
		if b := out.Bytes(); len(b) > 0 && b[len(b)-1] != '\n' {
			out.WriteByte('\n')
		}
		out.WriteString("\n" + HumanStart + old[i] + HumanEnd + "\n")
	}
	return out.Bytes()
}

// outsideHash hashes data with the inside of its human blocks left out:
// what the builder owns.
func outsideHash(data []byte) string {
	h := sha256.New()
	at := 0
	for _, sp := range humanSpans(data) {
		h.Write(data[at:sp[0]])
		at = sp[1]
	}
	h.Write(data[at:])
	return hex.EncodeToString(h.Sum(nil))
}

// Package build runs dreamwiki's pipeline: workspace -> model ->
// provenance -> vault -> site. It is what `dreamwiki build` and `dreamwiki
// check` call, and what serve mode reruns (Session). Output is written
// into a temporary folder beside the destination and renamed into place
// only when everything succeeded. A build writes nothing but its output
// folder, and never replaces one it did not make (unless Force).
package build

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/health"
	"github.com/dreamwiki/dreamwiki/internal/history"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Options configure a build.
type Options struct {
	// Workspace is the folder to read. Ignored when Demo is set.
	Workspace string
	// Demo reads the embedded demo workspace instead.
	Demo bool
	// Out is the output folder; vault/ and site/ are written inside it.
	// A build refuses a non-empty Out it did not make (output.CheckOwned)
	// unless Force is set.
	Out string
	// Force builds into Out even when it holds files dreamwiki did not
	// write; its site/ and vault/ are then replaced.
	Force bool
	// BaseURL is where the site will be published (optional).
	BaseURL string
	// Title overrides the workspace's configured title.
	Title string
	// AsOf is the date decay, tiers and permission expiry are judged at;
	// zero means today (the wall clock, read when the workspace is
	// analysed), so a permission that lapsed last month shows as lapsed.
	AsOf time.Time
	// Snapshot reads the workspace as it stood at the end of AsOf (its
	// git history, dream backups or dates; see Snapshot) instead of as it
	// is now. Private files are left out of the vault too then.
	Snapshot bool
	// Progress receives one line per stage; nil for silence.
	Progress func(stage string)
	// Private are globs of files that are read but never published, on
	// top of the workspace's own (a team site's [[workspace]] entry).
	Private []string
	// History is "auto" or "off" (workspace.HistoryAuto, HistoryOff): off
	// builds no history points whatever [history] mode says; "" defers to
	// that setting.
	History string
	// VaultDir is the folder the vault is written to and an earlier
	// build's vault read from; "" means Out/vault. A team site has one
	// per workspace.
	VaultDir string

	// TwinsOnly makes a Session render only what agents read: the
	// Markdown twins and api/ (site.Options.TwinsOnly), without the
	// memory's history, which only HTML pages show. dreamwiki mcp sets
	// it; Build writes the whole site whatever it says.
	TwinsOnly bool

	// unlinked analyses leave out what only the vault reads
	// (provenance.Options.Unlinked): set for the points of History,
	// whose vaults are never written.
	unlinked bool
	// parses shares the recall store read at one history point with the
	// others (workspace.Parses).
	parses *workspace.Parses
}

// Report is what a build or check found and did.
type Report struct {
	Workspace string `json:"workspace"`
	Out       string `json:"out,omitempty"`
	// Notes are the notes of the vault written (or, for a check, of the
	// vault a build would write); Published those the site has.
	Notes     int `json:"notes"`
	Published int `json:"published"`
	// Private counts the private files left out of the site (and, unless
	// [vault] include_private, of the vault).
	Private     int       `json:"private"`
	Pages       int       `json:"pages"`
	Files       int       `json:"files"`
	Duration    Duration  `json:"duration"`
	Diagnostics diag.List `json:"diagnostics"`
	// Snapshot says where an --as-of snapshot came from; nil for the
	// workspace as it is.
	Snapshot *history.Snapshot `json:"snapshot,omitempty"`
	// Health is the memory's health score and its parts.
	Health health.Health `json:"health"`
	// Personal counts the personal data in the published files; nil when
	// there is none.
	Personal *Personal `json:"personal,omitempty"`
}

// Personal counts the phone numbers, e-mail addresses and street
// addresses of the published files (each is a diagnostic with code
// workspace.PersonalCode, at its file and line).
type Personal struct {
	Phones    int `json:"phones"`
	Emails    int `json:"emails"`
	Addresses int `json:"addresses"`
	// Redacted is set when [publish] redact_personal replaced them in
	// every output; otherwise they are published as written.
	Redacted bool `json:"redacted"`
}

// Total is how many there are.
func (p *Personal) Total() int { return p.Phones + p.Emails + p.Addresses }

// Summary says what was found, and what the setting does about it, in one
// line: "3 phone numbers and 1 e-mail address are published; set …".
func (p *Personal) Summary() string {
	var parts []string
	for _, c := range []struct {
		n            int
		one, several string
	}{{p.Phones, "phone number", "phone numbers"}, {p.Emails, "e-mail address", "e-mail addresses"}, {p.Addresses, "street address", "street addresses"}} {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.one)
		case c.n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.several))
		}
	}
	what := strings.Join(parts, ", ")
	if i := strings.LastIndex(what, ", "); i >= 0 {
		what = what[:i] + " and " + what[i+2:]
	}
	if p.Redacted {
		return "personal data: " + what + " redacted ([publish] redact_personal)"
	}
	verb := "are"
	if p.Total() == 1 {
		verb = "is"
	}
	return "personal data: " + what + " " + verb + " published; set [publish] redact_personal = true in dreamwiki.toml to redact them"
}

// Duration marshals as seconds with millisecond precision.
type Duration time.Duration

// MarshalJSON writes the duration in seconds.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf("%.3f", time.Duration(d).Seconds())), nil
}

// Model is the in-memory result of reading and assembling a workspace,
// before anything is written.
type Model struct {
	Workspace  *workspace.Workspace
	Provenance *provenance.Result
	Vault      *vault.Vault
	Engine     *markdown.Engine
	// Previous is the vault an earlier build left in Out, whose human
	// edits and claim ids this build keeps; nil when there is none.
	Previous *vault.Previous
	// Snapshot is where the workspace was read from with
	// Options.Snapshot; nil for the workspace as it is.
	Snapshot *history.Snapshot
	// History is the memory at earlier points (see History), for the
	// site; nil until read, and for a snapshot.
	History *site.History
}

// Load reads the workspace named by opts as it is published and
// assembles its vault: a model of everything that may be published, and
// nothing else (see ReadWorkspace).
func Load(ctx context.Context, opts Options) (*Model, error) {
	var prev *vault.Previous
	if dir := opts.vaultDir(); dir != "" {
		// Read before anything is written: the swap at the end replaces it.
		var err error
		prev, err = vault.ReadPrevious(dir)
		if err != nil {
			return nil, fmt.Errorf("reading the previous vault: %w", err)
		}
	}
	if opts.Snapshot && !opts.AsOf.IsZero() {
		snap, ws, prov, err := Snapshot(ctx, opts, prev.Claims())
		if err != nil {
			return nil, err
		}
		m := assembleVault(opts, ws, prov)
		m.Previous, m.Snapshot = prev, snap
		return m, nil
	}
	ws, err := readWorkspace(opts, published())
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := assemble(ctx, opts, ws, prev.Claims())
	if err != nil {
		return nil, err
	}
	m.Previous = prev
	return m, nil
}

// assemble links the claims of ws to their evidence and builds the vault;
// prior are the claims of the previous build, whose ids survive edits.
func assemble(ctx context.Context, opts Options, ws *workspace.Workspace, prior []provenance.PriorClaim) (*Model, error) {
	progress(opts, "linking claims to evidence")
	prov := analyze(opts, ws, prior)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return assembleVault(opts, ws, prov), nil
}

// assembleVault builds the vault of ws and its claims prov.
func assembleVault(opts Options, ws *workspace.Workspace, prov *provenance.Result) *Model {
	progress(opts, "assembling the vault")
	eng := markdown.New()
	inputs, assets := vault.Assemble(ws, prov)
	v := vault.Build(eng, inputs, assets, vault.Withheld(ws))
	v.Provenance = prov
	return &Model{Workspace: ws, Provenance: prov, Vault: v, Engine: eng}
}

// vaultDir is the folder of the vault; "" for a build that writes none.
func (opts Options) vaultDir() string {
	switch {
	case opts.VaultDir != "":
		return opts.VaultDir
	case opts.Out != "":
		return filepath.Join(opts.Out, "vault")
	}
	return ""
}

// published is how a workspace is read for everything dreamwiki
// publishes (the site, the vault, search, get, serve): secrets redacted
// in every text and path as it is read, private files left out (DESIGN
// 5.6, 5.7). Whatever is made from such a model cannot hold either.
func published() workspace.Options { return workspace.Options{Redact: true, OmitPrivate: true} }

// ReadWorkspace reads the workspace of opts (a folder, or the demo) as it
// is published: secrets redacted, private files left out. It is what
// `dreamwiki get` reads from.
func ReadWorkspace(opts Options) (*workspace.Workspace, error) {
	return readWorkspace(opts, published())
}

// readWorkspace reads the workspace of opts with the reader options wopts
// (the output folder is skipped on top, opts' private globs added).
func readWorkspace(opts Options, wopts workspace.Options) (*workspace.Workspace, error) {
	wopts.Private = append(wopts.Private, opts.Private...)
	if opts.Demo {
		progress(opts, "reading the demo workspace")
		return workspace.LoadFS(demo.FS(), wopts)
	}
	root := workspaceRoot(opts)
	progress(opts, "reading "+root)
	if skip := relInside(root, opts.Out); skip != "" {
		wopts.Skip = []string{skip}
	}
	return workspace.Load(root, wopts)
}

// workspaceRoot is the folder opts reads.
func workspaceRoot(opts Options) string {
	if opts.Workspace == "" {
		return "."
	}
	return opts.Workspace
}

// relInside returns out relative to root when out lies inside root, with
// the symbolic links of both resolved (output.Within): the folder a read
// of root skips. The workspace itself is never skipped (OutputFolder
// refuses to write there).
func relInside(root, out string) string {
	if out == "" {
		return ""
	}
	r, ok := output.Within(root, out)
	if !ok || r == "." {
		return ""
	}
	return r
}

func progress(opts Options, stage string) {
	if opts.Progress != nil {
		opts.Progress(stage)
	}
}

// Diagnostics returns every finding of the model, sorted.
func (m *Model) Diagnostics() diag.List {
	var all diag.List
	all = append(all, m.Workspace.Diagnostics...)
	all = append(all, m.Provenance.Findings...)
	all = append(all, m.Vault.Diagnostics...)
	all.Sort()
	return all
}

// Check reads and assembles the workspace and reports what it found,
// writing nothing.
func Check(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	m, err := Load(ctx, opts)
	if err != nil {
		return nil, err
	}
	r := m.Report(opts)
	r.Duration = Duration(time.Since(start))
	return r, nil
}

// Report is what the model holds as a build or check reports it.
func (m *Model) Report(opts Options) *Report {
	r := &Report{Workspace: opts.Workspace, Out: opts.Out, Notes: len(m.Vault.Notes), Published: len(m.Vault.Notes),
		Private: len(m.Workspace.Withheld), Diagnostics: m.Diagnostics(), Snapshot: m.Snapshot,
		Health: health.Of(m.Provenance)}
	if opts.Demo {
		r.Workspace = "(demo)"
	}
	// The report prints the paths it was given: they go through the
	// guard as every path does (a diagnostic's own text does, in diag).
	r.Workspace, _ = secrets.RedactName(r.Workspace)
	r.Out, _ = secrets.RedactName(r.Out)
	if p, e, a := workspace.PersonalCounts(r.Diagnostics); p+e+a > 0 {
		r.Personal = &Personal{Phones: p, Emails: e, Addresses: a, Redacted: m.Workspace.Config.Publish.RedactPersonal}
	}
	return r
}

// vaultToWrite is the vault Build writes: the model's, or with [vault]
// include_private one assembled again from the workspace read with its
// private files (marked, and written with publish: false). Only that
// setting costs the second pass; the site never sees that vault.
func (m *Model) vaultToWrite(ctx context.Context, opts Options) (*vault.Vault, error) {
	if !m.Workspace.Config.Vault.IncludePrivate || m.Snapshot != nil {
		return m.Vault, nil
	}
	progress(opts, "reading the workspace again with its private notes, for the vault")
	ws, err := readWorkspace(opts, workspace.Options{Redact: true})
	if err != nil {
		return nil, err
	}
	full, err := assemble(ctx, opts, ws, m.Previous.Claims())
	if err != nil {
		return nil, err
	}
	return full.Vault, nil
}

// WriteVault writes the vault of the model into dir, keeping what a
// person wrote into the previous one (backed up beside it, under
// Out/vault-backup), and returns how many notes it has and what was kept.
func (m *Model) WriteVault(ctx context.Context, opts Options, dir string) (int, diag.List, error) {
	v, err := m.vaultToWrite(ctx, opts)
	if err != nil {
		return 0, nil, err
	}
	progress(opts, "writing the vault")
	backup := filepath.Join(opts.Out, "vault-backup", m.Previous.BackupName())
	if opts.VaultDir != "" {
		// One of a team site's vaults: its backups are its own.
		backup = filepath.Join(opts.Out, "vault-backup", filepath.Base(opts.VaultDir), m.Previous.BackupName())
	}
	kept, err := v.WriteWith(ctx, output.NewDir(dir), vault.WriteOptions{
		Previous:  m.Previous,
		Backup:    output.NewDir(backup),
		BackupDir: filepath.ToSlash(backup),
	})
	if err != nil {
		return 0, nil, fmt.Errorf("writing the vault: %w", err)
	}
	return len(v.Notes), kept, nil
}

// Build reads the workspace and writes Out/vault and Out/site.
func Build(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	opts.TwinsOnly = false
	var read []string
	if !opts.Demo {
		read = []string{workspaceRoot(opts)}
	}
	out, err := OutputFolder(opts.Out, opts.Force, read...)
	if err != nil {
		return nil, err
	}
	opts.Out = out
	m, err := Load(ctx, opts)
	if err != nil {
		return nil, err
	}
	if m.History, err = History(ctx, opts, m); err != nil {
		return nil, fmt.Errorf("reading the memory's history: %w", err)
	}
	r := m.Report(opts)
	err = Swap(opts.Out, func(tmp string) error {
		notes, kept, err := m.WriteVault(ctx, opts, filepath.Join(tmp, "vault"))
		if err != nil {
			return err
		}
		r.Notes = notes
		r.Diagnostics = append(r.Diagnostics, kept...)
		r.Diagnostics.Sort()
		progress(opts, "rendering the site")
		stats, err := site.Build(ctx, m.Engine, m.Vault, m.SiteOptions(opts), output.NewDir(filepath.Join(tmp, "site")))
		if err != nil {
			return fmt.Errorf("rendering the site: %w", err)
		}
		r.Pages, r.Files = stats.Pages, stats.Files
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.Duration = Duration(time.Since(start))
	return r, nil
}

// OutputFolder is the folder a build of workspaces writes into: out,
// "dist" when empty. It is refused when it is one of the workspaces, or
// holds one where a build replaces files (output.CheckApart), and, unless
// force, when it holds files dreamwiki did not write (output.CheckOwned).
// An output folder inside a workspace is left out of reading it.
func OutputFolder(out string, force bool, workspaces ...string) (string, error) {
	if out == "" {
		out = "dist"
	}
	if err := output.CheckApart(out, workspaces...); err != nil {
		return "", err
	}
	if !force {
		if err := output.CheckOwned(out, vault.ManifestFile); err != nil {
			return "", err
		}
	}
	return out, nil
}

// Swap writes a build's output: write fills a temporary folder in out
// with vault/ and site/, which replace out's own only when write
// succeeded, each in one step (output.Swap).
func Swap(out string, write func(tmp string) error) error {
	return output.Swap(out, []string{output.VaultDir, output.SiteDir}, write)
}

// SiteOptions derives the site's options from the workspace configuration
// and the command line (which wins).
func (m *Model) SiteOptions(opts Options) site.Options {
	cfg := m.Workspace.Config
	so := site.Options{Title: cfg.Title, BaseURL: cfg.BaseURL}
	if opts.Title != "" {
		so.Title = opts.Title
	}
	if opts.BaseURL != "" {
		so.BaseURL = opts.BaseURL
	}
	// The browser ranks with the knobs the CLI and the server use.
	params := search.ParamsFromConfig(cfg.Search)
	so.Search = &params
	memoryViews(m.Workspace, &so)
	if m.Snapshot != nil {
		so.Snapshot = m.Snapshot.Describe()
	}
	so.History = m.History
	so.TwinsOnly = opts.TwinsOnly
	return so
}

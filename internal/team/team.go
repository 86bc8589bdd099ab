// Package team builds a team site: several workspaces, each read and
// assembled as `dreamwiki build` reads one (internal/build), linked to
// each other by name ([[b:note]]), compared for claims they disagree on,
// and rendered into one site, each workspace under /<name>/ beside the
// team's own pages (site.BuildTeam). It decides which workspaces make the
// team (the command line or dreamwiki.toml's [[workspace]] entries) and
// never reads a workspace's files itself.
package team

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/health"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Workspace is one workspace of a team site.
type Workspace struct {
	// Name is its folder in the site and the prefix of links into it
	// (markdown.ValidWorkspaceName).
	Name string
	// Path is the workspace folder.
	Path string
	// Private are globs of its files never published, on top of its own
	// dreamwiki.toml's.
	Private []string
}

// Options configure a team build.
type Options struct {
	Workspaces []Workspace
	// Title is the team site's title; BaseURL where it is published.
	Title, BaseURL string
	// Search holds the team's ranking knobs ([search] of its
	// dreamwiki.toml); nil means the defaults.
	Search *search.Params
	// Out, Force, AsOf, Snapshot and Progress are build.Options'.
	Out      string
	Force    bool
	AsOf     time.Time
	Snapshot bool
	Progress func(stage string)
}

// Report is what a team build or check found and did.
type Report struct {
	Out string `json:"out,omitempty"`
	// Workspaces are the workspaces' reports, in the team's order; their
	// diagnostics name files as <name>/<path>.
	Workspaces []*build.Report `json:"workspaces"`
	// Names are the workspaces' names, in the same order.
	Names         []string                  `json:"names"`
	Disagreements []provenance.Disagreement `json:"-"`
	// DisagreementCount is len(Disagreements), for --json.
	DisagreementCount int            `json:"disagreements"`
	Pages             int            `json:"pages"`
	Files             int            `json:"files"`
	Duration          build.Duration `json:"duration"`
}

// DefaultTitle is a team site's title when neither its dreamwiki.toml nor
// the command line gives one.
const DefaultTitle = "Team memory"

// FromArgs makes the team of the workspace folders given on the command
// line, each named by its folder's base name in lower case.
func FromArgs(paths []string) ([]Workspace, error) {
	var out []Workspace
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("workspace %q: %v", p, err)
		}
		name := strings.ToLower(filepath.Base(abs))
		if !markdown.ValidWorkspaceName(name) {
			return nil, fmt.Errorf("workspace %q: %q cannot name a workspace (up to 64 lower-case letters, digits, '-' or '_'); name it in a [[workspace]] entry of dreamwiki.toml", p, name)
		}
		out = append(out, Workspace{Name: name, Path: p})
	}
	return out, validate(out)
}

// FromConfig makes the team of a dreamwiki.toml's [[workspace]] entries,
// their paths relative to dir (the file's folder). It returns nil for a
// configuration without any.
func FromConfig(dir string, cfg workspace.Config) ([]Workspace, error) {
	var out []Workspace
	for i, e := range cfg.Workspaces {
		if e.Path == "" {
			return nil, fmt.Errorf("%s: [[workspace]] %d has no path", workspace.ConfigFile, i+1)
		}
		p := e.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		name := e.Name
		if name == "" {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, fmt.Errorf("%s: [[workspace]] %s: %v", workspace.ConfigFile, e.Path, err)
			}
			name = strings.ToLower(filepath.Base(abs))
		}
		if !markdown.ValidWorkspaceName(name) {
			return nil, fmt.Errorf("%s: [[workspace]] %s: %q cannot name a workspace (up to 64 lower-case letters, digits, '-' or '_'); give it a name", workspace.ConfigFile, e.Path, name)
		}
		out = append(out, Workspace{Name: name, Path: p, Private: e.Private})
	}
	return out, validate(out)
}

// validate refuses a team whose names clash.
func validate(wss []Workspace) error {
	seen := map[string]bool{}
	for _, w := range wss {
		if seen[w.Name] {
			return fmt.Errorf("two workspaces are named %q; give them names of their own in [[workspace]] entries of dreamwiki.toml", w.Name)
		}
		seen[w.Name] = true
	}
	return nil
}

// member is one workspace read and assembled.
type member struct {
	ws    Workspace
	opts  build.Options
	model *build.Model
}

// load reads and assembles every workspace, links them to each other and
// finds their disagreements.
func load(ctx context.Context, opts Options) ([]*member, []provenance.Disagreement, error) {
	if len(opts.Workspaces) == 0 {
		return nil, nil, fmt.Errorf("a team site needs at least one workspace")
	}
	members := make([]*member, 0, len(opts.Workspaces))
	vaults := make(map[string]*vault.Vault, len(opts.Workspaces))
	results := make([]*provenance.Result, 0, len(opts.Workspaces))
	for _, w := range opts.Workspaces {
		bo := build.Options{Workspace: w.Path, Out: opts.Out, Force: opts.Force, AsOf: opts.AsOf, Snapshot: opts.Snapshot,
			Private: w.Private, Progress: opts.Progress}
		if opts.Out != "" {
			bo.VaultDir = filepath.Join(opts.Out, "vault", w.Name)
		}
		m, err := build.Load(ctx, bo)
		if err != nil {
			return nil, nil, fmt.Errorf("workspace %s: %w", w.Name, err)
		}
		members = append(members, &member{ws: w, opts: bo, model: m})
		vaults[w.Name] = m.Vault
		results = append(results, m.Provenance)
	}
	if opts.Progress != nil {
		opts.Progress("linking the workspaces")
	}
	vault.LinkWorkspaces(vaults)
	return members, provenance.Disagreements(results), nil
}

// report is the team's report before anything is written.
func report(opts Options, members []*member, dis []provenance.Disagreement) *Report {
	r := &Report{Out: opts.Out, Disagreements: dis, DisagreementCount: len(dis)}
	for _, m := range members {
		br := m.model.Report(m.opts)
		br.Diagnostics = named(m.ws.Name, br.Diagnostics)
		r.Workspaces = append(r.Workspaces, br)
		r.Names = append(r.Names, m.ws.Name)
	}
	return r
}

// named is ds with their files named <workspace>/<path>, as a team's
// report names them.
func named(name string, ds diag.List) diag.List {
	for i := range ds {
		if ds[i].File != "" {
			ds[i].File = name + "/" + ds[i].File
		} else {
			ds[i].File = name // a finding about the workspace as a whole
		}
	}
	return ds
}

// Check reads, links and compares every workspace and reports what it
// found, writing nothing.
func Check(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	opts.Out = ""
	members, dis, err := load(ctx, opts)
	if err != nil {
		return nil, err
	}
	r := report(opts, members, dis)
	r.Duration = build.Duration(time.Since(start))
	return r, nil
}

// Build writes Out/vault/<name> (each workspace's vault) and Out/site
// (the team site); the previous output is replaced only when everything
// succeeded.
func Build(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	read := make([]string, len(opts.Workspaces))
	for i, w := range opts.Workspaces {
		read[i] = w.Path
	}
	out, err := build.OutputFolder(opts.Out, opts.Force, read...)
	if err != nil {
		return nil, err
	}
	opts.Out = out
	members, dis, err := load(ctx, opts)
	if err != nil {
		return nil, err
	}
	r := report(opts, members, dis)
	err = build.Swap(opts.Out, func(tmp string) error {
		for i, m := range members {
			notes, kept, err := m.model.WriteVault(ctx, m.opts, filepath.Join(tmp, "vault", m.ws.Name))
			if err != nil {
				return fmt.Errorf("workspace %s: %w", m.ws.Name, err)
			}
			wr := r.Workspaces[i]
			wr.Notes = notes
			wr.Diagnostics = append(wr.Diagnostics, named(m.ws.Name, kept)...)
			wr.Diagnostics.Sort()
		}
		stats, err := render(ctx, opts, members, dis, output.NewDir(filepath.Join(tmp, "site")))
		if err != nil {
			return err
		}
		r.Pages, r.Files = stats.Pages, stats.Files
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.Duration = build.Duration(time.Since(start))
	return r, nil
}

// render writes the team site of the loaded members into w: each
// workspace's site in its folder, then the team's own pages.
func render(ctx context.Context, opts Options, members []*member, dis []provenance.Disagreement, w output.Writer) (site.Stats, error) {
	names := make([]string, len(members))
	peers := make(map[string]map[string]string, len(members))
	for i, m := range members {
		names[i] = m.ws.Name
		peers[m.ws.Name] = site.PageURLs(m.model.Vault)
	}
	title := opts.Title
	if title == "" {
		title = DefaultTitle
	}
	base := opts.BaseURL
	if base != "" && !strings.HasSuffix(base, "/") {
		base += "/"
	}
	var total site.Stats
	tws := make([]site.TeamWorkspace, 0, len(members))
	for _, m := range members {
		if opts.Progress != nil {
			opts.Progress("rendering the site of " + m.ws.Name)
		}
		so := m.model.SiteOptions(m.opts)
		if so.Title == workspace.DefaultConfig().Title {
			so.Title = m.ws.Name // a workspace without a title of its own goes by its name
		}
		so.BaseURL = ""
		if base != "" {
			so.BaseURL = base + m.ws.Name + "/"
		}
		so.Team = &site.Team{Title: title, Workspace: m.ws.Name, Workspaces: names, Peers: peers}
		sec, err := site.BuildSection(ctx, m.model.Engine, m.model.Vault, so, output.Sub(w, m.ws.Name))
		if err != nil {
			return site.Stats{}, fmt.Errorf("rendering the site of %s: %w", m.ws.Name, err)
		}
		total.Pages += sec.Pages
		total.Files += sec.Files
		tws = append(tws, site.TeamWorkspace{Name: m.ws.Name, Title: so.Title, Notes: len(m.model.Vault.Notes),
			Claims: claims(m.model), LastDream: lastDream(m.model.Provenance), Health: health.Of(m.model.Provenance).Score,
			Section: sec})
	}
	if opts.Progress != nil {
		opts.Progress("rendering the team's pages")
	}
	stats, err := site.BuildTeam(ctx, site.Options{Title: title, BaseURL: base, Search: opts.Search,
		Team: &site.Team{Title: title, Workspaces: names}}, tws, dis, w)
	if err != nil {
		return site.Stats{}, fmt.Errorf("rendering the team's pages: %w", err)
	}
	total.Pages += stats.Pages
	total.Files += stats.Files
	return total, nil
}

// claims counts the published claims of a model.
func claims(m *build.Model) int {
	if m.Provenance == nil {
		return 0
	}
	return len(m.Provenance.Claims)
}

// lastDream is the date of the newest dream run, "" for none.
func lastDream(r *provenance.Result) string {
	if r == nil || len(r.Dreams) == 0 {
		return ""
	}
	dates := make([]string, 0, len(r.Dreams))
	for _, d := range r.Dreams {
		if !d.Date.IsZero() {
			dates = append(dates, d.Date.Format("2006-01-02"))
		}
	}
	if len(dates) == 0 {
		return ""
	}
	sort.Strings(dates)
	return dates[len(dates)-1]
}

// Diagnostics are every workspace's diagnostics, files named
// <name>/<path>, sorted.
func (r *Report) Diagnostics() diag.List {
	var all diag.List
	for _, w := range r.Workspaces {
		all = append(all, w.Diagnostics...)
	}
	all.Sort()
	return all
}

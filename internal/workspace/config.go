package workspace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// ConfigFile is the optional workspace configuration file.
const ConfigFile = "dreamwiki.toml"

// Config is dreamwiki.toml. Every key has a default (DefaultConfig);
// unknown keys are reported as warnings, never fatal.
type Config struct {
	Title   string   `toml:"title"`
	BaseURL string   `toml:"base_url"`
	Exclude []string `toml:"exclude"` // globs never read
	Private []string `toml:"private"` // globs read but never published

	Budget  BudgetConfig  `toml:"budget"`
	Dream   DreamConfig   `toml:"dream"`
	Search  SearchConfig  `toml:"search"`
	Vault   VaultConfig   `toml:"vault"`
	Publish PublishConfig `toml:"publish"`
	History HistoryConfig `toml:"history"`

	// Workspaces are the [[workspace]] entries of a team site: a folder
	// whose dreamwiki.toml has any is a team's, and builds them into one
	// site (internal/team) rather than being read as a workspace.
	Workspaces []WorkspaceEntry `toml:"workspace"`
}

// WorkspaceEntry is one [[workspace]] of a team site.
type WorkspaceEntry struct {
	// Name is the workspace's section of the site (/<name>/) and the
	// prefix of links into it ([[name:note]]); the folder's base name
	// when empty.
	Name string `toml:"name"`
	// Path is the workspace folder, relative to the dreamwiki.toml.
	Path string `toml:"path"`
	// Private are globs of this workspace's files that are read but never
	// published, on top of its own dreamwiki.toml's.
	Private []string `toml:"private"`
}

// VaultConfig holds what the provenance vault (dist/vault/) contains.
type VaultConfig struct {
	// IncludePrivate keeps private notes in the vault, marked
	// `publish: false` (as Obsidian Publish reads it). The site never has
	// them. Off by default: private means absent (DESIGN 5.7).
	IncludePrivate bool `toml:"include_private"`
}

// PublishConfig holds what is redacted from everything published, on top
// of the secrets that always are (DESIGN 5.6).
type PublishConfig struct {
	// RedactPersonal redacts phone numbers, e-mail addresses and street
	// addresses (secrets.ScanPersonal) from every published text and
	// path, as secrets are. Off by default: they are reported by check,
	// and a build that publishes some says so.
	RedactPersonal bool `toml:"redact_personal"`
}

// HistoryConfig is [history]: whether a build reads the memory's past
// (git commits, dream backups) into the site's history points.
type HistoryConfig struct {
	// Mode is "auto" (the default: read it when there is one) or "off"
	// (no history points; --as-of still reads the past it is asked for).
	Mode string `toml:"mode"`
}

// Off reports whether [history] mode turns history points off.
func (h HistoryConfig) Off() bool { return h.Mode == HistoryOff }

// The [history] modes (and build's --history values).
const (
	HistoryAuto = "auto"
	HistoryOff  = "off"
)

// Guard is the secret guard the configuration asks for: secrets always,
// personal data with [publish] redact_personal.
func (c Config) Guard() secrets.Guard { return secrets.Guard{Personal: c.Publish.RedactPersonal} }

// BudgetConfig is the MEMORY.md size budget (DESIGN 5.3).
type BudgetConfig struct {
	// MaxChars is the bootstrap headroom in characters (not bytes).
	MaxChars int `toml:"max_chars"`
	// TargetPct is the share of MaxChars a dream aims for.
	TargetPct int `toml:"target_pct"`
	// MaxLines and MaxBytes are the older "200 lines / 25 KB" limit; 0 = unused.
	MaxLines int `toml:"max_lines"`
	MaxBytes int `toml:"max_bytes"`
}

// TargetChars is the character count a dream keeps MEMORY.md under.
func (b BudgetConfig) TargetChars() int { return b.MaxChars * b.TargetPct / 100 }

// DreamConfig holds the dream cycle's thresholds (DESIGN 5.2, 5.3).
type DreamConfig struct {
	MinDaysBetween int `toml:"min_days_between"`
	MinNewDays     int `toml:"min_new_days"`
	LockTimeoutMin int `toml:"lock_timeout_minutes"`
	// MaxLogs is how many days of daily logs one dream reads (a busy
	// day of many session files counts once).
	MaxLogs          int     `toml:"max_logs"`
	MaxBytes         int     `toml:"max_bytes"`
	MinScore         float64 `toml:"min_score"`
	MinRecall        int     `toml:"min_recall"`
	MinUniqueQueries int     `toml:"min_unique_queries"`
	// NewTopicSupport is how many candidates must share vocabulary before a
	// new L2 topic is created.
	NewTopicSupport int `toml:"new_topic_support"`
}

// SearchConfig holds ranking knobs (DESIGN 4.3).
type SearchConfig struct {
	FuzzyWeight  float64 `toml:"fuzzy_weight"`
	HalfLifeDays float64 `toml:"half_life_days"`
	MMRLambda    float64 `toml:"mmr_lambda"`
	TitleBoost   float64 `toml:"title_boost"`
}

// DefaultConfig returns the configuration used for every key the workspace
// does not set.
func DefaultConfig() Config {
	return Config{
		Title: "Agent memory",
		Budget: BudgetConfig{
			MaxChars:  20000,
			TargetPct: 80,
		},
		Dream: DreamConfig{
			MinDaysBetween:   3,
			MinNewDays:       3,
			LockTimeoutMin:   30,
			MaxLogs:          32,
			MaxBytes:         192 * 1024,
			MinScore:         0.75,
			MinRecall:        3,
			MinUniqueQueries: 3,
			NewTopicSupport:  3,
		},
		History: HistoryConfig{Mode: HistoryAuto},
		Search: SearchConfig{
			FuzzyWeight:  0.3,
			HalfLifeDays: 30,
			MMRLambda:    0.7,
			TitleBoost:   3,
		},
	}
}

// ParseConfig reads dreamwiki.toml over the defaults. Unknown keys and
// syntax errors become diagnostics; a syntax error leaves the defaults.
func ParseConfig(path, src string, diags *diag.List) Config {
	cfg := DefaultConfig()
	md, err := toml.Decode(src, &cfg)
	if err != nil {
		line := 0
		var perr toml.ParseError
		if pe, ok := err.(toml.ParseError); ok {
			perr = pe
			line = perr.Position.Line
		}
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "config", File: path, Line: line,
			Message: fmt.Sprintf("configuration is not valid TOML (%s)", firstLine(err.Error())),
			Hint:    "the defaults were used"})
		return DefaultConfig()
	}
	var unknown []string
	for _, k := range md.Undecoded() {
		unknown = append(unknown, k.String())
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "config", File: path,
			Message: fmt.Sprintf("unknown key %q", k), Hint: "see README for the keys dreamwiki reads"})
	}
	if m := cfg.History.Mode; m != HistoryAuto && m != HistoryOff {
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "config", File: path,
			Message: fmt.Sprintf("[history] mode is %q", m), Hint: `use "auto" or "off"; "auto" was used`})
		cfg.History.Mode = HistoryAuto
	}
	return cfg
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

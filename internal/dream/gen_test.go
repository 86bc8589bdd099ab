package dream

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// genWorkspace writes a synthetic agent workspace of `days` days of daily
// logs into dir, drawn from a seeded generator: topic files with entries of
// every shape, a MEMORY.md index, memory-meta.json with old and recalled
// entries, and logs full of what real logs hold (facts that repeat, facts
// that change, TODOs that get done, permissions, relative dates, secrets,
// heartbeats, transcripts, session headers and sleep blocks). It returns
// the date after the last log.
func genWorkspace(dir string, seed uint64, days, factsPerDay int) time.Time {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	files := map[string]string{}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }

	type topicSpec struct {
		slug, title string
		subjects    []string
		values      []string
		words       []string
	}
	topics := []topicSpec{
		{"homelab", "Home lab", []string{"NAS backup target", "Zigbee coordinator", "Home Assistant host", "UPS runtime", "DNS resolver"},
			[]string{"nas-01", "the Pi 5", "nuc-01", "40 minutes", "55 minutes", "pi-dns", "the Synology", "S3 Glacier"},
			[]string{"homelab", "synology", "zigbee2mqtt", "tailscale", "restic", "sonoff", "pihole"}},
		{"gateway", "Gateway", []string{"Gateway host", "Gateway port", "Gateway version", "Webhook target"},
			[]string{"the Mac mini", "nuc-01", "18789", "18790", "OpenClaw 2026.9.2", "OpenClaw 2026.11.1", "telegram"},
			[]string{"gateway", "launchd", "openclaw", "webhook", "uptime", "heartbeat-free"}},
		{"kubernetes-migration", "Kubernetes migration", []string{"Migration target date", "Cutover owner", "Ingress controller", "Services migrated"},
			[]string{"2026-12-18", "2027-01-15", "Wei", "Tomás", "ingress-nginx", "Traefik", "4/14", "7/14"},
			[]string{"kubernetes", "cutover", "helm", "karpenter", "argocd", "nomad", "eks"}},
		{"blog", "Blog", []string{"Blog host", "Next post", "Hugo version"},
			[]string{"Netlify", "Cloudflare Pages", "part 3", "part 4", "0.134.2", "0.139.0"},
			[]string{"blog", "hugo", "netlify", "lighthouse", "draft", "okafor.dev"}},
		{"travel-kyoto", "Kyoto trip", []string{"Flight home", "Hotel", "Rail pass"},
			[]string{"via Helsinki", "via Frankfurt", "the ryokan", "Aiko's parents", "ICOCA", "JR pass"},
			[]string{"kyoto", "kinosaki", "shinkansen", "ryokan", "onsen", "kix"}},
	}
	var kept []topicSpec
	for _, t := range topics {
		if r.IntN(5) > 0 {
			kept = append(kept, t)
		}
	}
	if len(kept) < 2 {
		kept = topics[:3]
	}

	// Topic files, with every shape of entry.
	for _, t := range kept {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\nWhat I know about the %s, consolidated from the daily logs.\n\n## Current\n", t.title, strings.ToLower(t.title))
		for i := 0; i < 4+r.IntN(8); i++ {
			d := start.AddDate(0, 0, -r.IntN(200))
			fmt.Fprintf(&b, "- %s uses %s with %s (%s). Source: memory/%s.md#L%d-L%d\n", strings.Title(pick(t.words)), pick(t.words), pick(t.values), d.Format("2006-01-02"), d.Format("2006-01-02"), 3+i, 3+i)
		}
		fmt.Fprintf(&b, "- %s is %s. Source: memory/%s.md#L4-L4\n", t.subjects[0], t.values[0], start.AddDate(0, 0, -30).Format("2006-01-02"))
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "\n**[feedback] Keep %s notes short (%s)**\n> Sam skims them on his phone; lead with the %s state.\n", t.words[0], start.AddDate(0, 0, -40).Format("01-02"), t.words[1])
		}
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "\n**Rule:** Check %s before touching %s.\n**Why:** A stale %s broke the %s once (%s).\n**How to apply:** Every change to %s.\n", t.words[2], t.words[3], t.words[2], t.words[4], start.AddDate(0, 0, -50).Format("2006-01-02"), t.words[0])
		}
		fmt.Fprintf(&b, "\n## History\n- %s was %s until %s.\n", t.subjects[1], t.values[1], start.AddDate(0, 0, -60).Format("2006-01-02"))
		files["memory/"+t.slug+".md"] = b.String()
	}

	// MEMORY.md.
	var m strings.Builder
	m.WriteString("# MEMORY.md\n\n> limit: 200 lines / 25KB | last dream: " + start.AddDate(0, 0, -1).Format("2006-01-02") + "\n\n")
	m.WriteString("Sam is a platform engineer; I'm his assistant. Detail lives in memory/.\n\n## People\n")
	people := []string{"Aiko Tanaka is Sam's partner, an illustrator", "Priya Raman is Sam's manager", "Wei Zhang leads the cutovers",
		"Marta Sousa has the spare key", "Tomás Ferreira is the SRE lead"}
	for _, p := range people[:2+r.IntN(3)] {
		fmt.Fprintf(&m, "- [user] %s. (source: %s)\n", p, start.AddDate(0, 0, -r.IntN(300)).Format("2006-01-02"))
	}
	m.WriteString("\n## Preferences\n- [user] Short answers by default; ask before anything irreversible.\n")
	m.WriteString("timezone: Europe/Lisbon\nunits: metric\n")
	m.WriteString("\n## Infrastructure\n")
	for _, t := range kept {
		fmt.Fprintf(&m, "- [reference] %s notes: see memory/%s.md\n", t.title, t.slug)
	}
	m.WriteString("\n| host | address |\n|---|---|\n| nas-01 | 10.0.0.20 |\n| pi-dns | 10.0.0.2 |\n")
	m.WriteString("\n## Projects\n")
	var metaEntries []string
	for i := 0; i < 3+r.IntN(5); i++ {
		text := fmt.Sprintf("Stale project idea %d about %s from last year", i, pick(kept[0].words))
		fmt.Fprintf(&m, "- [project] %s\n", text)
		// Old and never recalled: these decay out and go to the archive.
		metaEntries = append(metaEntries, fmt.Sprintf(`{"id":"mem_old%d","text":%q,"created":%q,"recallCount":0,"tier":"cold","score":0.2}`,
			i, text, start.AddDate(0, 0, -400-r.IntN(100)).Format("2006-01-02")))
	}
	m.WriteString("- [project] TODO: renew the okafor.dev domain\n")
	m.WriteString("\n## Feedback\n\n**Rule:** Lead with the answer.\n**Why:** Sam reads on his phone.\n**How to apply:** Chat replies.\n")
	files["MEMORY.md"] = m.String()
	files["memory/memory-meta.json"] = "{\n  \"version\": 2,\n  \"entries\": [\n    " + strings.Join(metaEntries, ",\n    ") + "\n  ]\n}\n"
	files["memory/dream-log.md"] = "# Dream log\n\n## " + start.AddDate(0, 0, -1).Format("2006-01-02") + " 07:00 — dream\n\nConsolidated through: " + start.AddDate(0, 0, -1).Format("2006-01-02") + "\n"

	// Daily logs.
	type fact struct{ text string }
	var said []string
	for d := 0; d < days; d++ {
		day := start.AddDate(0, 0, d)
		if r.IntN(7) == 0 {
			continue // a day without a log
		}
		var b strings.Builder
		session := r.IntN(6) == 0
		name := "memory/" + day.Format("2006-01-02") + ".md"
		if session {
			name = "memory/" + day.Format("2006-01-02") + fmt.Sprintf("-%02d%02d", 6+r.IntN(12), r.IntN(60)) + ".md"
			fmt.Fprintf(&b, "# Session: %s 08:10:37 UTC\n\n- **Session Key**: agent:main:telegram:direct:%d\n- **Source**: telegram\n\n## Notes\n", day.Format("2006-01-02"), r.IntN(1e6))
		} else {
			fmt.Fprintf(&b, "# %s\n\n", day.Format("2006-01-02"))
		}
		for i := 0; i < factsPerDay; i++ {
			t := kept[r.IntN(len(kept))]
			switch k := r.IntN(20); {
			case k < 6: // a subject with a value, which changes over time
				fmt.Fprintf(&b, "- %s is now %s.\n", t.subjects[r.IntN(len(t.subjects))], pick(t.values))
			case k < 10: // a plain fact in the topic's words
				fmt.Fprintf(&b, "- %s: checked %s and %s on %s, %d items fine.\n", strings.Title(pick(t.words)), pick(t.words), pick(t.words), pick(t.values), r.IntN(90)+10)
			case k < 12: // the same thing said again
				if len(said) > 0 {
					fmt.Fprintf(&b, "- %s\n", said[r.IntN(len(said))])
					continue
				}
				fallthrough
			case k < 13:
				s := fmt.Sprintf("The %s %s needs the %s fix before the %s upgrade.", pick(t.words), pick(t.words), pick(t.words), pick(t.words))
				said = append(said, s)
				fmt.Fprintf(&b, "- %s\n", s)
			case k < 14:
				fmt.Fprintf(&b, "- TODO: review the %s %s setup tomorrow.\n", pick(t.words), pick(t.words))
			case k < 15:
				fmt.Fprintf(&b, "- Reviewed the %s %s setup — done.\n", pick(t.words), pick(t.words))
			case k < 16:
				fmt.Fprintf(&b, "- You may restart the %s containers without asking until next Friday.\n", pick(t.words))
			case k < 17:
				fmt.Fprintf(&b, "- %02d:%02d heartbeat: all green.\n", r.IntN(24), r.IntN(60))
			case k < 18:
				fmt.Fprintf(&b, "- user: can you look at the %s again\n", pick(t.words))
			case k < 19:
				fmt.Fprintf(&b, "- The %s token for %s is ghp_%s.\n", pick(t.words), pick(t.words), randToken(r, 36))
			default:
				fmt.Fprintf(&b, "- Last week Sam moved the %s %s; next Monday he checks the %s. [score=0.8 recalls=2]\n", pick(t.words), pick(t.words), pick(t.words))
			}
		}
		if r.IntN(8) == 0 {
			fmt.Fprintf(&b, "\n## Light Sleep\n- candidate: %s confidence: 0.61 status: staged\n", pick(kept[0].words))
		}
		files[name] = b.String()
	}
	for p, c := range files {
		fp := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(fp), 0o755)
		if err := os.WriteFile(fp, []byte(c), 0o644); err != nil {
			panic(err)
		}
	}
	return start.AddDate(0, 0, days)
}

func randToken(r *rand.Rand, n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

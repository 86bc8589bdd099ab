package workspace

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// bootstrapNames are the OpenClaw bootstrap files read at session start.
var bootstrapNames = map[string]bool{
	"USER": true, "AGENTS": true, "SOUL": true, "IDENTITY": true, "TOOLS": true, "HEARTBEAT": true,
}

// parseBootstrap reads a bootstrap file and its observed blocks.
func parseBootstrap(f *File, name string) *BootstrapFile {
	b := &BootstrapFile{File: f, Name: name}
	if !strings.Contains(f.Content, "observed") {
		return b
	}
	lines := mdline.Split(f.Content)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		k := strings.Index(l, "<!--")
		if k < 0 {
			continue
		}
		e := strings.Index(l[k+4:], "-->")
		if e < 0 {
			continue
		}
		e += 4
		inner := l[k+4 : k+e]
		obs, ok := observedComment(inner)
		if !ok {
			continue
		}
		obs.Line = i + 1
		before := strings.TrimSpace(l[:k])
		after := strings.TrimSpace(l[k+e+3:])
		if before != "" || after != "" {
			// "- Prefers tea <!-- observed: ... -->" annotates its own line.
			obs.Text = observationText(before + " " + after)
			obs.EndLine = i + 1
			b.Observations = append(b.Observations, obs)
			continue
		}
		var text []string
		j := i + 1
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if t == "" || strings.HasPrefix(t, "<!--") {
				break
			}
			if level, _ := mdline.Heading(t); level > 0 {
				break
			}
			text = append(text, observationText(t))
		}
		obs.EndLine = j
		if j == i+1 {
			obs.EndLine = i + 1
		}
		obs.Text = strings.Join(text, "\n")
		b.Observations = append(b.Observations, obs)
		i = j - 1
	}
	return b
}

// observedComment reads "observed: 2026-07-27 | status: active".
func observedComment(inner string) (*Observation, bool) {
	o := &Observation{}
	found := false
	for _, part := range strings.Split(inner, "|") {
		k, v, ok := splitKV(part)
		if !ok {
			continue
		}
		switch strings.ToLower(k) {
		case "observed":
			found = true
			if t, i, _ := firstDate(v); i >= 0 {
				o.Observed = t
			}
		case "status":
			o.Status = strings.ToLower(firstField(v))
		}
	}
	return o, found
}

func observationText(t string) string {
	if li, ok := mdline.ListItem(t); ok {
		t = li.Text
	}
	return plainText(t)
}

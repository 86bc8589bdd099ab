package vault

import (
	"encoding/json"
)

// settingsFiles are Obsidian's settings for the vault: links kept as
// wikilinks, a graph coloured by tier and memory type, and the types of
// the properties the builder writes.
func settingsFiles() (map[string][]byte, error) {
	app := map[string]any{
		"alwaysUpdateLinks":    true,
		"newLinkFormat":        "shortest",
		"useMarkdownLinks":     false,
		"showFrontmatter":      true,
		"propertiesInDocument": "visible",
	}
	// Obsidian colours a node by the first group whose query matches:
	// claims by tier first, then by memory type, then the other note kinds
	// by folder. Reorder or switch groups off in the graph's settings.
	type color struct {
		A   int `json:"a"`
		RGB int `json:"rgb"`
	}
	type group struct {
		Query string `json:"query"`
		Color color  `json:"color"`
	}
	groups := []group{
		{"[tier:hot]", color{1, 0xE5484D}},
		{"[tier:warm]", color{1, 0xF08C00}},
		{"[tier:cold]", color{1, 0x3E7BFA}},
		{"[tier:crystallised]", color{1, 0x8E4EC6}},
		{"[tier:archived]", color{1, 0x8B8D98}},
		{"tag:#memory/user", color{1, 0x12A594}},
		{"tag:#memory/feedback", color{1, 0xD6409F}},
		{"tag:#memory/project", color{1, 0x30A46C}},
		{"tag:#memory/reference", color{1, 0x0090FF}},
		{"path:sources/daily", color{1, 0xB5B5B5}},
		{"path:sources/conversations", color{1, 0x9E8C6B}},
		{"path:dreams", color{1, 0x6E56CF}},
		{"path:topics", color{1, 0xFFC53D}},
		{"path:reports", color{1, 0xCE2C31}},
	}
	graph := map[string]any{
		"collapse-filter":       false,
		"search":                "",
		"showTags":              false,
		"showAttachments":       false,
		"hideUnresolved":        false,
		"showOrphans":           true,
		"collapse-color-groups": false,
		"colorGroups":           groups,
		"collapse-display":      true,
		"showArrow":             true,
		"textFadeMultiplier":    0,
		"nodeSizeMultiplier":    1,
		"lineSizeMultiplier":    1,
		"collapse-forces":       true,
		"centerStrength":        0.5,
		"repelStrength":         10,
		"linkStrength":          1,
		"linkDistance":          250,
		"scale":                 1,
		"close":                 true,
	}
	types := map[string]any{"types": PropertyTypes()}
	out := map[string][]byte{}
	for name, v := range map[string]any{".obsidian/app.json": app, ".obsidian/graph.json": graph, ".obsidian/types.json": types} {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return nil, err
		}
		out[name] = append(data, '\n')
	}
	return out, nil
}

// PropertyTypes returns the Obsidian property types (.obsidian/types.json)
// of the front matter keys the builder writes.
func PropertyTypes() map[string]string {
	return map[string]string{
		"id":                   "text",
		"type":                 "text",
		"title":                "text",
		"memory_type":          "text",
		"status":               "text",
		"tier":                 "text",
		"decay":                "number",
		"recalls":              "number",
		"created":              "date",
		"last_recalled":        "date",
		"evidence":             "multitext",
		"supersedes":           "multitext",
		"superseded_by":        "multitext",
		"contests":             "multitext",
		"tags":                 "tags",
		"aliases":              "aliases",
		"source":               "text",
		"lifecycle":            "text",
		"expires":              "date",
		"lapsed":               "checkbox",
		"date":                 "date",
		"kind":                 "text",
		"consolidated_through": "date",
		"promoted":             "multitext",
		"superseded":           "multitext",
		"archived":             "multitext",
		"count":                "number",
		"publish":              "checkbox",
		"draft":                "checkbox",
	}
}

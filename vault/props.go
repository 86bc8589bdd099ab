package vault

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// Prop is one front matter property.
type Prop struct {
	Key   string
	Value any // string, []string, bool, int, float64, or any YAML value
}

// Props is an ordered set of properties: the order is the order written.
type Props []Prop

// Get returns the value of key, nil when absent.
func (p Props) Get(key string) any {
	for _, kv := range p {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// Set replaces key's value in place, or appends it.
func (p *Props) Set(key string, v any) {
	for i := range *p {
		if (*p)[i].Key == key {
			(*p)[i].Value = v
			return
		}
	}
	*p = append(*p, Prop{key, v})
}

// Marshal writes the properties as a YAML front matter block (with the
// --- fences), flat and deterministic as Obsidian's property editor
// writes them: strings quoted only when they must be, lists in flow style.
func (p Props) Marshal() string {
	if len(p) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("---\n")
	for _, kv := range p {
		b.WriteString(yamlKey(kv.Key))
		b.WriteString(":")
		writeValue(&b, kv.Value)
		b.WriteByte('\n')
	}
	b.WriteString("---\n")
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		// An empty value is how Obsidian writes an unset property.
	case string:
		b.WriteByte(' ')
		b.WriteString(yamlString(x))
	case []string:
		b.WriteString(" [")
		for i, s := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(yamlString(s))
		}
		b.WriteByte(']')
	case bool:
		b.WriteString(" " + strconv.FormatBool(x))
	case int:
		b.WriteString(" " + strconv.Itoa(x))
	case float64:
		b.WriteString(" " + strconv.FormatFloat(x, 'f', -1, 64))
	case time.Time:
		b.WriteString(" " + x.Format("2006-01-02"))
	default:
		// Nested values from a note's own front matter are carried over in
		// YAML flow style so the block stays one property per line.
		b.WriteString(" " + flowYAML(x))
	}
}

func flowYAML(v any) string {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return yamlString(fmt.Sprint(v))
	}
	setFlow(&n)
	out, err := yaml.Marshal(&n)
	if err != nil {
		return yamlString(fmt.Sprint(v))
	}
	return strings.TrimRight(string(out), "\n")
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}

func yamlKey(k string) string {
	for _, r := range k {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// yamlString quotes s when YAML would otherwise read it as something other
// than the same string (a number, a bool, a date, a flow marker...).
func yamlString(s string) string {
	if s == "" {
		return `""`
	}
	if needsQuote(s) {
		return strconv.Quote(s)
	}
	return s
}

func needsQuote(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`^") {
		return true
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.ContainsAny(s, "\n\t\\\"[]{},") {
		return true
	}
	// Dates and datetimes are strings to us but timestamps to YAML.
	if len(s) >= 8 && s[0] >= '0' && s[0] <= '9' && strings.Count(s, "-") >= 2 {
		return true
	}
	return false
}

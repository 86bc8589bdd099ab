package markdown

import (
	"bufio"
	"strings"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
)

// Code blocks are highlighted at build time by chroma, with CSS classes
// rather than inline colours, so one page can follow a light and a dark
// theme (HighlightCSS). A block in a language chroma does not know, or in
// none, renders as plain <pre><code>.

func codeHighlighting() goldmark.Extender {
	return highlighting.NewHighlighting(
		highlighting.WithStyle("github"),
		highlighting.WithGuessLanguage(false),
		highlighting.WithFormatOptions(chromahtml.WithClasses(true)),
	)
}

// HighlightCSS returns the stylesheet for highlighted code: the chroma
// style named light by default, and the one named dark both when the
// system prefers dark (unless the page sets data-theme="light") and when
// the page sets data-theme="dark". Unknown style names fall back to
// chroma's default. Typical names: "github" and "github-dark".
func HighlightCSS(light, dark string) string {
	var b strings.Builder
	b.WriteString("/* Code highlighting: chroma styles " + light + " and " + dark + " */\n")
	for _, rule := range chromaRules(light) {
		b.WriteString(rule.selector + " { " + rule.body + " }\n")
	}
	darkRules := chromaRules(dark)
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	for _, rule := range darkRules {
		b.WriteString("  " + scopeSelector(":root:not([data-theme=light])", rule.selector) + " { " + rule.body + " }\n")
	}
	b.WriteString("}\n")
	for _, rule := range darkRules {
		b.WriteString(scopeSelector("[data-theme=dark]", rule.selector) + " { " + rule.body + " }\n")
	}
	return b.String()
}

type cssRule struct{ selector, body string }

// chromaRules reads chroma's stylesheet for a style into rules, dropping
// its comments and the ".bg" rule meant for standalone pages.
func chromaRules(name string) []cssRule {
	style := styles.Get(name)
	var sb strings.Builder
	f := chromahtml.New(chromahtml.WithClasses(true))
	w := bufio.NewWriter(&sb)
	_ = f.WriteCSS(w, style)
	_ = w.Flush()
	var rules []cssRule
	for _, line := range strings.Split(sb.String(), "\n") {
		if i := strings.Index(line, "*/"); i >= 0 && strings.HasPrefix(strings.TrimSpace(line), "/*") {
			line = line[i+2:]
		}
		line = strings.TrimSpace(line)
		open := strings.IndexByte(line, '{')
		if open < 0 || !strings.HasSuffix(line, "}") {
			continue
		}
		sel := strings.TrimSpace(line[:open])
		body := strings.TrimSpace(line[open+1 : len(line)-1])
		if sel == ".bg" || sel == "" || body == "" {
			continue
		}
		rules = append(rules, cssRule{selector: sel, body: body})
	}
	return rules
}

// scopeSelector puts scope in front of each selector in a list.
func scopeSelector(scope, selectors string) string {
	parts := strings.Split(selectors, ",")
	for i, p := range parts {
		parts[i] = scope + " " + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

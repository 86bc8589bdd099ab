// Package site renders a vault into a static HTML site: one page per
// published note (from templates/ through html/template), folder and tag
// pages, an index, a 404 page, Markdown twins for agents, and the bundled
// CSS and JavaScript. Links are relative, so the site works from any
// sub-path and from file://. The site is made from the vault's values and
// never reads the workspace. A team site (team.go) is several such sites,
// one per workspace in a folder of its own, under a few pages of the
// team's: its home, one search, one graph and the disagreements.
package site

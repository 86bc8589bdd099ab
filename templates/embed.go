// Package templates holds the site's html/template files, embedded in the
// binary. layout.html is the frame every page shares; each other file
// defines the "main" block for one kind of page.
package templates

import "embed"

// FS holds every *.html template.
//
//go:embed *.html
var FS embed.FS

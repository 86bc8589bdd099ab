package assets

import (
	"embed"
	"io/fs"
	"sync"
)

// The serve-mode client (live reload, the build error overlay, the dream
// panel) is bundled apart from the site's scripts: only `dreamwiki serve`
// injects it into the pages it serves, and a static build never carries
// it.
//
//go:embed serve
var serveSources embed.FS

// ServeBundle is the serve-mode client: one script and its stylesheet.
type ServeBundle struct {
	JS, CSS []byte
}

var (
	serveOnce sync.Once
	served    ServeBundle
	serveErr  error
)

// Serve bundles the serve-mode client (serve/client.ts and
// serve/client.css), once per process.
func Serve() (ServeBundle, error) {
	serveOnce.Do(func() {
		src, err := fs.Sub(serveSources, "serve")
		if err != nil {
			serveErr = err
			return
		}
		if served.JS, serveErr = bundleOne(src, "client.ts"); serveErr != nil {
			return
		}
		served.CSS, serveErr = bundleOne(src, "client.css")
	})
	return served, serveErr
}

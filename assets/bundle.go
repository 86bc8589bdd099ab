// Package assets holds the site's TypeScript and CSS sources, embedded in
// the binary, and bundles them with esbuild's Go API into minified,
// content-hashed files. No Node is needed to build or run dreamwiki; the
// TypeScript imports nothing from npm.
package assets

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
)

// The top-level .ts and .css files are entry points; folders hold the
// modules they import (ui/ and graph/ for the scripts, css/ for the
// styles, search/ for the search client).
//
//go:embed *.ts *.css ui graph css search
var sources embed.FS

// highlightModule is the stylesheet import that esbuild resolves to the
// chroma rules for highlighted code, generated in Go so the CSS matches the
// classes the Markdown engine writes.
const highlightModule = "chroma.css"

// Chroma styles for code in light and dark mode.
const (
	lightCodeStyle = "github"
	darkCodeStyle  = "github-dark"
)

// File is one bundled output.
type File struct {
	// Name is the content-hashed file name, e.g. "main.3f2a9c1b.js".
	Name string
	Data []byte
}

// Bundle is the result of bundling every entry point.
type Bundle struct {
	// Files are sorted by Name.
	Files []File
	// Names maps an entry point ("main.ts", "style.css") to its hashed name.
	Names map[string]string
}

// ContentPageScripts are the entry points every content page loads; their
// gzipped total is held under 40 KB by a test. graph.ts loads on demand.
var ContentPageScripts = []string{"main.ts"}

var (
	once   sync.Once
	cached Bundle
	errB   error
)

// Build bundles the embedded sources. The sources are constant for a
// binary, so the result is computed once per process.
func Build() (Bundle, error) {
	once.Do(func() { cached, errB = bundle() })
	return cached, errB
}

func bundle() (Bundle, error) {
	var src fs.FS = sources
	top, err := fs.ReadDir(src, ".")
	if err != nil {
		return Bundle{}, err
	}
	b := Bundle{Names: map[string]string{}}
	for _, de := range top {
		entry := de.Name()
		if de.IsDir() || !(strings.HasSuffix(entry, ".ts") || strings.HasSuffix(entry, ".css")) {
			continue
		}
		if strings.HasSuffix(entry, "_test.ts") {
			continue
		}
		data, err := bundleOne(src, entry)
		if err != nil {
			return Bundle{}, err
		}
		sum := sha256.Sum256(data)
		ext := path.Ext(entry)
		if ext == ".ts" {
			ext = ".js"
		}
		name := strings.TrimSuffix(entry, path.Ext(entry)) + "." + hex.EncodeToString(sum[:])[:10] + ext
		b.Files = append(b.Files, File{Name: name, Data: data})
		b.Names[entry] = name
	}
	sort.Slice(b.Files, func(i, j int) bool { return b.Files[i].Name < b.Files[j].Name })
	return b, nil
}

// bundleOne runs esbuild on one entry point, resolving imports from the
// embedded file system through a plugin.
func bundleOne(src fs.FS, entry string) ([]byte, error) {
	plugin := api.Plugin{
		Name: "embedded",
		Setup: func(pb api.PluginBuild) {
			pb.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				p := a.Path
				if strings.HasPrefix(p, "data:") {
					// Icons inlined in the CSS stay as written.
					return api.OnResolveResult{Path: p, External: true}, nil
				}
				if p == highlightModule {
					return api.OnResolveResult{Path: highlightModule, Namespace: "generated"}, nil
				}
				if a.Importer != "" {
					p = path.Join(path.Dir(a.Importer), p)
				}
				p = path.Clean(strings.TrimPrefix(p, "/"))
				if _, err := fs.Stat(src, p); err != nil {
					if _, err2 := fs.Stat(src, p+".ts"); err2 == nil {
						p += ".ts"
					} else {
						return api.OnResolveResult{}, fmt.Errorf("cannot resolve %q from %q", a.Path, a.Importer)
					}
				}
				return api.OnResolveResult{Path: p, Namespace: "embedded"}, nil
			})
			pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "generated"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				css := markdown.HighlightCSS(lightCodeStyle, darkCodeStyle)
				return api.OnLoadResult{Contents: &css, Loader: api.LoaderCSS}, nil
			})
			pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "embedded"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				data, err := fs.ReadFile(src, a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				s := string(data)
				loader := api.LoaderTS
				if strings.HasSuffix(a.Path, ".css") {
					loader = api.LoaderCSS
				}
				return api.OnLoadResult{Contents: &s, Loader: loader}, nil
			})
		},
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{entry},
		Bundle:            true,
		Write:             false,
		Outdir:            "out",
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsNone,
		Plugins:           []api.Plugin{plugin},
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		m := res.Errors[0]
		loc := ""
		if m.Location != nil {
			loc = fmt.Sprintf("%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column)
		}
		return nil, fmt.Errorf("bundling assets: %s%s", loc, m.Text)
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".map") {
			continue
		}
		return f.Contents, nil
	}
	return nil, fmt.Errorf("bundling assets: esbuild wrote nothing for %s", entry)
}

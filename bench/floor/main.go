// Command floor measures the least a build with dreamwiki's output could
// cost: given the output of a `dreamwiki build` (OUT/site and OUT/vault),
// it times only the work no implementation of that output can skip, each
// phase on all cores, with the same libraries:
//
//   - markdown: plain goldmark (GFM and footnotes, Hugo's defaults)
//     turning every vault note into HTML, once;
//   - template: html/template putting each note's HTML into a one-line
//     page (title and content);
//   - write: writing every file of OUT to a fresh folder through
//     internal/output (three system calls per file).
//
// The sum is a floor for `dreamwiki build` on that workspace: no
// provenance, links, claim cards, search index, twins' rewriting or
// garbage collection between phases is counted. bench/compare.sh prints it
// next to Hugo's time (FLOOR=1).
//
//	go run ./bench/floor OUT SCRATCH
package main

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
)

type file struct {
	name string
	data []byte
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor OUT SCRATCH   (OUT: a dreamwiki build's output; SCRATCH: an empty folder to write to)")
		os.Exit(2)
	}
	out, scratch := os.Args[1], os.Args[2]
	files, err := load(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	var notes []file
	var bytesOut int
	for _, f := range files {
		bytesOut += len(f.data)
		if strings.HasPrefix(f.name, "vault/") && strings.HasSuffix(f.name, ".md") {
			notes = append(notes, f)
		}
	}
	fmt.Printf("%d files (%d MB), %d vault notes, %d cores\n", len(files), bytesOut>>20, len(notes), runtime.GOMAXPROCS(0))

	workers := runtime.GOMAXPROCS(0)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))
	html := make([][]byte, len(notes))
	var total phaseTime
	total.add(phase("markdown", func() {
		parallel.For(len(notes), workers, func(i int) {
			var b bytes.Buffer
			if err := md.Convert(notes[i].data, &b); err != nil {
				panic(err)
			}
			html[i] = b.Bytes()
		})
	}))
	page := template.Must(template.New("page").Parse(`<!doctype html><html><head><meta charset="utf-8"><title>{{.Title}}</title></head><body><main><h1>{{.Title}}</h1>{{.Content}}</main></body></html>`))
	total.add(phase("template", func() {
		parallel.For(len(notes), workers, func(i int) {
			var b bytes.Buffer
			data := struct {
				Title   string
				Content template.HTML
			}{filepath.Base(notes[i].name), template.HTML(html[i])}
			if err := page.Execute(&b, data); err != nil {
				panic(err)
			}
		})
	}))
	w := output.NewDir(scratch)
	total.add(phase("write", func() {
		parallel.For(len(files), workers, func(i int) {
			if err := w.WriteFile(files[i].name, files[i].data); err != nil {
				panic(err)
			}
		})
	}))
	fmt.Printf("%-9s %6.2f s wall %6.2f s CPU\n", "floor", total.wall.Seconds(), total.cpu.Seconds())
}

// load reads every regular file under root, named relative to it.
func load(root string) ([]file, error) {
	var files []file
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, file{filepath.ToSlash(rel), data})
		return nil
	})
	return files, err
}

type phaseTime struct{ wall, cpu time.Duration }

func (t *phaseTime) add(u phaseTime) { t.wall += u.wall; t.cpu += u.cpu }

// phase runs fn after a full GC (so no phase pays for another's garbage)
// and prints its wall and CPU time.
func phase(name string, fn func()) phaseTime {
	runtime.GC()
	start, cpu0 := time.Now(), cpuTime()
	fn()
	t := phaseTime{time.Since(start), cpuTime() - cpu0}
	fmt.Printf("%-9s %6.2f s wall %6.2f s CPU\n", name, t.wall.Seconds(), t.cpu.Seconds())
	return t
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

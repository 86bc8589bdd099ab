// Package deploy writes ready-made CI configurations that check, build and
// publish a workspace's wiki: a GitHub Actions workflow for GitHub Pages, a
// netlify.toml, and a GitLab Pages job. Each runs `dreamwiki check
// --strict` as a gate, builds with the host's base URL (so every page
// works under a sub-path such as /repo/), and deploys.
package deploy

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// Module is dreamwiki's module path, what CI installs.
const Module = "github.com/dreamwiki/dreamwiki"

// Target is one CI host.
type Target struct {
	// Name is what init-ci takes: github, netlify, gitlab.
	Name string
	// Path is where the configuration goes, relative to the repository.
	Path string
	file string
}

// Targets are the hosts init-ci writes for, in the order --help lists them.
var Targets = []Target{
	{Name: "github", Path: ".github/workflows/dreamwiki.yml", file: "github.yml"},
	{Name: "netlify", Path: "netlify.toml", file: "netlify.toml"},
	{Name: "gitlab", Path: ".gitlab-ci.yml", file: "gitlab.yml"},
}

// Options fill in a configuration.
type Options struct {
	// Workspace is the workspace folder, relative to the repository root;
	// "" means the root.
	Workspace string
	// Branch is the branch that publishes (GitHub); "" means main.
	Branch string
	// Version is the dreamwiki version CI installs; "" means latest.
	Version string
	// GoVersion is the Go toolchain CI uses, such as 1.26.8.
	GoVersion string
}

//go:embed templates
var templates embed.FS

// safe is what a workspace path or branch may hold: it is written into
// YAML and shell lines, where quotes, spaces and $ would change them.
var safe = regexp.MustCompile(`^[A-Za-z0-9._/-]+$`)

// Lookup returns the target named name.
func Lookup(name string) (Target, error) {
	for _, t := range Targets {
		if t.Name == name {
			return t, nil
		}
	}
	return Target{}, fmt.Errorf("no CI target %q; choose github, netlify or gitlab", name)
}

// Render returns the configuration for t.
func (t Target) Render(o Options) ([]byte, error) {
	if o.Workspace == "" {
		o.Workspace = "."
	}
	ws := path.Clean(filepath.ToSlash(o.Workspace))
	if !safe.MatchString(ws) || path.IsAbs(ws) || ws == ".." || strings.HasPrefix(ws, "../") {
		return nil, fmt.Errorf("workspace %q must be a folder inside the repository, such as . or memory-wiki (letters, digits, . _ - /)", o.Workspace)
	}
	o.Workspace = ws
	if o.Branch == "" {
		o.Branch = "main"
	}
	if !safe.MatchString(o.Branch) {
		return nil, fmt.Errorf("branch %q holds characters a workflow cannot carry", o.Branch)
	}
	if o.Version == "" {
		o.Version = "latest"
	}
	text, err := fs.ReadFile(templates, "templates/"+t.file)
	if err != nil {
		return nil, err
	}
	tmpl, err := template.New(t.file).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = tmpl.Execute(&b, struct {
		Options
		Module string
	}{o, Module})
	return b.Bytes(), err
}

// ErrExists is Write's error for a configuration already there.
var ErrExists = errors.New("already exists")

// Write writes t's configuration into the repository at root and returns
// its path. An existing file is kept (ErrExists) unless replace is set;
// then it is first copied to <file>.bak. The file appears whole or not at
// all: it is written beside its place and renamed in.
func (t Target) Write(root string, o Options, replace bool) (string, error) {
	data, err := t.Render(o)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(root, filepath.FromSlash(t.Path))
	old, err := os.ReadFile(dst)
	switch {
	case err == nil && !replace:
		return dst, fmt.Errorf("%s %w; --force replaces it (the old file is kept as %s.bak)", dst, ErrExists, filepath.Base(dst))
	case err == nil:
		if err := os.WriteFile(dst+".bak", old, 0o644); err != nil {
			return dst, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return dst, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return dst, err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.tmp")
	if err != nil {
		return dst, err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return dst, err
}

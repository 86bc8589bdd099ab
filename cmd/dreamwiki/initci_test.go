package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// ciWorkspace is a small workspace that passes check --strict.
var ciWorkspace = map[string]string{
	"mem/MEMORY.md":            "# Memory\n\n## Hosts\n- Gateway host is the NUC. Source: memory/2026-11-03.md#L3-L3\n",
	"mem/memory/2026-11-03.md": "# 2026-11-03\n\n- The gateway host is the NUC now.\n",
}

// ciRun runs the shell lines a generated configuration runs, in the
// repository root, with this test binary as dreamwiki on PATH. The line
// that installs dreamwiki is left out: the module is installed from the
// network there.
func ciRun(t *testing.T, root string, lines []string, env ...string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "dreamwiki")); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "go install ") {
			continue
		}
		cmd := exec.Command("sh", "-c", l)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", l, err, out)
		}
	}
}

func ciRepo(t *testing.T, target string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range ciWorkspace {
		writeTestFile(t, root, p, text)
	}
	if code := run([]string{"init-ci", target, "-C", root, "--workspace", "mem"}, io.Discard, os.Stderr); code != 0 {
		t.Fatalf("init-ci %s: exit %d", target, code)
	}
	return root
}

func writeTestFile(t *testing.T, root, p, text string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// assertSubPathSite checks the published folder: an index whose links
// carry the sub-path the host serves it under.
func assertSubPathSite(t *testing.T, dir, base string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatalf("no site was published: %v", err)
	}
	if !strings.Contains(string(b), base) {
		t.Errorf("the published index does not carry its base URL %s", base)
	}
}

func TestInitCI_NetlifyConfigBuildsLocally(t *testing.T) {
	root := ciRepo(t, "netlify")
	var cfg struct {
		Build struct {
			Command, Publish string
			Environment      map[string]string
		}
	}
	if _, err := toml.DecodeFile(filepath.Join(root, "netlify.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cfg.Build.Command, "check \"$DREAMWIKI_WORKSPACE\" --strict &&") {
		t.Errorf("the build does not gate on check --strict: %s", cfg.Build.Command)
	}
	ciRun(t, root, strings.Split(cfg.Build.Command, " && "),
		"DREAMWIKI_WORKSPACE="+cfg.Build.Environment["DREAMWIKI_WORKSPACE"], "URL=https://memory-wiki.netlify.app")
	assertSubPathSite(t, filepath.Join(root, cfg.Build.Publish), "https://memory-wiki.netlify.app/")
}

func TestInitCI_GitLabJobBuildsUnderItsSubPath(t *testing.T) {
	root := ciRepo(t, "gitlab")
	var cfg struct {
		Pages struct {
			Variables map[string]string
			Script    []string
			Artifacts struct{ Paths []string }
		}
	}
	b, _ := os.ReadFile(filepath.Join(root, ".gitlab-ci.yml"))
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	ciRun(t, root, cfg.Pages.Script, "DREAMWIKI_WORKSPACE="+cfg.Pages.Variables["DREAMWIKI_WORKSPACE"], "CI_PAGES_URL=https://team.gitlab.io/memory")
	assertSubPathSite(t, filepath.Join(root, cfg.Pages.Artifacts.Paths[0]), "https://team.gitlab.io/memory/")
}

func TestInitCI_GitHubWorkflowChecksBuildsAndDeploys(t *testing.T) {
	root := ciRepo(t, "github")
	var wf struct {
		Env  map[string]string
		Jobs map[string]struct {
			Needs any
			Steps []struct {
				ID, Uses, Run string
				With          map[string]string
			}
		}
	}
	b, _ := os.ReadFile(filepath.Join(root, ".github", "workflows", "dreamwiki.yml"))
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	var runs, uses []string
	for _, s := range wf.Jobs["build"].Steps {
		if s.Run != "" {
			// The Pages base URL is an expression GitHub fills in.
			runs = append(runs, strings.ReplaceAll(s.Run, "${{ steps.pages.outputs.base_url }}", "https://sam.github.io/memory"))
		}
		if s.Uses != "" {
			uses = append(uses, s.Uses)
		}
	}
	for _, s := range wf.Jobs["deploy"].Steps {
		uses = append(uses, s.Uses)
	}
	if !strings.Contains(strings.Join(uses, " "), "actions/deploy-pages@") || !strings.Contains(strings.Join(uses, " "), "actions/upload-pages-artifact@") {
		t.Errorf("the workflow does not deploy to Pages: %v", uses)
	}
	ciRun(t, root, runs, "DREAMWIKI_WORKSPACE="+wf.Env["DREAMWIKI_WORKSPACE"])
	assertSubPathSite(t, filepath.Join(root, "dist", "site"), "https://sam.github.io/memory/")
}

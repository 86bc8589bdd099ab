package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
)

// The explorer (the left sidebar) shows, in each page's HTML, only the
// branch that leads to the page: the top-level folders, each folder on the
// way open with what it directly holds, and the page itself. The whole
// tree is written once, to a content-hashed script (treeData) that
// assets/ui/explorer.ts loads to open any other folder. Repeating the
// whole tree on every page made a 2,800-note workspace's site 700 MB.

// navLimit caps how many sub-folders, and how many notes, of one folder
// the explorer lists in a page's HTML; the rest are a click away (on the
// folder page without JavaScript, in place with it). The folder or note
// on the way to the current page is always listed.
const navLimit = 20

// navTopLimit caps the top-level folders listed: they are on every page,
// and a workspace may have hundreds.
const navTopLimit = 12

// navSentinel stands for the explorer while a folder's chrome is rendered;
// each page puts its own branch in its place (see pageLeft).
const navSentinel = "\x00explorer\x00"

// navHTML renders the explorer of pages in dir; current is the page it is
// rendered for ("" for the folder's shared explorer, which decides when a
// folder's chrome must be rendered again). The current page is listed in
// its folder even past navLimit, and marked.
func (s *site) navHTML(dir, current string) template.HTML {
	var b strings.Builder
	b.WriteString("<ul>")
	if root := s.folders[""]; root != nil {
		s.navFolder(&b, root, dir, current)
	}
	b.WriteString("</ul>")
	return template.HTML(b.String()) //nolint:gosec // escaped while built
}

// onBranch reports whether folder f is open dir or one of its ancestors.
func onBranch(f, open string) bool {
	return f == "" || open == f || strings.HasPrefix(open, f+"/")
}

// navRel is the shortest URL of target (a root-relative path) from a page
// in dir: the explorer's links are most of its bytes, and on every page.
func navRel(dir, target string) string {
	var from []string
	if dir != "" {
		from = strings.Split(dir, "/")
	}
	to := strings.Split(target, "/")
	k := 0
	for k < len(from) && k < len(to)-1 && from[k] == to[k] {
		k++
	}
	return strings.Repeat("../", len(from)-k) + escapePath(strings.Join(to[k:], "/"))
}

func (s *site) navFolder(b *strings.Builder, f *folder, open, current string) {
	// Sub-folders: the first navLimit, and the one on the branch.
	shown := 0
	for i, sub := range f.Folders {
		branch := onBranch(sub, open)
		listed := i < navLimit
		if f.Path == "" {
			listed = s.topFolders[sub]
		}
		if !listed && !branch {
			continue
		}
		shown++
		sf := s.folders[sub]
		if branch {
			fmt.Fprintf(b, `<li><details open data-folder="%s"><summary>%s<span class="count">%d</span></summary><ul>`, esc(sub), esc(sf.Title), sf.Count)
			s.navFolder(b, sf, open, current)
			b.WriteString("</ul></details></li>")
			continue
		}
		// No data-folder here: closed folders are most of the explorer's
		// bytes, and the script reads the folder from the link.
		fmt.Fprintf(b, `<li><a class="folder" href="%s">%s<span class="count">%d</span></a></li>`, esc(navRel(open, sub+"/index.html")), esc(sf.Title), sf.Count)
	}
	if shown < len(f.Folders) {
		list := indexOf(f.Path)
		if f.Path == "" {
			list = foldersPage
		}
		fmt.Fprintf(b, `<li><a class="more" data-more="folders" href="%s">All %d folders…</a></li>`, esc(navRel(open, list)), len(f.Folders))
	}
	// Notes: the first navLimit, and the current page. The top level
	// lists only the current page: the home page lists the others, and
	// the explorer stays short.
	limit := navLimit
	if f.Path == "" {
		limit = 0
	}
	shown = 0
	for i, n := range f.Notes {
		p := s.pages[n]
		if i >= limit && p != current {
			continue
		}
		shown++
		if p == current {
			fmt.Fprintf(b, `<li><a href="%s" aria-current="page">%s</a></li>`, esc(navRel(open, p)), esc(n.Title))
			continue
		}
		fmt.Fprintf(b, `<li><a href="%s">%s</a></li>`, esc(navRel(open, p)), esc(n.Title))
	}
	if f.Path != "" && shown < len(f.Notes) {
		fmt.Fprintf(b, `<li><a class="more" data-more="notes" href="%s">All %d notes…</a></li>`, esc(navRel(open, indexOf(f.Path))), len(f.Notes))
	}
}

// topFolders are the top-level folders the explorer lists on every page
// (with the one on a page's branch): those the home page shows.
func topFolders(folders map[string]*folder) map[string]bool {
	top := map[string]bool{}
	if folders[""] != nil {
		for _, f := range homeFolders(folders) {
			top[f] = true
		}
	}
	return top
}

// indexOf is the page of folder dir's listing.
func indexOf(dir string) string {
	if dir == "" {
		return "index.html"
	}
	return dir + "/index.html"
}

// pageLeft is the left sidebar of page in dir: its folder's chrome with
// the page's own branch, in which the page is listed and marked.
func (s *site) pageLeft(c chrome, dir, page string) template.HTML {
	if c.leftPost == "" && c.leftPre == "" {
		return c.Left
	}
	return template.HTML(c.leftPre + string(s.navHTML(dir, page)) + c.leftPost) //nolint:gosec // both parts rendered by html/template
}

// treeNode is one folder of the tree script: its title, path, note count,
// sub-folders, and notes as [title, file name in the folder].
type treeNode struct {
	Title   string      `json:"t"`
	Path    string      `json:"p"`
	Count   int         `json:"c"`
	Folders []*treeNode `json:"f,omitempty"`
	Notes   [][2]string `json:"n,omitempty"`
}

// treeData builds the whole explorer tree, as the script
// assets/ui/explorer.ts loads, and its content-hashed root-relative path.
// It holds the published notes only (the site is built from them) in the
// explorer's order, so its bytes are the same on every build of the same
// vault. It is a script rather than JSON so that it loads from file://.
func (s *site) treeData() (name string, data []byte) {
	var node func(dir string) *treeNode
	node = func(dir string) *treeNode {
		f := s.folders[dir]
		t := &treeNode{Title: f.Title, Path: dir, Count: f.Count}
		for _, sub := range f.Folders {
			t.Folders = append(t.Folders, node(sub))
		}
		for _, n := range f.Notes {
			p := s.pages[n]
			if dir != "" {
				p = p[len(dir)+1:]
			}
			t.Notes = append(t.Notes, [2]string{n.Title, p})
		}
		return t
	}
	var root *treeNode
	if s.folders[""] != nil {
		root = node("")
	}
	j, err := json.Marshal(root)
	if err != nil {
		j = []byte("null") // strings and ints only: cannot fail
	}
	data = make([]byte, 0, len(j)+32)
	data = append(data, "window.dreamwikiTree="...)
	data = append(data, j...)
	data = append(data, ";\n"...)
	sum := sha256.Sum256(data)
	return "assets/tree." + hex.EncodeToString(sum[:5]) + ".js", data
}

// renderNav renders the explorer once per folder (the branch to the
// folder, see navHTML) and each folder's chrome (the layout parts its
// pages share), and makes the whole tree's script.
func (s *site) renderNav() {
	s.treeName, s.tree = s.treeData()
	s.topFolders = topFolders(s.folders)
	s.navByDir = make(map[string]template.HTML, len(s.folders))
	s.chromeByDir = make(map[string]chrome, len(s.folders))
	s.chromeErr = nil
	for dir := range s.folders {
		nav := s.navHTML(dir, "")
		s.navByDir[dir] = nav
		c, err := s.renderChrome(dir, nav)
		if err != nil {
			s.chromeErr = err // reported by the first page rendered
		}
		s.chromeByDir[dir] = c
	}
}

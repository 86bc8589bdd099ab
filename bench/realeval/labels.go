package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Item kinds, and the verdicts that count as right for each.
const (
	KindPromoted      = "promoted"      // keep / junk
	KindClaim         = "claim"         // claim / not-claim
	KindContradiction = "contradiction" // real / noise
	KindEvidence      = "evidence"      // supports / not
)

var goodVerdict = map[string]string{
	KindPromoted: "keep", KindClaim: "claim", KindContradiction: "real", KindEvidence: "supports",
}

var verdicts = map[string][]string{
	KindPromoted:      {"keep", "junk"},
	KindClaim:         {"claim", "not-claim"},
	KindContradiction: {"real", "noise"},
	KindEvidence:      {"supports", "not"},
}

// Item is one thing to judge: a promoted line, a claim, a contradiction
// or an evidence link. Key is the SHA-256 labels name it by; KeyPath the
// path column of labels.tsv (a hash of the workspace path, never the
// path: a note's name can say what is in it).
type Item struct {
	Workspace string
	Path      string // workspace path, for the person labelling (never committed)
	KeyPath   string
	Key       string
	Kind      string
	Text      string // never committed
	sourced   bool   // a promoted line whose source was found
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// pathKey is how labels.tsv names a workspace path: "p:" and 16 hex
// digits of its SHA-256.
func pathKey(p string) string { return "p:" + sha(p)[:16] }

// Label is one row of labels.tsv.
type Label struct {
	Workspace, Path, Key, Kind, Verdict, Category string
}

type labelSet map[string]Label // by labelID

func labelID(ws, kind, key string) string { return ws + "\x00" + kind + "\x00" + key }

// readLabels reads labels.tsv: workspace, path, sha256, kind, verdict,
// category. A missing file is an empty set.
func readLabels(path string) (labelSet, error) {
	set := labelSet{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return set, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		c := strings.Split(sc.Text(), "\t")
		if n == 1 || len(c) == 0 || strings.HasPrefix(c[0], "#") || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if len(c) < 6 {
			return nil, fmt.Errorf("%s:%d: %d columns; want 6 (workspace, path, sha256, kind, verdict, category)", path, n, len(c))
		}
		l := Label{c[0], c[1], c[2], c[3], c[4], c[5]}
		if !validVerdict(l.Kind, l.Verdict) {
			return nil, fmt.Errorf("%s:%d: verdict %q is not one for kind %q (%s)", path, n, l.Verdict, l.Kind, strings.Join(verdicts[l.Kind], ", "))
		}
		set[labelID(l.Workspace, l.Kind, l.Key)] = l
	}
	return set, sc.Err()
}

func validVerdict(kind, v string) bool {
	for _, ok := range verdicts[kind] {
		if v == ok {
			return true
		}
	}
	return false
}

func (s labelSet) of(it Item) (Label, bool) {
	l, ok := s[labelID(it.Workspace, it.Kind, it.Key)]
	return l, ok
}

const labelsHeader = "workspace\tpath\tsha256\tkind\tverdict\tcategory"

// writeLabels writes the set sorted, so that labels.tsv diffs stay small.
func writeLabels(path string, s labelSet) error {
	var rows []Label
	for _, l := range s {
		rows = append(rows, l)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Workspace != b.Workspace {
			return a.Workspace < b.Workspace
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Key < b.Key
	})
	var sb strings.Builder
	sb.WriteString(labelsHeader + "\n")
	for _, l := range rows {
		fmt.Fprintf(&sb, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Workspace, l.Path, l.Key, l.Kind, l.Verdict, l.Category)
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

const toLabelHeader = "workspace\tpath\tkey_path\tsha256\tkind\ttext\tverdict\tcategory"

// oneLine keeps a text on one TSV line.
func oneLine(s string) string {
	return strings.NewReplacer("\t", "  ", "\r", "", "\n", " ⏎ ").Replace(s)
}

// writeToLabel writes the items that have no label yet, with their text,
// for a person to fill in the verdict and category columns. The file
// lives outside the repository: it holds the workspace's text.
func writeToLabel(path string, items []Item) error {
	var sb strings.Builder
	sb.WriteString(toLabelHeader + "\n")
	for _, it := range items {
		fmt.Fprintf(&sb, "%s\t%s\t%s\t%s\t%s\t%s\t\t\n", it.Workspace, oneLine(it.Path), it.KeyPath, it.Key, it.Kind, oneLine(it.Text))
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

// importLabels adds the filled-in rows of to-label files to labels.tsv,
// dropping their text and their paths.
func importLabels(labelsPath string, files []string) (int, error) {
	set, err := readLabels(labelsPath)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return n, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<22), 1<<22)
		line := 0
		for sc.Scan() {
			line++
			c := strings.Split(sc.Text(), "\t")
			if line == 1 || len(c) < 8 || strings.TrimSpace(c[6]) == "" {
				continue
			}
			l := Label{Workspace: c[0], Path: c[2], Key: c[3], Kind: c[4], Verdict: strings.TrimSpace(c[6]), Category: strings.TrimSpace(c[7])}
			if !validVerdict(l.Kind, l.Verdict) {
				f.Close()
				return n, fmt.Errorf("%s:%d: verdict %q is not one for kind %q (%s)", p, line, l.Verdict, l.Kind, strings.Join(verdicts[l.Kind], ", "))
			}
			set[labelID(l.Workspace, l.Kind, l.Key)] = l
			n++
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return n, err
		}
	}
	return n, writeLabels(labelsPath, set)
}

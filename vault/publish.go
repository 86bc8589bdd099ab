package vault

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The written vault is read by Obsidian, and published by Obsidian
// Publish, Quartz and our own site, which resolve and show names each in
// its own way. What the vault writes is what they all read alike:
//
//   - A link names its target by the bare name only when no other file,
//     and no alias, has that name; otherwise by its path from the vault
//     root, never relative to the note (Quartz resolves Markdown paths
//     from the root, Obsidian tries the root first). Names are compared
//     as Quartz makes them into URLs (spaces become "-", "#" and "?" are
//     dropped), ignoring case: Quartz matches case, Obsidian does not.
//   - Aliases are short names a person would type: they become root-level
//     redirect pages in Quartz, so an alias that two notes share, or that
//     is also a file's name, is left out, and so is one holding a
//     character that breaks a link or a file name.

// Alias limits: an alias is a name, not a sentence.
const (
	aliasMaxRunes = 40
	aliasMaxWords = 5
)

// publishing is the naming the written vault uses, worked out once from
// the whole vault (Vault.publishing).
type publishing struct {
	// names counts the files (notes by their name without ".md", other
	// files with their extension) and kept aliases per name key.
	names map[string]int
	// aliases are the aliases written for each note.
	aliases map[*Note][]string
}

// newPublishing works out which bare names are unique and which aliases
// are kept.
func newPublishing(notes []*Note, assets []*Asset) *publishing {
	pub := &publishing{names: make(map[string]int, len(notes)+len(assets)), aliases: map[*Note][]string{}}
	for _, n := range notes {
		pub.names[nameKey(fileName(n.Path, true))]++
	}
	for _, a := range assets {
		pub.names[nameKey(fileName(a.Path, false))]++
	}
	owners := map[string]int{}
	candidates := make(map[*Note][]string, len(notes))
	for _, n := range notes {
		seen := map[string]bool{}
		aliases, _ := n.Props.Get("aliases").([]string)
		for _, a := range aliases {
			a = strings.TrimSpace(a)
			k := nameKey(a)
			if !aliasOK(a) || seen[k] {
				continue
			}
			seen[k] = true
			owners[k]++
			candidates[n] = append(candidates[n], a)
		}
	}
	for n, as := range candidates {
		for _, a := range as {
			if k := nameKey(a); owners[k] == 1 && pub.names[k] == 0 {
				pub.aliases[n] = append(pub.aliases[n], a)
			}
		}
	}
	return pub
}

// target is how a link in the written vault names the file at p (a note
// when note is true): its bare name when it is unique, else its path from
// the root; notes without ".md".
func (pub *publishing) target(p string, note bool) string {
	name := fileName(p, note)
	if pub.names[nameKey(name)] == 1 {
		return name
	}
	if note {
		return strings.TrimSuffix(p, ".md")
	}
	return p
}

// fileName is the name a link gives the file at p: a note's file name
// without ".md", another file's with its extension.
func fileName(p string, note bool) string {
	base := path.Base(p)
	if note {
		return strings.TrimSuffix(base, ".md")
	}
	return base
}

// nameKey is the form names are compared in: the URL segment Quartz 4.5
// makes of a name (its slugifyFilePath), in Unicode NFC, lower-cased.
func nameKey(s string) string {
	s = norm.NFC.String(strings.TrimSpace(s))
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('-')
		case r == '&':
			b.WriteString("-and-")
		case r == '%':
			b.WriteString("-percent")
		case r == '?' || r == '#':
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// aliasOK reports whether a is an alias a person would type and every
// reader can use: a short name with a letter in it, and no character
// that ends a link, starts a heading or block reference, or cannot be in
// a file name (Quartz writes each alias as a file).
func aliasOK(a string) bool {
	if a == "" || utf8.RuneCountInString(a) > aliasMaxRunes || len(strings.Fields(a)) > aliasMaxWords {
		return false
	}
	if strings.ContainsAny(a, `[]|#^\/:*?"<>%`) || strings.HasPrefix(a, ".") || strings.HasSuffix(a, ".") {
		return false
	}
	letter := false
	for _, r := range a {
		if unicode.IsControl(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
	}
	return letter
}

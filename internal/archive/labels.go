package archive

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// labels names groups and topics from archives/archive-config.json the
// way the workspace reader labels them: a group's folder is its "name"
// (else its id), its title its "label"; topics are named by topicNames.
type labels struct {
	cfg *workspace.ArchiveConfig
}

func (l labels) group(id string) workspace.ArchiveGroup {
	if l.cfg != nil {
		if g, ok := l.cfg.Groups[id]; ok {
			return g
		}
	}
	return workspace.ArchiveGroup{}
}

// folder is the group's folder name under archives/<channel>/.
func (l labels) folder(id string) string {
	if n := l.group(id).Name; n != "" {
		return safeName(n)
	}
	return safeName(id)
}

// title is the group's display name.
func (l labels) title(id string) string {
	g := l.group(id)
	switch {
	case g.Label != "":
		return g.Label
	case g.Name != "":
		return g.Name
	}
	return id
}

// topic is a topic's display name: topicNames, else the transcript's
// session name, else "topic <id>".
func (l labels) topic(groupID string, t *topicState) string {
	if l.cfg != nil {
		if n := l.cfg.TopicNames[groupID][t.Topic]; n != "" {
			return n
		}
	}
	if t.Title != "" {
		return t.Title
	}
	return "topic " + t.Topic
}

func (l labels) agent() string {
	if l.cfg != nil && l.cfg.AgentName != "" {
		return l.cfg.AgentName
	}
	return "Assistant"
}

// safeName makes a folder or file name part: the secret guard's name
// redaction, then anything but letters, digits, '.', '_' and '-' becomes
// '-', so an id from a transcript can never climb out of archives/.
func safeName(s string) string {
	s, _ = secrets.RedactName(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r == '.' && b.Len() > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "unnamed"
	}
	return b.String()
}

package build

import (
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
	"github.com/dreamwiki/dreamwiki/vault"
)

// memoryViews gives the site the workspace facts its memory views show
// and the vault does not carry: conversation message counts, days and
// participants. They are
// plain values, so the site still never reads the workspace.
func memoryViews(ws *workspace.Workspace, so *site.Options) {
	for _, c := range ws.Conversations {
		sc := site.Conversation{Channel: c.Channel, Group: c.Group, Label: c.Label, Days: conversationDays(c.Days, func(d *workspace.ConversationDay) bool { return d.Topic == "" })}
		if c.Digest != nil {
			sc.Digest = vault.Layout(c.Digest)
		}
		if c.Index != nil {
			sc.Index = vault.Layout(c.Index)
		}
		for _, t := range c.Topics {
			st := site.ConversationTopic{ID: t.ID, Name: t.Name, Messages: t.Messages, Days: conversationDays(t.Days, nil)}
			if t.File != nil {
				st.Path = vault.Layout(t.File)
			}
			sc.Topics = append(sc.Topics, st)
		}
		so.Conversations = append(so.Conversations, sc)
	}
}

// conversationDays are the raw transcripts of days that keep says to
// (nil: all), as the site shows them.
func conversationDays(days []*workspace.ConversationDay, keep func(*workspace.ConversationDay) bool) []site.ConversationDay {
	var out []site.ConversationDay
	for _, d := range days {
		if keep != nil && !keep(d) {
			continue
		}
		sd := site.ConversationDay{Day: d.Day, Path: vault.Layout(d.File), Messages: d.Messages}
		for _, p := range d.Senders {
			sd.Senders = append(sd.Senders, site.Sender{Name: p.Name, Messages: p.Messages})
		}
		out = append(out, sd)
	}
	return out
}

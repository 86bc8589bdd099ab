package build

import (
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
	"github.com/dreamwiki/dreamwiki/vault"
)

// memoryViews gives the site the workspace facts its memory views show
// and the vault does not carry: conversation message counts. They are
// plain values, so the site still never reads the workspace.
func memoryViews(ws *workspace.Workspace, so *site.Options) {
	for _, c := range ws.Conversations {
		sc := site.Conversation{Channel: c.Channel, Group: c.Group, Label: c.Label}
		if c.Digest != nil {
			sc.Digest = vault.Layout(c.Digest)
		}
		if c.Index != nil {
			sc.Index = vault.Layout(c.Index)
		}
		for _, t := range c.Topics {
			st := site.ConversationTopic{Name: t.Name, Messages: t.Messages}
			if t.File != nil {
				st.Path = vault.Layout(t.File)
			}
			sc.Topics = append(sc.Topics, st)
		}
		so.Conversations = append(so.Conversations, sc)
	}
}

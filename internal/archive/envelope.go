package archive

import (
	"regexp"
	"strings"
)

// OpenClaw hands a group message to the agent wrapped in an envelope: a
// bracketed header naming the channel, group and time, then the sender
// and the text, and sometimes a trailing "[message_id: …]" line:
//
//	[Telegram Homelab Crew id:-1002231457781 topic:7 2026-11-02 08:51 UTC] Rui Costa (4242): offsite backups?
//	[message_id: 318]
//
// The sender is who said it; the envelope itself is routing, not speech.
var (
	envelopeSender = regexp.MustCompile(`^([^:\[\]\n]{1,80}?)(?: \([^()\n]{0,80}\))?: `)
	messageIDLine  = regexp.MustCompile(`(?m)^\[message_id: [^\]\n]*\]\s*$`)
)

// openClawEnvelope returns the sender and the text of an enveloped
// message; ok is false when text has no envelope.
func openClawEnvelope(text string) (sender, rest string, ok bool) {
	if !strings.HasPrefix(text, "[") {
		return "", text, false
	}
	end := strings.IndexByte(text, ']')
	if end < 0 || strings.Contains(text[:end], "\n") {
		return "", text, false
	}
	body := strings.TrimLeft(text[end+1:], " ")
	m := envelopeSender.FindStringSubmatch(body)
	if m == nil {
		return "", text, false
	}
	rest = body[len(m[0]):]
	if strings.Contains(rest, "[message_id:") {
		rest = messageIDLine.ReplaceAllString(rest, "")
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(rest), true
}

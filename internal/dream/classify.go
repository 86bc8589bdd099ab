package dream

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// The four memory types of the "Memory Dream" seed.
const (
	TypeUser      = "user"      // who the user is: role, preferences, people, habits
	TypeFeedback  = "feedback"  // corrections and confirmations of how the agent works
	TypeProject   = "project"   // ongoing work, goals, deadlines, decisions
	TypeReference = "reference" // where information lives: hosts, paths, URLs, commands
)

// cues are the words and phrases that vote for each type. Words are
// matched against the words of the text as analysis.Words gives them (so a
// cue with an apostrophe, which splits words, is a phrase), phrases as
// lower-case substrings; a set lookup per word keeps classification linear and cheap
// (it runs on every line of every log a dream reads).
type cues struct {
	words   map[string]int
	phrases map[string]int
}

func newCues(words, phrases string, weight int) cues {
	c := cues{words: map[string]int{}, phrases: map[string]int{}}
	for _, w := range strings.Fields(words) {
		c.words[w] = weight
	}
	for _, p := range strings.Split(phrases, "|") {
		if p = strings.TrimSpace(p); p != "" {
			c.phrases[p] = weight
		}
	}
	return c
}

var typeCues = map[string]cues{
	// Feedback: the user correcting or confirming how the agent works.
	TypeFeedback: newCues(`dont never always stop instead feedback correction rule lesson`,
		`don't|do not|from now on|next time|too long|too short|too verbose|too wordy|fewer words|keep it |should have|shouldn't have|that worked|worked well|good job|well done|called it out|noted for|asked me|told me|wants me|reminded me|corrected me| me to |my answer|my reply|my summary|my draft|my update|i should|i must |i need to|rule:|why:|how to apply:|下次|不要|别再|以后`, 2),
	// Project: work with a state or a date.
	TypeProject: newCues(`migration migrated cutover deadline due target milestone launch launched release released ship shipped roadmap sprint project decided decision chosen plan planned prep draft kickoff postponed rollout rollback blocked todo done finished completed`,
		`in progress|项目|截止|上线`, 2),
	// Reference: where things live and how to reach them.
	TypeReference: newCues(`runbook dashboard doc docs wiki repo endpoint port command cli config path vault`,
		"http://|https://|lives in|stored in|kept in|token expires|error code|`| ~/", 2),
	// User: the person, their life and tastes.
	TypeUser: newCues(`prefer prefers like likes love loves hate hates dislike dislikes enjoy enjoys allergic birthday lives role partner wife husband family parent parents kid kids learning hobby favorite favourite diet eats timezone vacation holiday reading run runs running`,
		`works at|works as|works from|喜欢|生日|家人`, 2),
}

// classify decides a candidate's memory type. An explicit type written on
// the line ([feedback], #type/feedback, #feedback) wins; otherwise the cues
// above vote (each type once per distinct cue), a structural line (host,
// URL, IP) counts for reference, and a tie or no vote at all goes to
// project: most of what a daily log says is about ongoing work.
func classify(text, typeTag string, tags []string, structural bool) string {
	if t := normType(typeTag); t != "" {
		return t
	}
	for _, tag := range tags {
		if t := normType(strings.TrimPrefix(strings.ToLower(tag), "type/")); t != "" {
			return t
		}
	}
	score := map[string]int{}
	lower := strings.ToLower(text)
	words := analysis.Words(text)
	for typ, c := range typeCues {
		for _, w := range words {
			score[typ] += c.words[w]
		}
		for ph, wt := range c.phrases {
			if strings.Contains(lower, ph) {
				score[typ] += wt
			}
		}
	}
	if hasProgress(text) {
		score[TypeProject] += 2
	}
	if hasCode(text) {
		score[TypeReference]++
	}
	if structural {
		score[TypeReference]++
	}
	best, bestScore := TypeProject, 0
	for _, t := range []string{TypeFeedback, TypeProject, TypeReference, TypeUser} {
		if score[t] > bestScore {
			best, bestScore = t, score[t]
		}
	}
	return best
}

// hasProgress finds "4/14"-style progress counts.
func hasProgress(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] == '/' && s[i-1] >= '0' && s[i-1] <= '9' && s[i+1] >= '0' && s[i+1] <= '9' {
			return true
		}
	}
	return false
}

// hasCode finds error codes and ticket ids: E_AUTH_4031, INC-2291.
func hasCode(s string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' || r == ':' || r == '`' }) {
		if strings.HasPrefix(f, "E_") && len(f) > 3 {
			return true
		}
		if k := strings.IndexByte(f, '-'); k >= 2 && k+2 < len(f) && strings.ToUpper(f[:k]) == f[:k] &&
			strings.Trim(f[:k], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" && strings.Trim(f[k+1:], "0123456789") == "" {
			return true
		}
	}
	return false
}

// normType maps a written type to one of the four ("preference" -> user).
func normType(t string) string {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "user", "preference", "preferences", "person", "people", "profile":
		return TypeUser
	case "feedback", "lesson", "correction":
		return TypeFeedback
	case "project", "task", "decision", "goal":
		return TypeProject
	case "reference", "ref", "pointer", "fact", "infra":
		return TypeReference
	}
	return ""
}

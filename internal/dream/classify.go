package dream

import (
	"regexp"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// The four memory types of the "Memory Dream" seed.
const (
	TypeUser      = "user"      // who the user is: role, preferences, people, habits
	TypeFeedback  = "feedback"  // corrections and confirmations of how the agent works
	TypeProject   = "project"   // ongoing work, goals, deadlines, decisions
	TypeReference = "reference" // where information lives: hosts, paths, URLs, commands
)

// cue is a pattern that votes for a type with a weight.
type cue struct {
	re     *regexp.Regexp
	typ    string
	weight int
}

var typeCues = []cue{
	// Feedback: the user correcting or confirming the agent.
	{regexp.MustCompile(`(?i)\b(?:don'?t|do not|never|always|stop|instead|from now on|next time|too (?:long|short|verbose|wordy)|fewer words|keep it|should(?:n'?t)? have|that worked|worked well|good job|well done|called it out|noted for)\b`), TypeFeedback, 2},
	{regexp.MustCompile(`(?i)\b(?:asked me|told me|wants me|reminded me|corrected me|me to|my (?:answer|reply|summary|draft|update)s?)\b|\bI (?:should|must|need to)\b`), TypeFeedback, 2},
	{regexp.MustCompile(`(?i)\b(?:feedback|correction|rule|lesson)\b|^(?:rule|why|how to apply)\s*:|下次|不要|别再|以后`), TypeFeedback, 3},
	// Project: work with a state or a date.
	{regexp.MustCompile(`(?i)\b(?:migration|migrated|cutover|deadline|due|target|milestone|launch(?:ed)?|release[sd]?|ship(?:ped)?|roadmap|sprint|project|decided|decision|chosen|plan(?:ned)?|prep|draft|kickoff|postponed|rollout|rollback|blocked|in progress|TODO|done|finished|completed)\b|\b\d+/\d+\b|项目|截止|上线`), TypeProject, 2},
	// Reference: where things live and how to reach them.
	{regexp.MustCompile(`(?i)https?://|\b(?:runbook|dashboard|docs?|wiki|repo|endpoint|port|command|cli|config|path|lives in|stored in|kept in|vault|token expires|error code)\b|` + "`" + `|(?:^|\s)(?:~|/)[\w.-]+/`), TypeReference, 2},
	{regexp.MustCompile(`\bE_[A-Z0-9_]+\b|\b[A-Z]{2,}-\d{2,}\b`), TypeReference, 1},
	// User: the person, their life and tastes.
	{regexp.MustCompile(`(?i)\b(?:prefers?|likes?|loves?|hates?|dislikes?|enjoys?|allergic|birthday|lives|works (?:at|as|from)|role|partner|wife|husband|family|parents?|kids?|learning|hobby|favou?rite|diet|eats|timezone|vacation|holiday|reading|runs?|running)\b|喜欢|生日|家人`), TypeUser, 2},
}

// classify decides a candidate's memory type. An explicit type written on
// the line ([feedback], #type/feedback, #feedback) wins; otherwise the cues
// above vote, a structural line (host, URL, IP) counts for reference, and
// a tie or no vote at all goes to project: most of what a daily log says is
// about ongoing work.
func classify(text, typeTag string, tags []string) string {
	if t := normType(typeTag); t != "" {
		return t
	}
	for _, tag := range tags {
		if t := normType(strings.TrimPrefix(strings.ToLower(tag), "type/")); t != "" {
			return t
		}
	}
	score := map[string]int{}
	for _, c := range typeCues {
		if c.re.MatchString(text) {
			score[c.typ] += c.weight
		}
	}
	if memory.IsStructural(text) {
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

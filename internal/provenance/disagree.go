package provenance

// Disagreement is one subject to which two workspaces of a team site give
// different values: two agents who believe different things. It is found
// by the rule that finds a workspace's own contested claims (contests),
// applied to the claims of several workspaces, each read in its own
// context (a key that heads a list in one workspace does not in another).
type Disagreement struct {
	// Subject names the thing and its attribute ("nas model").
	Subject string `json:"subject"`
	// A and B are the two claims; A's workspace comes first in the
	// results given to Disagreements.
	A, B WorkspaceClaim
}

// WorkspaceClaim is a claim with the index of its workspace.
type WorkspaceClaim struct {
	Workspace int
	Claim     *Claim
}

// Disagreements lists the subjects the workspaces of results (one per
// workspace) give different values, in subject order. Only pairs of
// claims in different workspaces are listed: a workspace's own are its
// Contests.
func Disagreements(results []*Result) []Disagreement {
	var facts []fact
	var all []WorkspaceClaim
	for w, r := range results {
		if r == nil {
			continue
		}
		a := &analyzer{claims: r.Claims}
		for _, f := range a.facts(liveClaims(r.Claims)) {
			f.claim += len(all)
			// A bare key is a label of its own workspace: two agents'
			// "Connection:" lines are each about the agent itself.
			f.scope = itoa(w) + "\x00" + f.scope
			facts = append(facts, f)
		}
		for _, c := range r.Claims {
			all = append(all, WorkspaceClaim{Workspace: w, Claim: c})
		}
	}
	var out []Disagreement
	apart := func(x, y fact) bool { return all[x.claim].Workspace != all[y.claim].Workspace }
	disputes(facts, apart, func(i, j int, subject string) {
		out = append(out, Disagreement{Subject: subject, A: all[i], B: all[j]})
	})
	return out
}

package changes

import (
	"slices"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

func claim(id, text string, st provenance.Status) *provenance.Claim {
	return &provenance.Claim{ID: id, Text: text, File: "MEMORY.md", Status: st,
		Evidence: []provenance.Evidence{{Path: "memory/2026-03-01.md", StartLine: 2, EndLine: 3}, {Private: true}}}
}

func TestBetween_NamesEveryKindOfChange(t *testing.T) {
	contested := claim("claim.nuc", "The gateway is the NUC.", provenance.StatusContested)
	contested.Contests = []string{"claim.mini"}
	old := &provenance.Result{Claims: []*provenance.Claim{
		claim("claim.kept", "Same as ever.", provenance.StatusCurrent),
		claim("claim.edit", "Sam likes tea.", provenance.StatusCurrent),
		claim("claim.old-host", "The host is nuc-01.", provenance.StatusCurrent),
		claim("claim.trip", "Kyoto trip in November.", provenance.StatusCurrent),
		contested,
		claim("claim.gone", "Deleted by hand.", provenance.StatusCurrent),
	}}
	superseded := claim("claim.old-host", "The host is nuc-01.", provenance.StatusSuperseded)
	superseded.Chain = []provenance.ChainLink{{Kind: provenance.LinkSupersededBy, Claim: "claim.new-host"}}
	nowContested := claim("claim.kept", "Same as ever.", provenance.StatusContested)
	nowContested.Contests = []string{"claim.other"}
	cur := &provenance.Result{Claims: []*provenance.Claim{
		nowContested,
		claim("claim.edit", "Sam likes green tea.", provenance.StatusCurrent),
		superseded,
		claim("claim.new-host", "The host is the Mac mini.", provenance.StatusCurrent),
		claim("claim.trip", "Kyoto trip in November.", provenance.StatusArchived),
		claim("claim.nuc", "The gateway is the NUC.", provenance.StatusCurrent),
	}}
	got := Between(old, cur)
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, string(c.Kind)+" "+c.Claim)
	}
	want := []string{"added claim.new-host", "changed claim.edit", "superseded claim.old-host", "archived claim.trip",
		"contested claim.kept", "resolved claim.nuc", "removed claim.gone"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("changes\n got %v\nwant %v", kinds, want)
	}
	if got[1].Before != "Sam likes tea." || !slices.Equal(got[1].Evidence, []string{"memory/2026-03-01.md#L2-L3"}) {
		t.Errorf("changed: before %q, evidence %v (private evidence must not be cited)", got[1].Before, got[1].Evidence)
	}
	if !slices.Equal(got[2].Related, []string{"claim.new-host"}) || !slices.Equal(got[5].Related, []string{"claim.mini"}) {
		t.Errorf("related: superseded by %v, resolved contest with %v", got[2].Related, got[5].Related)
	}
	if c := Count(got); len(c) != 7 || c[0] != (KindCount{Added, 1}) {
		t.Errorf("counts %v", c)
	}
}

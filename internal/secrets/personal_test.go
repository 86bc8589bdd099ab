package secrets

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestPersonal_EveryCaseIsFoundAndRedacted(t *testing.T) {
	cases := readCases(t, "testdata/personal.txt")
	if len(cases) < 25 {
		t.Errorf("personal.txt has %d cases, want at least 25", len(cases))
	}
	g := Guard{Personal: true}
	seen := map[Kind]int{}
	for _, c := range cases {
		where := "personal.txt:" + itoa(c.line) + " " + c.name
		var got []Kind
		for _, f := range ScanPersonal(c.text) {
			got = append(got, f.Kind)
			seen[f.Kind]++
			if strings.Contains(f.String(), c.text[f.Start:f.End]) {
				t.Errorf("%s: Finding.String() %q shows the value", where, f.String())
			}
		}
		if !slices.Equal(got, c.kinds) {
			t.Errorf("%s: kinds %v, want %v\n%s", where, got, c.kinds, c.text)
			continue
		}
		red, _ := g.Redact(c.text)
		if c.hasRedac && red != c.redacted {
			t.Errorf("%s: Redact =\n%s\nwant\n%s", where, red, c.redacted)
		}
		if again, _ := g.Redact(red); again != red || len(ScanPersonal(red)) > 0 {
			t.Errorf("%s: redacting again changed the text:\n%s", where, again)
		}
		// Personal data is not a credential: the default guard leaves it.
		if plain, _ := Redact(c.text); plain != c.text && !strings.Contains(c.text, "[REDACTED:") {
			t.Errorf("%s: Redact without Personal changed the text:\n%s", where, plain)
		}
	}
	for _, k := range PersonalKinds() {
		if seen[k] < 3 {
			t.Errorf("personal.txt has %d findings of kind %s, want at least 3", seen[k], k)
		}
	}
}

// TestPersonal_OrdinaryNotesHaveNone runs the detectors over the ordinary
// corpus and the demo workspace: the only personal data there is the
// made-up on-call numbers of ordinary.txt.
func TestPersonal_OrdinaryNotesHaveNone(t *testing.T) {
	b, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range ScanPersonal(string(b)) {
		got = append(got, string(f.Kind)+" "+string(b[f.Start:f.End]))
	}
	if want := []string{"phone +1 555 010 2030", "phone (555) 010-2030"}; !slices.Equal(got, want) {
		t.Errorf("ordinary.txt: personal data %q, want %q", got, want)
	}
	notes, _ := demoNoteFiles(t)
	for name, text := range notes {
		for _, f := range ScanPersonal(text) {
			t.Errorf("demo %s:%d: %s %q", name, f.Line, f.Kind, text[f.Start:f.End])
		}
	}
}

func TestPersonal_RedactNameCoversPersonalData(t *testing.T) {
	g := Guard{Personal: true}
	name, fs := g.RedactName("people/Wang 13912345678.md")
	if name != "people/Wang redacted-phone.md" || len(fs) != 1 {
		t.Errorf("RedactName = %q, %v", name, fs)
	}
	if name, _ := RedactName("people/Wang 13912345678.md"); name != "people/Wang 13912345678.md" {
		t.Errorf("RedactName without Personal = %q", name)
	}
}

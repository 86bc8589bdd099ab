package dates

import (
	"testing"
	"time"
)

func TestResolveYearless_TakesTheNearestYear(t *testing.T) {
	day := func(s string) time.Time {
		d, ok := Parse(s)
		if !ok {
			t.Fatalf("bad date %q", s)
		}
		return d
	}
	for _, tc := range []struct {
		month, day int
		ref, want  string
	}{
		{12, 28, "2027-01-02", "2026-12-28"}, // the New Year case: last week, not next December
		{1, 5, "2026-12-30", "2027-01-05"},   // and the other way: next week, not last January
		{11, 13, "2026-10-12", "2026-11-13"}, // a log plans ahead
		{6, 1, "2026-10-12", "2026-06-01"},   // and looks back
		{10, 21, "2026-10-21", "2026-10-21"},
		{2, 29, "2028-03-01", "2028-02-29"},
	} {
		got, ok := ResolveYearless(tc.month, tc.day, day(tc.ref))
		if !ok || !got.Equal(day(tc.want)) {
			t.Errorf("ResolveYearless(%02d-%02d, %s) = %v %v, want %s", tc.month, tc.day, tc.ref, got.Format(time.DateOnly), ok, tc.want)
		}
	}
	if _, ok := ResolveYearless(2, 30, day("2026-01-01")); ok {
		t.Error("02-30 is no day")
	}
	if _, ok := ResolveYearless(12, 28, time.Time{}); ok {
		t.Error("without a reference date a year-less date stays unresolved")
	}
}

func TestAt_ISODatesAndNothingLonger(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" for none
	}{
		{"2026-04-27", "2026-04-27"},
		{"2026/04/27 notes", "2026-04-27"},
		{"2026.04.27", "2026-04-27"},
		{"2026-04/27", ""},
		{"2026-04-270", ""},
		{"2026-02-30", ""},
		{"1899-01-01", ""},
	} {
		got, n, ok := At(tc.in, 0)
		if tc.want == "" {
			if ok {
				t.Errorf("At(%q) = %v, want no date", tc.in, got)
			}
			continue
		}
		if !ok || n != 10 || got.Format(time.DateOnly) != tc.want {
			t.Errorf("At(%q) = %v %d %v, want %s", tc.in, got, n, ok, tc.want)
		}
	}
}

func TestTimestamp_StateFileForms(t *testing.T) {
	want := time.Date(2026, 4, 2, 7, 0, 0, 0, time.UTC)
	for _, in := range []string{"2026-04-02T07:00:00Z", "2026-04-02T07:00:00.000Z", "2026-04-02 07:00:00", "1775113200", "1775113200000"} {
		if got, ok := Timestamp(in); !ok || !got.Equal(want) {
			t.Errorf("Timestamp(%q) = %v %v, want %v", in, got, ok, want)
		}
	}
}

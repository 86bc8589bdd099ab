package dates

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFind_EveryFormResolves(t *testing.T) {
	ref := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ in, want string }{
		{"on 2026-10-21 at noon", "2026-10-21"},
		{"2026/10/21", "2026-10-21"},
		{"October 21st", "2026-10-21"},
		{"Oct. 21, 2025", "2025-10-21"},
		{"the 21st of October", "2026-10-21"},
		{"2026年10月21日", "2026-10-21"},
		{"10月21日に", "2026-10-21"},
		{"back on 10-21", "2026-10-21"},
		{"2026-10-21 and 2026-10-22", "2026-10-21 2026-10-22"},
		{"10.0.0.12", ""},
		{"v1.2.3", ""},
		{"22:00–08:00", ""},
		{"4/14 done", ""},
		{"#L3-L6", ""},
		{"2026-02-30", ""},
		{"page 21 of 300", ""},
	} {
		var got []string
		for _, d := range Find(tc.in, ref) {
			got = append(got, d.Format("2006-01-02"))
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Find(%q) = %v, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{"2026-10-21", "Oct 21", "10月21日", "1-2-3-4", "2026-1-1-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range Find(s, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
			if d.Year() < 1900 || d.Year() > 2999 {
				t.Fatalf("%q gave %v", s, d)
			}
		}
	})
}

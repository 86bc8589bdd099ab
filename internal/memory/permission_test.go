package memory

import (
	"testing"
	"time"
)

func TestPermission(t *testing.T) {
	// given is a Tuesday morning.
	given := time.Date(2026, 4, 14, 9, 30, 0, 0, time.UTC)
	end := func(y int, m time.Month, d int) time.Time {
		return time.Date(y, m, d, 23, 59, 59, 999999999, time.UTC)
	}
	tests := []struct {
		text    string
		want    bool
		expires time.Time
	}{
		// No date: the permission ends with the day it was given.
		{"You may deploy to production.", true, end(2026, 4, 14)},
		{"You can merge dependabot PRs without asking", true, end(2026, 4, 14)},
		{"Go ahead and restart the gateway when the build is green", true, end(2026, 4, 14)},
		{"- Approved: spend up to $50 on API credits", true, end(2026, 4, 14)},
		{"You have my permission to reorganise the notes", true, end(2026, 4, 14)},
		// Explicit dates.
		{"Approved to merge dependabot PRs until 2026-10-01", true, end(2026, 10, 1)},
		{"Allowed to restart the NAS; expires 2026-05-01.", true, end(2026, 5, 1)},
		{"Go ahead and rotate the logs through Oct 1", true, end(2026, 10, 1)},
		{"Permission to use the company card until 3 May", true, end(2026, 5, 3)},
		{"Permission to use the card till the 3rd of May 2027", true, end(2027, 5, 3)},
		{"You may deploy until 2026/06/30", true, end(2026, 6, 30)},
		{"Approved to deploy until 04-20", true, end(2026, 4, 20)},
		{"Approved to book travel until Jan 5", true, end(2027, 1, 5)}, // January has passed: next year
		{"You may deploy before 2026-04-20", true, end(2026, 4, 19)},
		{"Feel free to reboot the NAS until Friday", true, end(2026, 4, 17)},
		{"OK to push to main until tomorrow", true, end(2026, 4, 15)},
		{"Pre-approved for the conference, valid until end of month", true, end(2026, 4, 30)},
		{"You may merge small fixes for this week", true, end(2026, 4, 19)},
		{"You may deploy on 2026-04-20, valid until 2026-04-22", true, end(2026, 4, 22)}, // until beats on
		{"Approved to deploy until 2026-05-01 (or until 2026-04-25 if the audit fails)", true, end(2026, 4, 25)},
		{"Permission to deploy expired on 2026-04-10", true, end(2026, 4, 10)},
		{"You may deploy until Feb 30", true, end(2026, 4, 14)}, // no such day: the default
		{"You may deploy, but not on Fridays", true, end(2026, 4, 14)},

		// Not permissions.
		{"You are not allowed to deploy on Fridays", false, time.Time{}},
		{"You may want to check the logs first", false, time.Time{}},
		{"You may not push to main", false, time.Time{}},
		{"Never go ahead and delete backups", false, time.Time{}},
		{"Don't merge without asking", false, time.Time{}},
		{"Permission to deploy was revoked on 2026-04-10", false, time.Time{}},
		{"Sam approved the budget", false, time.Time{}},
		{"The deploy happened at noon", false, time.Time{}},
		{"It is not ok to skip the tests", false, time.Time{}},
		{"", false, time.Time{}},
	}
	for _, tt := range tests {
		ok, exp := Permission(tt.text, given)
		if ok != tt.want || !exp.Equal(tt.expires) {
			t.Errorf("Permission(%q) = %v, %v; want %v, %v", tt.text, ok, exp, tt.want, tt.expires)
		}
	}
}

func TestPermission_ExpiryIsInTheLocationItWasGiven(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	given := time.Date(2026, 4, 14, 23, 0, 0, 0, tokyo)
	_, exp := Permission("You may deploy", given)
	if want := time.Date(2026, 4, 14, 23, 59, 59, 999999999, tokyo); !exp.Equal(want) {
		t.Errorf("expires %v, want %v", exp, want)
	}
}

func TestPermission_UnknownDateHasLapsed(t *testing.T) {
	ok, exp := Permission("You may deploy", time.Time{})
	if !ok || !Lapsed(exp, now) {
		t.Errorf("Permission with zero given = %v, %v; want a lapsed permission", ok, exp)
	}
}

func TestLapsed(t *testing.T) {
	_, exp := Permission("You may deploy", time.Date(2026, 4, 14, 9, 0, 0, 0, time.UTC))
	tests := []struct {
		at   time.Time
		want bool
	}{
		{time.Date(2026, 4, 14, 9, 0, 0, 0, time.UTC), false},
		{time.Date(2026, 4, 14, 23, 59, 59, 0, time.UTC), false},
		{time.Date(2026, 4, 15, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), true},
	}
	for _, tt := range tests {
		if got := Lapsed(exp, tt.at); got != tt.want {
			t.Errorf("Lapsed(%v, %v) = %v, want %v", exp, tt.at, got, tt.want)
		}
	}
	if Lapsed(time.Time{}, now) {
		t.Error("a zero expiry lapsed")
	}
}

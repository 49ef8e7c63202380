package registry

import (
	"testing"
	"time"
)

func TestLastAdultBirthDate(t *testing.T) {
	for _, tt := range []struct {
		now, want string // now in UTC; want a date
	}{
		{"2026-11-30T08:00:00Z", "2008-11-30"},
		{"2026-11-30T16:00:00Z", "2008-12-01"}, // already 1 December in Beijing
		{"2028-02-29T04:00:00Z", "2010-02-28"}, // 2010 has no 29 February
		{"2032-02-29T04:00:00Z", "2014-02-28"},
		{"2030-02-28T04:00:00Z", "2012-02-28"},
	} {
		now, _ := time.Parse(time.RFC3339, tt.now)
		got := lastAdultBirthDate(now)
		if got.Format(time.DateOnly) != tt.want {
			t.Errorf("lastAdultBirthDate(%s) = %s, want %s", tt.now, got.Format(time.DateOnly), tt.want)
		}
		// it agrees with AgeOn: that day is 18, the next is not
		if AgeOn(got, now) != AdultAge || AgeOn(got.AddDate(0, 0, 1), now) != AdultAge-1 {
			t.Errorf("%s: AgeOn(%s) = %d, AgeOn(next day) = %d", tt.now, got.Format(time.DateOnly), AgeOn(got, now), AgeOn(got.AddDate(0, 0, 1), now))
		}
	}
}

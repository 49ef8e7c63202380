package tournamentpages

import (
	"fmt"
	"testing"
	"time"

	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// TestGradeGroupTables: a group's table holds its players in standings
// order; a player is marked with the highest rank the group's rules earn
// him (its minimum wins, or the grading table's placing rows for the
// group or for everyone) — and nobody before the event is over or when
// its rules were published after the start.
func TestGradeGroupTables(t *testing.T) {
	rank := func(s string) registry.Rank {
		r, err := registry.ParseRank(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	start := time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)
	report := func(status string, publishedAfter bool) tournaments.Report {
		set := start.Add(-24 * time.Hour)
		if publishedAfter {
			set = start.Add(72 * time.Hour)
		}
		r := tournaments.Report{Event: tournaments.Event{DanGrade: true, Status: status, Start: start, GradingSetAt: set,
			Groups:  []tournaments.Group{{ID: 1, Name: "A", TargetRank: rank("2d"), MinWins: 4}, {ID: 2, Name: "B", TargetRank: rank("1d"), MinWins: 3}},
			Grading: []tournaments.GradingRule{{MaxPlacing: 1, Rank: rank("3d")}, {MaxPlacing: 4, Group: "B", Rank: rank("1d")}}}}
		// places 1..6: wins 5, 4, 4, 3, 2, 1; odd numbers in A, even in B
		for i, w := range []int{5, 4, 4, 3, 2, 1} {
			n := i + 1
			r.Participants = append(r.Participants, tournaments.Participant{Number: n, PlayerID: int64(100 + n), GroupID: int64(2 - n%2)})
			r.Standings = append(r.Standings, tournaments.Standing{Place: n, Entrant: n, Name: fmt.Sprint("p", n), Wins: w})
		}
		return r
	}
	for _, tt := range []struct {
		name   string
		report tournaments.Report
		want   string
	}{
		// A: p1 (place 1: 3d), p3 (4 wins: 2d), p5 (2 wins: none);
		// B: p2 (4 wins: 1d), p4 (3 wins: 1d), p6 (place 6, 1 win: none)
		{"finished", report("finished", false), "A:p1=3d,p3=2d,p5=-;B:p2=1d,p4=1d,p6=-"},
		{"open", report("open", false), "A:p1=-,p3=-,p5=-;B:p2=-,p4=-,p6=-"},
		{"rules after the start", report("finished", true), "A:p1=-,p3=-,p5=-;B:p2=-,p4=-,p6=-"},
	} {
		got := ""
		for i, g := range gradeGroups(tt.report, nil) {
			if i > 0 {
				got += ";"
			}
			got += g.Group.Name + ":"
			for j, row := range g.Rows {
				if j > 0 {
					got += ","
				}
				e := "-"
				if row.Earned != registry.NoRank {
					e = row.Earned.String()
				}
				got += row.Standing.Name + "=" + e
			}
		}
		if got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	if g := gradeGroups(tournaments.Report{Event: tournaments.Event{Groups: report("finished", false).Event.Groups}}, nil); g != nil {
		t.Errorf("an event that is no dan-grade event has group tables: %+v", g)
	}
}

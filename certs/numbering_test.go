package certs

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		kind    Kind
		errPart string
	}{
		{in: "110260001", want: "110260001", kind: DanSeries},
		{in: " 110 26 0001 ", want: "110260001", kind: DanSeries},
		{in: "000-27-9999", want: "000279999", kind: DanSeries},
		{in: "K1102600001", want: "K1102600001", kind: KyuSeries},
		{in: "k440-27-12345", want: "K4402712345", kind: KyuSeries},
		// as people type them: full-width digits, dashes, a closing full stop
		{in: "１１０２６０００１", want: "110260001", kind: DanSeries},
		{in: "１１０　２６　０００１。", want: "110260001", kind: DanSeries},
		{in: "110–26–0001", want: "110260001", kind: DanSeries},
		{in: "110—26—0001.", want: "110260001", kind: DanSeries},
		{in: "Ｋ１１０２６００００１", want: "K1102600001", kind: KyuSeries},
		{in: "110－26－0001", want: "110260001", kind: DanSeries},
		{in: "", errPart: "empty"},
		{in: "11026001", errPart: "9 digits"},
		{in: "1102600001", errPart: "9 digits"},
		{in: "11026O001", errPart: "only digits"},
		{in: "999260001", errPart: "not a province prefix"},
		{in: "110260000", errPart: "serial 0"},
		{in: "K110260001", errPart: "K and 10 digits"},
	}
	for _, tt := range tests {
		n, err := ParseNumber(tt.in)
		if tt.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("ParseNumber(%q) = %v, %v; want error containing %q", tt.in, n, err, tt.errPart)
			}
			continue
		}
		if err != nil || n.String() != tt.want || n.Kind != tt.kind {
			t.Errorf("ParseNumber(%q) = %v (%s), %v; want %s (%s)", tt.in, n, n.Kind, err, tt.want, tt.kind)
		}
	}
}

func TestYearIsChinaStandardTime(t *testing.T) {
	tests := []struct {
		utc  string
		year int
		date string
	}{
		{"2026-12-31T15:59:59Z", 26, "2026-12-31"},
		{"2026-12-31T16:00:00Z", 27, "2027-01-01"},
		{"2026-12-31T16:30:00Z", 27, "2027-01-01"}, // the issue's example
		{"2099-12-31T16:00:00Z", 0, "2100-01-01"},
	}
	for _, tt := range tests {
		at, _ := time.Parse(time.RFC3339, tt.utc)
		if got := Year(at); got != tt.year {
			t.Errorf("Year(%s) = %02d, want %02d", tt.utc, got, tt.year)
		}
		if got := IssueDate(at).Format(time.DateOnly); got != tt.date {
			t.Errorf("IssueDate(%s) = %s, want %s", tt.utc, got, tt.date)
		}
	}
}

func TestOrderWindow(t *testing.T) {
	tests := []struct {
		utc     string
		year    int
		errPart string
	}{
		{utc: "2026-11-30T08:00:00Z", errPart: "opens on 2026-12-01"},
		{utc: "2026-11-30T15:59:59Z", errPart: "opens on 2026-12-01"},
		{utc: "2026-11-30T16:00:00Z", year: 2027}, // 1 December 00:00 in Beijing
		{utc: "2026-12-31T15:59:59Z", year: 2027},
		{utc: "2026-12-31T16:00:00Z", errPart: "opens on 2027-12-01"},
		{utc: "2027-06-15T00:00:00Z", errPart: "opens on 2027-12-01"},
	}
	for _, tt := range tests {
		at, _ := time.Parse(time.RFC3339, tt.utc)
		y, err := OrderStockYear(at)
		if tt.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errPart) || !errors.Is(err, ledger.ErrPrecondition) {
				t.Errorf("OrderStockYear(%s) = %d, %v; want precondition error with %q", tt.utc, y, err, tt.errPart)
			}
			continue
		}
		if err != nil || y != tt.year {
			t.Errorf("OrderStockYear(%s) = %d, %v; want %d", tt.utc, y, err, tt.year)
		}
	}
}

func TestAthleteGrade(t *testing.T) {
	tests := []struct {
		rank  registry.Rank
		basis Basis
		want  AthleteGrade
	}{
		{-5, Tournament, NoGrade}, {3, Tournament, NoGrade}, {4, Tournament, SecondClass}, {5, Tournament, SecondClass},
		{5, Appraisal, NoGrade}, {6, NationalResult, FirstClass}, {7, NationalChampionship, FirstClass}, {4, Appraisal, NoGrade},
	}
	for _, tt := range tests {
		if got := AthleteGradeFor(tt.rank, tt.basis); got != tt.want {
			t.Errorf("AthleteGradeFor(%s, %s) = %q, want %q", tt.rank, tt.basis, got, tt.want)
		}
	}
}

func TestCheckApplication(t *testing.T) {
	on := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	adult := registry.Player{ID: 1, ProvinceCode: "11", Rank: 3, BirthDate: time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)}
	minor := adult
	minor.BirthDate = time.Date(2008, 12, 1, 0, 0, 0, 0, time.UTC) // 18 on 2026-12-01, one day late
	tourney := ApplicationInput{TargetRank: "4d", Basis: "tournament", EventID: 7}
	with := func(f func(*ApplicationInput)) ApplicationInput { in := tourney; f(&in); return in }
	tests := []struct {
		name   string
		p      registry.Player
		in     ApplicationInput
		target registry.Rank
		err    string
	}{
		{name: "tournament 4d", p: adult, in: tourney, target: 4},
		{name: "not above", p: adult, in: with(func(i *ApplicationInput) { i.TargetRank = "3d" }), err: "not above"},
		{name: "kyu below dan", p: adult, in: with(func(i *ApplicationInput) { i.TargetRank = "1k" }), err: "not above"},
		{name: "honorary", p: adult, in: with(func(i *ApplicationInput) { i.TargetRank = "8d" }), err: "honorary"},
		{name: "no event", p: adult, in: with(func(i *ApplicationInput) { i.EventID = 0 }), err: "event_id"},
		{name: "text is no event", p: adult, in: with(func(i *ApplicationInput) { i.EventID = 0; i.Evidence = "2026 Beijing dan-grade, group A 6/7" }), err: "no evidence"},
		{name: "6d for a national result", p: adult, in: with(func(i *ApplicationInput) { i.TargetRank = "6d"; i.Basis = "national_result" }), target: 6},
		{name: "6d needs national", p: adult, in: with(func(i *ApplicationInput) { i.TargetRank = "6d" }), err: "national_result"},
		{name: "7d needs championship", p: adult, in: with(func(i *ApplicationInput) { i.TargetRank = "7d"; i.Basis = "national_result" }), err: "national_championship"},
		{name: "national basis below 6d", p: adult, in: with(func(i *ApplicationInput) { i.Basis = "national_championship" }), err: "6 or 7 dan only"},
		{name: "appraisal adult", p: adult, in: with(func(i *ApplicationInput) { i.Basis = "appraisal"; i.AppraisalSessionID = 9 }), target: 4},
		{name: "appraisal minor", p: minor, in: with(func(i *ApplicationInput) { i.Basis = "appraisal"; i.AppraisalSessionID = 9 }), err: "at least 18"},
		{name: "appraisal without a session", p: adult, in: with(func(i *ApplicationInput) { i.Basis = "appraisal"; i.AppraiserID = 9 }), err: "appraisal session"},
		{name: "unknown basis", p: adult, in: with(func(i *ApplicationInput) { i.Basis = "luck" }), err: "basis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := checkApplication(tt.p, tt.in, on)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.err)
				}
			case err != nil || got != tt.target:
				t.Fatalf("= %s, %v; want %s", got, err, tt.target)
			}
		})
	}
	if registry.AgeOn(minor.BirthDate, on.Add(16*time.Hour)) != 18 { // 2026-12-01 00:00 Beijing
		t.Errorf("a player born 2008-12-01 is 18 on 2026-12-01 in Beijing")
	}
}

// FuzzParseNumber: numbers typed by the public never panic the parser, and
// whatever it accepts writes back to a canonical number that parses the same.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"110260001", "000-27-9999", "K1102600001", " 440 26 0100 ", "", "K", "999260001", "11026０001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNumber(s)
		if err != nil {
			return
		}
		out := n.String()
		if (n.Kind == DanSeries && len(out) != 9) || (n.Kind == KyuSeries && len(out) != 11) {
			t.Fatalf("%q parsed to %q of the wrong length", s, out)
		}
		again, err := ParseNumber(out)
		if err != nil || again != n {
			t.Fatalf("%q -> %q -> %v, %v", s, out, again, err)
		}
	})
}

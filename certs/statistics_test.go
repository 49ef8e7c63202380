package certs_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

func TestStatisticsCounts(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	fixture.StatisticsData(t, e.reg, e.cs, e.ts, e.clock)
	year := fixture.StatisticsYear(e.clock)

	st, err := e.cs.Statistics(ctx, staff, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if st.Year != year {
		t.Fatalf("default year = %d, want the clock's %d", st.Year, year)
	}
	if want := []certs.YearCount{{Year: year, Certificates: 6}}; !reflect.DeepEqual(st.Years, want) {
		t.Errorf("years = %+v, want %+v", st.Years, want)
	}
	wantProvinces := []certs.ProvinceCount{
		{Prefix: "110", Certificates: 4, Holders: 3, Players: 5},
		{Prefix: "310", Certificates: 2, Holders: 1, Players: 2},
		{Prefix: "440", Certificates: 0, Holders: 0, Players: 1},
	}
	if !reflect.DeepEqual(st.Provinces, wantProvinces) {
		t.Errorf("provinces = %+v, want %+v", st.Provinces, wantProvinces)
	}
	if got := st.Provinces[0].HoldersPer10k(); got != 6000 {
		t.Errorf("Beijing holders per 10 000 = %v, want 6000", got)
	}
	wantRanks := []certs.RankCount{{Rank: -10, Certificates: 1}, {Rank: 1, Certificates: 2}, {Rank: 2, Certificates: 1},
		{Rank: 4, Certificates: 1}, {Rank: 6, Certificates: 1}}
	if !reflect.DeepEqual(st.Ranks, wantRanks) {
		t.Errorf("ranks = %+v, want %+v", st.Ranks, wantRanks)
	}
	wantBases := []certs.BasisCount{{Basis: certs.Tournament, Certificates: 4}, {Basis: certs.Appraisal, Certificates: 1},
		{Basis: certs.NationalResult, Certificates: 1}, {Basis: certs.NationalChampionship, Certificates: 0}}
	if !reflect.DeepEqual(st.Bases, wantBases) {
		t.Errorf("bases = %+v, want %+v", st.Bases, wantBases)
	}
	wantNotices := certs.NoticeCounts{Notices: 3, Issued: 2, Failed: 1, Objections: 2, Upheld: 1, Dismissed: 1}
	if st.Notices != wantNotices {
		t.Errorf("notices = %+v, want %+v", st.Notices, wantNotices)
	}
	wantAgencies := []certs.AgencyCount{
		{Prefix: "110", Certificates: 4, ByBasis: map[certs.Basis]int{certs.Tournament: 3, certs.Appraisal: 1}, Revoked: 1,
			Notices: certs.NoticeCounts{Notices: 2, Issued: 1, Failed: 1, Objections: 2, Upheld: 1, Dismissed: 1}},
		{Prefix: "310", Certificates: 2, ByBasis: map[certs.Basis]int{certs.Tournament: 1, certs.NationalResult: 1},
			Notices: certs.NoticeCounts{Notices: 1, Issued: 1}},
	}
	if !reflect.DeepEqual(st.Agencies, wantAgencies) {
		t.Errorf("agencies = %+v, want %+v", st.Agencies, wantAgencies)
	}

	// the year before has nothing: its year ended before anything was
	// issued or registered (a past year does not list later years)
	other, err := e.cs.Statistics(ctx, staff, year-1, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(other.Ranks) != 0 || other.Notices != (certs.NoticeCounts{}) || len(other.Years) != 0 || len(other.Provinces) != 0 || other.Agencies != nil {
		t.Errorf("statistics of %d = %+v", year-1, other)
	}

	// the public gets the summary; the details are staff's
	for _, tt := range []struct {
		who   string
		actor ledger.Actor
		want  error
	}{
		{"public", ledger.Actor{Kind: ledger.Public}, ledger.ErrUnauthenticated},
		{"agency", beijing, ledger.ErrPermissionDenied},
	} {
		if _, err := e.cs.Statistics(ctx, tt.actor, 0, true); !errors.Is(err, tt.want) {
			t.Errorf("details for %s: %v, want %v", tt.who, err, tt.want)
		}
		sum, err := e.cs.Statistics(ctx, tt.actor, 0, false)
		if err != nil || sum.Agencies != nil || !reflect.DeepEqual(sum.Provinces, wantProvinces) {
			t.Errorf("summary for %s: %+v, %v", tt.who, sum, err)
		}
	}
	if _, err := e.cs.Statistics(ctx, staff, 1999, false); !errors.Is(err, ledger.ErrInvalid) {
		t.Errorf("year 1999: %v, want invalid argument", err)
	}
}

package registry_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// TestAffiliationsKeepHistory: a player's club or school changes as a
// logged act with its date; the old one ends the day before and is kept;
// the pairing keys read the one on the event's day.
func TestAffiliationsKeepHistory(t *testing.T) {
	s, store := newServiceStore(t)
	ctx := context.Background()
	a := fixture.Player(t, s, "110", "甲", "1d", "1990-01-01", 1)
	b := fixture.Player(t, s, "110", "乙", "1d", "1990-01-01", 2)
	c := fixture.Player(t, s, "110", "丙", "1d", "1990-01-01", 3)
	tests := []struct {
		name string
		who  ledger.Actor
		in   registry.AffiliationInput
		code string
	}{
		{"club", beijing, registry.AffiliationInput{PlayerID: a.ID, Kind: "club", Name: "棋院俱乐部", From: "2025-01-01"}, ""},
		{"school", beijing, registry.AffiliationInput{PlayerID: a.ID, Kind: "school", Name: "实验小学", From: "2025-09-01"}, ""},
		{"b in the same club", beijing, registry.AffiliationInput{PlayerID: b.ID, Kind: "club", Name: "棋院俱乐部", From: "2025-03-01"}, ""},
		{"a moves club", beijing, registry.AffiliationInput{PlayerID: a.ID, Kind: "club", Name: "少年宫", From: "2026-06-01"}, ""},
		{"a date before the current start", beijing, registry.AffiliationInput{PlayerID: a.ID, Kind: "club", Name: "x", From: "2026-01-01"}, "AFFILIATION_DATE"},
		{"bad date", beijing, registry.AffiliationInput{PlayerID: a.ID, Kind: "club", Name: "x", From: "2026/07/01"}, "AFFILIATION_DATE"},
		{"unknown kind", beijing, registry.AffiliationInput{PlayerID: a.ID, Kind: "team", Name: "x", From: "2026-07-01"}, "AFFILIATION_KIND"},
		{"another province's agency", ledger.Actor{Kind: ledger.AgencyActor, Agency: "310"}, registry.AffiliationInput{PlayerID: a.ID, Kind: "club", Name: "x", From: "2026-07-01"}, "perm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.SetAffiliation(ctx, tc.who, "", tc.in)
			switch tc.code {
			case "":
				if err != nil {
					t.Fatal(err)
				}
			case "perm":
				if !errors.Is(err, ledger.ErrPermissionDenied) {
					t.Fatalf("want permission denied, got %v", err)
				}
			default:
				if e, ok := ledger.AsError(err); !ok || e.Reason.Code() != tc.code {
					t.Fatalf("want %s, got %v", tc.code, err)
				}
			}
		})
	}
	hist, err := s.Affiliations(ctx, a.ID)
	if err != nil || len(hist) != 3 || hist[0].Name != "棋院俱乐部" || hist[0].To == nil || hist[0].To.Format(time.DateOnly) != "2026-05-31" ||
		hist[2].Name != "少年宫" || hist[2].To != nil {
		t.Fatalf("history: %+v %v", hist, err)
	}
	if err := s.LinkFamily(ctx, beijing, "", c.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.LinkFamily(ctx, beijing, "", c.ID, c.ID); err == nil {
		t.Fatal("a family link to oneself")
	}
	ids := []int64{a.ID, b.ID, c.ID}
	for _, tc := range []struct {
		day   string
		kinds []string
		same  bool // a and b share a key
		fam   bool // b and c share a key
	}{
		{"2026-01-10", []string{"club"}, true, false},
		{"2026-07-10", []string{"club"}, false, false},
		{"2026-01-10", []string{"school"}, false, false},
		{"2026-07-10", []string{"club", "family"}, false, true},
	} {
		day, _ := time.Parse(time.DateOnly, tc.day)
		keys, err := registry.PairingKeys(ctx, store.DB(), ids, day, tc.kinds)
		if err != nil {
			t.Fatal(err)
		}
		share := func(x, y int64) bool {
			for _, k := range keys[x] {
				if slices.Contains(keys[y], k) {
					return true
				}
			}
			return false
		}
		if share(a.ID, b.ID) != tc.same || share(b.ID, c.ID) != tc.fam {
			t.Fatalf("%s %v: keys %v", tc.day, tc.kinds, keys)
		}
	}
}

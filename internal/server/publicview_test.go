package server_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/registry"
)

// TestWhatThePublicSees walks the public RPCs for three players: an adult
// with a declared 3d, a player whose uncertified 5d was stored before ranks
// needed certificates (now a declared rank, under review), and a minor. No
// uncertified rank reads as a rank, a declared rank is never searched as
// one, and the public learns nothing of a minor but name, rank and province.
func TestWhatThePublicSees(t *testing.T) {
	e := newEnv(t) // 2026-11-30
	ctx := context.Background()
	adult := fixture.Player(t, e.reg, "110", "成年", "3d", "1990-01-01", 1)
	legacy := fixture.Player(t, e.reg, "110", "旧五段", "", "1980-01-01", 2)
	if _, err := e.store.DB().Exec(ctx, `UPDATE players SET declared_rank = 5 WHERE id = $1`, legacy.ID); err != nil {
		t.Fatal(err)
	}
	minor := fixture.Player(t, e.reg, "110", "少年", "2k", "2012-06-01", 3)
	public := e.as("")
	for _, tt := range []struct {
		id             int64
		rank, declared string
		birthYear      int32
		gender         pb.Gender
	}{
		{adult.ID, "", "3d", 1990, pb.Gender_GENDER_MALE},
		{legacy.ID, "", "5d", 1980, pb.Gender_GENDER_MALE},
		{minor.ID, "", "2k", 0, pb.Gender_GENDER_UNSPECIFIED},
	} {
		got, err := e.client.GetPlayer(public, &pb.GetPlayerRequest{Id: tt.id})
		p := got.GetPlayer()
		if err != nil || p.GetRank() != tt.rank || p.GetDeclaredRank() != tt.declared || p.GetBirthYear() != tt.birthYear ||
			p.GetGender() != tt.gender || p.GetBirthDate() != "" {
			t.Errorf("public GetPlayer(%d) = %v, %v; want rank %q, declared %q, birth year %d, gender %v", tt.id, p, err,
				tt.rank, tt.declared, tt.birthYear, tt.gender)
		}
	}
	for _, rank := range []string{"5d", "3d", "2k"} {
		page, err := e.client.SearchPlayers(public, &pb.SearchPlayersRequest{Rank: rank})
		if err != nil || page.GetTotal() != 0 {
			t.Errorf("public search for rank %s: %v, %v; want nobody (no certificates)", rank, page, err)
		}
	}
	page, err := e.client.SearchPlayers(public, &pb.SearchPlayersRequest{ProvinceCode: "11"})
	if err != nil || page.GetTotal() != 2 {
		t.Fatalf("public search of Beijing: %v, %v; want the two adults, not the minor", page, err)
	}
	// the minor's own agency sees him in full
	own, err := e.client.GetPlayer(e.as(e.bj), &pb.GetPlayerRequest{Id: minor.ID})
	if err != nil || own.GetPlayer().GetBirthDate() != "2012-06-01" || own.GetPlayer().GetGender() != pb.Gender_GENDER_MALE {
		t.Fatalf("agency reading its minor: %v, %v", own, err)
	}
	if page, err := e.client.SearchPlayers(e.as(e.bj), &pb.SearchPlayersRequest{ProvinceCode: "11"}); err != nil || page.GetTotal() != 3 {
		t.Fatalf("agency search of its province: %v, %v; want all three", page, err)
	}
}

// TestOneViewOfAPlayerOnBothTransports reads an adult and a minor as the
// public through the portal's page and the API's GetPlayer, both over the
// server's public reads: each shows what the other shows. The adult's
// gender, birth year and masked identity number appear on both, his birth
// date on neither; of the minor neither shows gender, birth year,
// nationality or identity, not even masked.
func TestOneViewOfAPlayerOnBothTransports(t *testing.T) {
	e := newReplicaEnvWith(t, 0, false)
	today := fixture.TodayClock(t).Now().In(ledger.ChinaTime)
	minorBirth := today.AddDate(-12, 0, 0).Format(time.DateOnly)
	adult := fixture.Player(t, e.reg, "110", "成年人", "", "1990-01-01", 11)
	minor := fixture.Player(t, e.reg, "110", "未成年", "", minorBirth, 12)
	field := func(page, testid string) (string, bool) {
		m := regexp.MustCompile(`data-testid="` + testid + `">(?:<code>)?([^<]*)<`).FindStringSubmatch(page)
		if m == nil {
			return "", false
		}
		return strings.TrimSpace(m[1]), true
	}
	for _, tt := range []struct {
		who     string
		p       registry.Player
		details bool
	}{{"adult", adult, true}, {"minor", minor, false}} {
		resp, err := http.Get(e.portal.URL + "/players/" + strconv.FormatInt(tt.p.ID, 10) + "?lang=en")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s's page: %d", tt.who, resp.StatusCode)
		}
		got, err := e.players.GetPlayer(context.Background(), &pb.GetPlayerRequest{Id: tt.p.ID})
		if err != nil {
			t.Fatalf("%s over gRPC: %v", tt.who, err)
		}
		api := got.GetPlayer()
		pageID, pageHasID := field(page, "player-identity")
		pageBirth, pageHasBirth := field(page, "player-birth")
		_, pageHasGender := field(page, "player-gender")
		masked := registry.MaskIdentity(tt.p.IDNumber)
		if tt.details {
			if api.GetIdentityNumber() != masked || pageID != masked {
				t.Errorf("%s's identity: API %q, page %q; want %q on both", tt.who, api.GetIdentityNumber(), pageID, masked)
			}
			if api.GetBirthYear() != 1990 || pageBirth != "1990" {
				t.Errorf("%s's birth: API year %d, page %q; want 1990 on both", tt.who, api.GetBirthYear(), pageBirth)
			}
			if api.GetGender() != pb.Gender_GENDER_MALE || !pageHasGender || api.GetNationality() != "CN" {
				t.Errorf("%s's gender and nationality: API %v %q, page shows gender %v", tt.who, api.GetGender(), api.GetNationality(), pageHasGender)
			}
		} else {
			if api.GetIdentityNumber() != "" || api.GetIdentityKind() != pb.IdentityKind_IDENTITY_KIND_UNSPECIFIED || pageHasID {
				t.Errorf("%s's identity: API %q (%v), page shows %q; want it on neither", tt.who, api.GetIdentityNumber(), api.GetIdentityKind(), pageID)
			}
			if api.GetBirthYear() != 0 || pageHasBirth || api.GetGender() != pb.Gender_GENDER_UNSPECIFIED || pageHasGender || api.GetNationality() != "" {
				t.Errorf("%s's details: API year %d, gender %v, nationality %q; page birth %q, gender shown %v; want none",
					tt.who, api.GetBirthYear(), api.GetGender(), api.GetNationality(), pageBirth, pageHasGender)
			}
			if strings.Contains(page, masked) || strings.Contains(page, minorBirth[:4]) {
				t.Errorf("%s's page holds his masked number or birth year", tt.who)
			}
		}
		if api.GetBirthDate() != "" || strings.Contains(page, tt.p.BirthDate.Format(time.DateOnly)) || strings.Contains(page, tt.p.IDNumber) {
			t.Errorf("%s: the public sees a full birth date or identity number (API birth date %q)", tt.who, api.GetBirthDate())
		}
		if api.GetName() != tt.p.Name || !strings.Contains(page, tt.p.Name) {
			t.Errorf("%s's name: API %q; page holds it: %v", tt.who, api.GetName(), strings.Contains(page, tt.p.Name))
		}
	}
}

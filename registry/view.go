package registry

import (
	"context"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// PlayerView is a player as one reader may see him: the one view the portal
// and the API both show, so that neither shows more of a player than the
// other. What it leaves empty, no transport shows.
type PlayerView struct {
	ID            int64
	Name          string
	ProvinceCode  string
	AgencyPrefix  string
	Rank          Rank // certified; NoRank without a certificate
	DeclaredRank  Rank
	HonoraryBasis string
	MergedInto    int64
	CreatedAt     time.Time
	UpdatedAt     time.Time
	// LatinName is the name for foreign events (stated, or pinyin);
	// LatinStated says the agency stated it.
	LatinName   string
	LatinStated bool

	// Details says the reader sees the player's gender, birth year,
	// nationality and identity document (its number masked unless
	// FullIdentity): anyone for an adult, for a minor only those with
	// FullIdentity. Without it those fields are empty.
	Details     bool
	Gender      Gender
	BirthYear   int
	Nationality string
	IDKind      IdentityKind
	IDNumber    string // masked, or in full with FullIdentity; "" without Details

	// FullIdentity says the reader sees the full identity number and birth
	// date: staff, and the player's own agency (SeesIdentity).
	FullIdentity bool
	BirthDate    time.Time // zero without FullIdentity
	// ExternalIDs are the player's ids elsewhere (EGD PIN …): a minor's
	// are personal details too, so only with Details.
	ExternalIDs map[string]string
}

// ViewPlayer is p as actor may see him.
func (s *Service) ViewPlayer(ctx context.Context, actor ledger.Actor, p Player) PlayerView {
	return s.PlayerViewWith(p, s.SeesIdentity(ctx, actor, p))
}

// ViewPlayers is each of ps as actor may see him, the policy asked once per
// province.
func (s *Service) ViewPlayers(ctx context.Context, actor ledger.Actor, ps []Player) []PlayerView {
	sees := map[string]bool{}
	out := make([]PlayerView, 0, len(ps))
	for _, p := range ps {
		full, ok := sees[p.ProvinceCode]
		if !ok {
			full = s.SeesIdentity(ctx, actor, p)
			sees[p.ProvinceCode] = full
		}
		out = append(out, s.PlayerViewWith(p, full))
	}
	return out
}

// PlayerViewWith is p as seen by a reader who sees his identity in full or
// not (SeesIdentity's answer).
func (s *Service) PlayerViewWith(p Player, seesIdentity bool) PlayerView {
	v := PlayerView{ID: p.ID, Name: p.Name, ProvinceCode: p.ProvinceCode, AgencyPrefix: p.AgencyPrefix, Rank: p.Rank,
		DeclaredRank: p.DeclaredRank, HonoraryBasis: p.HonoraryBasis, MergedInto: p.MergedInto, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
		LatinName: p.LatinOf(), LatinStated: p.LatinName != ""}
	if !s.ShowsPersonalDetails(p, seesIdentity) {
		return v
	}
	v.Details = true
	v.Gender, v.BirthYear, v.Nationality, v.IDKind = p.Gender, p.BirthDate.Year(), p.Nationality, p.IDKind
	v.IDNumber = MaskIdentity(p.IDNumber)
	v.ExternalIDs = p.ExternalIDs
	if seesIdentity {
		v.FullIdentity, v.IDNumber, v.BirthDate = true, p.IDNumber, p.BirthDate
	}
	return v
}

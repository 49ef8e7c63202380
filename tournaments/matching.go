package tournaments

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Matching a file's players to registered ones by who they are. A name is
// no identity: at national scale a unique name is often someone else, and a
// wrong match hands one person's games, rating and qualifications to
// another. So a file's player is matched on his own only
//
//   - by a stable id the file gives (EGD PIN, another federation's id, a
//     resident ID number, a registry number) that one registered player
//     holds, his name agreeing and no fact disagreeing; or
//   - by name together with at least two agreeing facts — province (from
//     the file's club or region), birth year, rank within two grades —
//     none disagreeing, and no other namesake qualifying as well.
//
// Everything else with a candidate is a proposal the clerk confirms (a
// match in ImportInput.Matches), rejects (a guest) or answers by
// registering the person and matching him; the confirmations are logged
// with the import (tournament.players_matched).

// Match statuses of a file's player.
const (
	MatchMatched   = "matched"   // by a stable id, by agreeing facts, or confirmed by the clerk
	MatchProposed  = "proposed"  // candidates to confirm, shown side by side
	MatchUnmatched = "unmatched" // no registered player has the name
	MatchGuest     = "guest"
)

// Match bases: why a file's player is matched.
const (
	BasisConfirmed      = "confirmed" // the clerk's decision
	BasisFacts          = "facts"     // name and agreeing facts
	BasisRegistryNumber = "registry_number"
	BasisIdentity       = "identity"
)

// Agreement of one fact between a file's player and a candidate.
type Agreement string

const (
	Agrees  Agreement = "agrees"
	Differs Agreement = "differs"
	Unknown Agreement = "unknown" // one side does not say
)

// Facts compared, in the order the clerk sees them.
const (
	FactName      = "name"
	FactProvince  = "province"
	FactBirthYear = "birth_year"
	FactRank      = "rank"
	FactEGDPin    = "egd_pin"
)

// MatchFacts lists the facts compared, for the views.
func MatchFacts() []string {
	return []string{FactName, FactProvince, FactBirthYear, FactRank, FactEGDPin}
}

// rankSlack is how many grades a file's rank may be from the registry's and
// still agree: ranks move between events, and files round them.
const rankSlack = 2

// Candidate is a registered player a file's player may be, with his facts
// as the clerk may see them (masked as elsewhere: the identity number
// always; a minor's birth year unless the clerk sees his identity) and how
// each agrees with the file.
type Candidate struct {
	PlayerID     int64
	Name         string
	LatinName    string
	ProvinceCode string
	BirthYear    int    // 0 when not shown
	Identity     string // masked
	Rank         string // the playing rank: certified, else declared
	EGDPin       string
	Minor        bool // shown without birth year
	Facts        map[string]Agreement
	// StableID names the file's id that names this player ("egd_pin",
	// "identity", a scheme …); "" when found by name only.
	StableID string
}

// fileProvince is the province a file's player's club or region names.
func fileProvince(p ImportedPlayer) (registry.Province, bool) {
	for _, s := range []string{p.Club, p.Region} {
		if pr, ok := registry.ProvinceInText(s); ok {
			return pr, true
		}
	}
	return registry.Province{}, false
}

// grade is a rank on one line: 1d is 0, 1k is -1, 2k is -2.
func grade(r registry.Rank) int {
	if r > 0 {
		return int(r) - 1
	}
	return int(r)
}

// foldName is a name compared across scripts and layouts: lower case,
// letters only ("Zhang, Wei", "zhang_wei" and "ZhangWei" fold alike).
func foldName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// nameAgrees reports whether the file writes the player's name: his
// registered name, his Latin name or its pinyin, surname first or last.
func nameAgrees(p ImportedPlayer, c registry.Player) bool {
	file := map[string]bool{foldName(p.Surname + p.Given): true, foldName(p.Given + p.Surname): true}
	for _, n := range []string{c.Name, c.LatinOf(), registry.Pinyin(c.Name)} {
		if file[foldName(n)] {
			return true
		}
		if f := strings.Fields(n); len(f) == 2 && file[foldName(f[1]+f[0])] { // "Wei Zhang"
			return true
		}
	}
	return false
}

// compareFacts says how each fact of the file's player agrees with c.
func compareFacts(p ImportedPlayer, c registry.Player) map[string]Agreement {
	f := map[string]Agreement{FactName: Differs, FactProvince: Unknown, FactBirthYear: Unknown, FactRank: Unknown, FactEGDPin: Unknown}
	if nameAgrees(p, c) {
		f[FactName] = Agrees
	}
	if pr, ok := fileProvince(p); ok {
		f[FactProvince] = Differs
		if pr.Code == c.ProvinceCode {
			f[FactProvince] = Agrees
		}
	}
	if p.BirthYear > 0 {
		f[FactBirthYear] = Differs
		if p.BirthYear == c.BirthDate.Year() {
			f[FactBirthYear] = Agrees
		}
	}
	if r, err := registry.ParseRank(p.Rank); err == nil && r != registry.NoRank && c.PlayingRank() != registry.NoRank {
		f[FactRank] = Differs
		if d := grade(r) - grade(c.PlayingRank()); d >= -rankSlack && d <= rankSlack {
			f[FactRank] = Agrees
		}
	}
	if pin := c.ExternalIDs[registry.EGDScheme]; p.EGDPin != "" && pin != "" {
		f[FactEGDPin] = Differs
		if pin == p.EGDPin {
			f[FactEGDPin] = Agrees
		}
	}
	for scheme, v := range p.OtherIDs {
		if theirs := c.ExternalIDs[scheme]; v != "" && theirs != "" {
			f[scheme] = Differs
			if theirs == v {
				f[scheme] = Agrees
			}
		}
	}
	return f
}

// count tells how many facts agree and whether any differs (the name aside).
func count(f map[string]Agreement) (agree int, differs bool) {
	for k, a := range f {
		if k == FactName {
			continue
		}
		switch a {
		case Agrees:
			agree++
		case Differs:
			differs = true
		}
	}
	return agree, differs
}

// decide matches one file's player among his candidates: stable names the
// candidates a stable id of the file names (player → which id). It returns
// the status, the basis and the player matched.
func decide(p ImportedPlayer, cands []registry.Player, stable map[int64]string) (status, basis string, player int64) {
	if len(cands) == 0 {
		return MatchUnmatched, "", 0
	}
	if len(stable) == 1 {
		for id, which := range stable {
			i := slices.IndexFunc(cands, func(c registry.Player) bool { return c.ID == id })
			if i < 0 {
				break
			}
			f := compareFacts(p, cands[i])
			if _, differs := count(f); f[FactName] == Agrees && !differs {
				return MatchMatched, which, id
			}
		}
		return MatchProposed, "", 0
	}
	if len(stable) > 1 { // two ids naming two people: the clerk decides
		return MatchProposed, "", 0
	}
	var qualified []int64
	for _, c := range cands {
		f := compareFacts(p, c)
		if agree, differs := count(f); f[FactName] == Agrees && agree >= 2 && !differs {
			qualified = append(qualified, c.ID)
		}
	}
	if len(qualified) == 1 {
		return MatchMatched, BasisFacts, qualified[0]
	}
	return MatchProposed, "", 0
}

// maxCandidates bounds the candidates listed for one file's player.
const maxCandidates = 10

// matchPlayers finds each file player's candidates — the players his
// stable ids name, then his namesakes (registered or Latin name) — in a
// few queries for the whole file, and decides each (decide). Organiser's
// matches and guests are the caller's.
func (s *Service) matchPlayers(ctx context.Context, actor ledger.Actor, players []ImportedPlayer) (map[int][]Candidate, map[int]ImportPlayer, error) {
	q := s.db
	var names, pins []string
	others := map[string][]string{}
	var regNumbers []int64
	for _, p := range players {
		names = append(names, nameVariants(p)...)
		if p.EGDPin != "" {
			pins = append(pins, p.EGDPin)
		}
		for scheme, v := range p.OtherIDs {
			others[scheme] = append(others[scheme], v)
		}
		if p.RegistryNumber > 0 {
			regNumbers = append(regNumbers, p.RegistryNumber)
		}
	}
	byName, err := registry.PlayersNamedOrLatin(ctx, q, names)
	if err != nil {
		return nil, nil, err
	}
	byPin, err := registry.PlayersByExternalID(ctx, q, registry.EGDScheme, pins)
	if err != nil {
		return nil, nil, err
	}
	byOther := map[string]map[string]int64{}
	for scheme, vs := range others {
		if byOther[scheme], err = registry.PlayersByExternalID(ctx, q, scheme, vs); err != nil {
			return nil, nil, err
		}
	}
	// every candidate's record, read once
	want := map[int64]bool{}
	for _, ids := range byName {
		for _, id := range ids {
			want[id] = true
		}
	}
	for _, id := range byPin {
		want[id] = true
	}
	for _, m := range byOther {
		for _, id := range m {
			want[id] = true
		}
	}
	for _, id := range regNumbers {
		want[id] = true
	}
	byIdentity := map[string]int64{}
	for _, p := range players {
		if p.IDNumber == "" {
			continue
		}
		if c, ok, err := registry.PlayerByIdentity(ctx, q, p.IDNumber); err != nil {
			return nil, nil, err
		} else if ok {
			byIdentity[p.IDNumber], want[c.ID] = c.ID, true
		}
	}
	ids := make([]int64, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	records, err := registry.PlayersByID(ctx, q, ids)
	if err != nil {
		return nil, nil, err
	}
	sees := map[string]bool{} // province → the actor sees its players' identities
	cands := map[int][]Candidate{}
	decided := map[int]ImportPlayer{}
	for _, p := range players {
		stable := map[int64]string{}
		add := func(id int64, which string) {
			if r, ok := records[id]; ok && r.MergedInto == 0 {
				stable[id] = which
			}
		}
		if id, ok := byPin[p.EGDPin]; ok && p.EGDPin != "" {
			add(id, FactEGDPin)
		}
		for scheme, v := range p.OtherIDs {
			if id, ok := byOther[scheme][v]; ok {
				add(id, scheme)
			}
		}
		if id, ok := byIdentity[p.IDNumber]; ok && p.IDNumber != "" {
			add(id, BasisIdentity)
		}
		if p.RegistryNumber > 0 {
			add(p.RegistryNumber, BasisRegistryNumber)
		}
		var list []registry.Player
		seen := map[int64]bool{}
		push := func(id int64) {
			if r, ok := records[id]; ok && !seen[id] && r.MergedInto == 0 && len(list) < maxCandidates {
				seen[id] = true
				list = append(list, r)
			}
		}
		stableIDs := make([]int64, 0, len(stable))
		for id := range stable {
			stableIDs = append(stableIDs, id)
		}
		slices.Sort(stableIDs)
		for _, id := range stableIDs {
			push(id)
		}
		for _, v := range nameVariants(p) {
			for _, id := range byName[v] {
				push(id)
			}
		}
		status, basis, player := decide(p, list, stable)
		decided[p.ID] = ImportPlayer{Status: status, Basis: basis, PlayerID: player}
		for _, r := range list {
			pr, _ := registry.ProvinceByCode(r.ProvinceCode)
			seesID, ok := sees[pr.Code]
			if !ok {
				seesID = s.reg.SeesIdentity(ctx, actor, r)
				sees[pr.Code] = seesID
			}
			c := Candidate{PlayerID: r.ID, Name: r.Name, LatinName: r.LatinOf(), ProvinceCode: r.ProvinceCode,
				Identity: registry.MaskIdentity(r.IDNumber), Rank: r.PlayingRank().String(), EGDPin: r.ExternalIDs[registry.EGDScheme],
				Facts: compareFacts(p, r), StableID: stable[r.ID]}
			if s.reg.ShowsPersonalDetails(r, seesID) {
				c.BirthYear = r.BirthDate.Year()
			} else {
				c.Minor = true
			}
			cands[p.ID] = append(cands[p.ID], c)
		}
	}
	return cands, decided, nil
}

// candidateIDs lists the candidates' player ids.
func candidateIDs(cs []Candidate) []int64 {
	var ids []int64
	for _, c := range cs {
		ids = append(ids, c.PlayerID)
	}
	return ids
}

// matchLine is one matched player as the log keeps him: how he was
// matched and, for the clerk's confirmation, whom the import proposed.
func matchLine(number int, ip ImportPlayer) MatchedPlayer {
	return MatchedPlayer{Basis: ip.Basis, Candidates: ip.Candidates, FileName: clip(ip.Name), FilePin: ip.EGDPin,
		Number: number, Player: ip.PlayerID}
}

package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// ImportInput is a tournament file to bring into the registry, with the
// organiser's decisions about its players.
type ImportInput struct {
	Data    []byte
	Format  string // "" detects
	Level   string
	Matches map[int]int64 // file player (1..N) → registered player
	Guests  []int         // file players to add as guests
	Commit  bool          // false: only report how the players match
	// ByePlayers are file players (1..N) the organiser confirms as
	// placeholders standing for byes (a warning proposes them): their
	// games become their opponents' byes, and they are neither matched,
	// rated nor ranked.
	ByePlayers []int
	// Grading is a grading table given with the file. The event was held
	// before: its rules earn nothing until staff accept them
	// (AcceptImportedGrading).
	Grading []GradingRuleInput
}

// ImportPlayer is how one of the file's players matches the registry.
type ImportPlayer struct {
	Index   int
	Name    string
	Rank    string
	Country string
	Club    string
	EGDPin  string
	// File is the file's player as read, whose facts the candidates'
	// are compared with.
	File       ImportedPlayer
	PlayerID   int64
	Candidates []int64
	// Proposals are the candidates with their facts side by side with
	// the file's (matching.go), masked as elsewhere.
	Proposals []Candidate
	Status    string // matched, proposed, unmatched, guest, or bye (a placeholder confirmed as byes)
	// Basis says why a matched player is matched: a stable id
	// ("egd_pin", "identity", "registry_number", another scheme),
	// "facts", or "confirmed" by the clerk.
	Basis string
}

// ImportResult reports an import: the file's summary, the players' matching
// and, once committed, the new event.
type ImportResult struct {
	Summary Summary
	Players []ImportPlayer
	Event   *Event
}

// nameVariants are the ways a file may write a registered name: "Surname
// Given", "Given Surname", and run together as Chinese names are.
func nameVariants(p ImportedPlayer) []string {
	s, g := strings.TrimSpace(p.Surname), strings.TrimSpace(p.Given)
	vs := []string{strings.ToLower(strings.TrimSpace(s + " " + g)), strings.ToLower(strings.TrimSpace(g + " " + s)), strings.ToLower(s + g)}
	return vs
}

// ImportEvent reads a tournament file and matches its players against the
// registry: a player is matched when the organiser says so, or by who he
// is (matching.go: a stable id, or his name with agreeing facts); a
// proposal must be confirmed, and anyone else matched or added as a guest,
// before the import commits. Nobody is created in the registry; the
// matches are logged with the import, and the EGD PINs of matched players
// who had none become theirs.
func (s *Service) ImportEvent(ctx context.Context, actor ledger.Actor, key string, in ImportInput) (ImportResult, error) {
	org, err := organiser(actor)
	if err != nil {
		return ImportResult{}, err
	}
	imp, err := Import(in.Data, in.Format)
	if err != nil {
		return ImportResult{}, fileRefusal(err)
	}
	imp.CheckDate(s.store.Now().In(ledger.ChinaTime))
	// the event as it will be imported: confirmed placeholders turned into
	// byes; the players keep the file's indexes in the matching
	view, err := imp.ConfirmByePlayers(in.ByePlayers)
	if err != nil {
		return ImportResult{}, err
	}
	placeholder := map[int]bool{}
	for _, id := range in.ByePlayers {
		placeholder[id] = true
	}
	sum, err := view.Summarize()
	if err != nil {
		return ImportResult{}, fileRefusal(err)
	}
	res := ImportResult{Summary: sum}
	guests := map[int]bool{}
	for _, g := range in.Guests {
		guests[g] = true
	}
	cands, decided, err := s.matchPlayers(ctx, actor, imp.Players)
	if err != nil {
		return ImportResult{}, err
	}
	var unmatched []string
	for _, p := range imp.Players {
		ip := ImportPlayer{Index: p.ID, Name: p.Name(), Rank: p.Rank, Country: p.Country, Club: p.Club, EGDPin: p.EGDPin, File: p,
			Proposals: cands[p.ID], Candidates: candidateIDs(cands[p.ID])}
		switch id, ok := in.Matches[p.ID]; {
		case placeholder[p.ID]:
			ip.Status = "bye"
		case ok:
			if _, err := s.reg.GetPlayer(ctx, id); err != nil {
				return ImportResult{}, fmt.Errorf("match for %s: %w", ip.Name, err)
			}
			ip.PlayerID, ip.Status, ip.Basis = id, MatchMatched, BasisConfirmed
		case guests[p.ID]:
			ip.Status = MatchGuest
		default:
			d := decided[p.ID]
			ip.PlayerID, ip.Status, ip.Basis = d.PlayerID, d.Status, d.Basis
			if ip.Status != MatchMatched {
				unmatched = append(unmatched, clipf("%d %s", p.ID, ip.Name))
			}
		}
		res.Players = append(res.Players, ip)
	}
	if !in.Commit {
		return res, nil
	}
	if len(unmatched) > 0 {
		return res, ReasonUnmatchedPlayers.New("count", strconv.Itoa(len(unmatched)), "players", strings.Join(unmatched, ", "))
	}
	imp = view
	system := SwissSystem
	if imp.Format == "opengotha" && strings.Contains(string(in.Data), `PlacementCriterion name="MMS"`) {
		system = McMahonSystem
	}
	start := imp.Start
	if _, err := time.Parse(time.DateOnly, start); err != nil {
		start = s.store.Now().In(ledger.ChinaTime).Format(time.DateOnly)
	}
	end := imp.End
	if _, err := time.Parse(time.DateOnly, end); err != nil {
		end = start
	}
	komi := imp.Komi
	ev := EventInput{Name: imp.Name, Start: start, End: end, Venue: imp.Location, Level: in.Level, System: string(system),
		Order: string(SwissSOSExtendedOrder), Rounds: max(imp.Rounds, 1), Komi: &komi, Grading: in.Grading}
	e, groups, err := ev.validate()
	if err != nil {
		return res, err
	}
	e.Source, e.GradingAtImport = imp.Format, true
	req := struct {
		In  ImportInput
		Org string
	}{in, org}
	created, err := ledger.Mutate(ctx, s.store, actor, key, "ImportEvent", req, func(tx *ledger.Tx, now time.Time) (Event, error) {
		e, err := s.createTx(ctx, tx, now, actor, org, e, groups)
		if err != nil {
			return Event{}, err
		}
		for _, ip := range res.Players {
			if ip.Status == "bye" {
				continue // not in the field: his games are his opponents' byes
			}
			pin := ParticipantInput{PlayerID: ip.PlayerID, GuestName: ip.Name, GuestRank: ip.Rank, GuestCountry: ip.Country, EGDPin: ip.EGDPin}
			if ip.Status == "guest" {
				pin.PlayerID = 0
				if _, err := registry.ParseRank(ip.Rank); err != nil {
					pin.GuestRank = "" // professional ranks (3P) are not amateur ranks
				}
			}
			if _, err := s.addTx(ctx, tx, now, actor, e, pin); err != nil {
				return Event{}, fmt.Errorf("add %s: %w", clip(ip.Name), err)
			}
		}
		// every bye of a round: the first in the round's row, the others beside it
		byesOf := map[int][]Bye{}
		for _, b := range imp.Byes {
			byesOf[b.Round] = append(byesOf[b.Round], b)
		}
		for r := 1; r <= imp.Rounds; r++ {
			var bye any
			points := 0
			if bs := byesOf[r]; len(bs) > 0 {
				bye, points = bs[0].Player, bs[0].Points
			}
			if _, err := tx.Exec(ctx, `INSERT INTO tournament_rounds (tournament_id, round, seed, paired_at, bye, bye_points) VALUES ($1, $2, 0, $3, $4, $5)`,
				e.ID, r, now, bye, points); err != nil {
				return Event{}, ledger.PgErr(err, "import round")
			}
			for _, b := range byesOf[r][min(1, len(byesOf[r])):] {
				if _, err := tx.Exec(ctx, `INSERT INTO tournament_more_byes (tournament_id, round, number, points) VALUES ($1, $2, $3, $4)`,
					e.ID, r, b.Player, b.Points); err != nil {
					return Event{}, ledger.PgErr(err, "import bye")
				}
			}
		}
		boards := map[int]int{}
		for _, g := range imp.Games {
			boards[g.Round]++
			if _, err := tx.Exec(ctx, `INSERT INTO tournament_games (tournament_id, round, board, black, white, handicap, result) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				e.ID, g.Round, boards[g.Round], g.Black, g.White, g.Handicap, g.Result); err != nil {
				return Event{}, ledger.PgErr(err, "import game")
			}
		}
		e.PairedRounds = imp.Rounds
		err = ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(e.ID, 10),
			ImportedPayload{Format: imp.Format, Games: len(imp.Games), Players: len(imp.Players), Rounds: imp.Rounds})
		if err != nil {
			return Event{}, err
		}
		var matched []MatchedPlayer
		for i, ip := range res.Players {
			if ip.PlayerID == 0 || ip.Status != MatchMatched {
				continue
			}
			matched = append(matched, matchLine(i+1, ip))
			if ip.EGDPin != "" {
				if _, err := registry.LearnExternalIDTx(ctx, tx, now, actor, ip.PlayerID, registry.EGDScheme, ip.EGDPin); err != nil {
					return Event{}, err
				}
			}
		}
		if len(matched) > 0 {
			err = ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(e.ID, 10), PlayersMatchedPayload{Players: matched})
		}
		return e, err
	})
	if err != nil {
		return res, err
	}
	res.Event = &created
	return res, nil
}

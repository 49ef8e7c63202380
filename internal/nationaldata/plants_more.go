package nationaldata

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/rules"
	"github.com/dankyu/dankyu/tournaments"
)

// move is one stone of a game record.
type move struct {
	black bool
	x, y  int
}

// replays says whether the moves are legal from an empty 19×19 board.
func replays(ms []move) bool {
	b, err := rules.NewBoard(19)
	if err != nil {
		panic(err) // 19 is a board size
	}
	for _, m := range ms {
		c := rules.White
		if m.black {
			c = rules.Black
		}
		p := b.At(m.x, m.y)
		if b.Check(c, p) != rules.NoViolation {
			return false
		}
		b.Play(c, p)
	}
	return true
}

// baseGame is a legal game of n moves, black first.
func (pt *planter) baseGame(n int) []move {
	b, err := rules.NewBoard(19)
	if err != nil {
		panic(err)
	}
	var ms []move
	colour := rules.Black
	for len(ms) < n {
		for try := 0; try < 50; try++ {
			x, y := pt.r.IntN(19), pt.r.IntN(19)
			p := b.At(x, y)
			if b.Check(colour, p) != rules.NoViolation {
				continue
			}
			b.Play(colour, p)
			ms = append(ms, move{colour == rules.Black, x, y})
			break
		}
		colour = rules.Black + rules.White - colour
	}
	return ms
}

// turned is the game on a board turned by symmetry sym (0–7: rotations
// and their mirrors), with the colours swapped when swap.
func turned(ms []move, sym int, swap bool) []move {
	out := make([]move, len(ms))
	for i, m := range ms {
		x, y := m.x, m.y
		if sym&4 != 0 {
			x = 18 - x
		}
		for range sym & 3 {
			x, y = 18-y, x
		}
		out[i] = move{m.black != swap, x, y}
	}
	return out
}

// sgfOf writes the moves as a record won by resignation.
func sgfOf(ms []move, blackWins bool, event string, round int) string {
	winner := "W"
	if blackWins {
		winner = "B"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[7.5]RU[Chinese]EV[%s]RO[%d]RE[%s+R]", event, round, winner)
	for _, m := range ms {
		c := "W"
		if m.black {
			c = "B"
		}
		fmt.Fprintf(&sb, ";%s[%c%c]", c, 'a'+m.x, 'a'+m.y)
	}
	return sb.String() + ")"
}

// variant i of a game: the board turned (i mod 8), the colours swapped
// from the ninth on, two late moves changed every third; variant 0 is the
// game itself, and no two variants are alike.
func (pt *planter) variant(base []move, i int) ([]move, bool) {
	swap := (i/8)%2 == 1
	ms := turned(base, i%8, swap)
	if i%3 == 2 {
		for k := len(ms) - 6; k < len(ms); k += 3 {
			for try := 0; try < 40; try++ {
				old := ms[k]
				ms[k].x, ms[k].y = pt.r.IntN(19), pt.r.IntN(19)
				if ms[k] != old && replays(ms) {
					break
				}
				ms[k] = old
			}
		}
	}
	return ms, !swap // black wins the base game
}

// turnedRecord: a Swiss event of 12 players, 5 rounds; every other game
// is filed with a variant of one record (8 at small scale, 12 national),
// its result the record's.
func (pt *planter) turnedRecord(ctx context.Context, p *Plant) error {
	start := pt.day(time.June, 6)
	field, err := pt.candidates(ctx, p.Agency, start, "10 kyu or stronger", 12, func(p registry.Player) bool {
		return p.DeclaredRank >= -10 && p.DeclaredRank != registry.NoRank
	})
	if err != nil {
		return err
	}
	n := pt.scaled(8, 12)
	base := pt.baseGame(100 + pt.r.IntN(40))
	name := fmt.Sprintf("%d年业余围棋公开赛（%s）", pt.m.AuditYear, p.Agency)
	filed, k := 0, 0
	ev, _, games, err := pt.runEvent(ctx, p.Agency, start, tournaments.EventInput{Name: name, Level: "city", System: "swiss", Rounds: 5},
		field, "", func(g played, b, w registry.Player) played {
			k++
			if filed < n && k%2 == 1 {
				ms, blackWins := pt.variant(base, filed)
				g.sgf = sgfOf(ms, blackWins, name, g.round)
				g.result = map[bool]string{true: "black", false: "white"}[blackWins]
				filed++
				return g
			}
			g.result = pt.byRank(b, w)
			return g
		})
	if err != nil {
		return err
	}
	p.Events = append(p.Events, ev.ID)
	for _, g := range games {
		if g.sgf != "" {
			p.Games = append(p.Games, gameRef{ev.ID, g.round, g.board})
		}
	}
	p.Size = len(p.Games)
	p.Note = fmt.Sprintf("one %d-move record filed for %d games of a 12-player Swiss: turned and mirrored, colours swapped, late moves changed",
		len(base), p.Size)
	return nil
}

// voidedEvidence: round robins of 8 kyu players, a 1-dan group with a
// threshold of 5 wins, the lower number winning (numbers 1–3 qualify and
// are certified); in August the organiser voids enough of each one's wins
// to put him under the threshold, and leaves the certificates standing.
func (pt *planter) voidedEvidence(ctx context.Context, p *Plant) error {
	n := pt.scaled(2, 3)
	actor := agencyActor(p.Agency)
	all, err := pt.candidates(ctx, p.Agency, pt.day(time.April, 1), "12 to 1 kyu", 8*n, func(p registry.Player) bool {
		return p.Rank < 1 && p.DeclaredRank >= -12 && p.DeclaredRank <= -1
	})
	if err != nil {
		return err
	}
	for k := range n {
		start := pt.day(time.April+time.Month(k), 18)
		field := all[8*k : 8*k+8]
		ev, _, games, err := pt.runEvent(ctx, p.Agency, start, tournaments.EventInput{Name: fmt.Sprintf("%d年段位赛（%s）第%d站", pt.m.AuditYear, p.Agency, k+1),
			Level: "city", System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "初段组", TargetRank: "1d", MinWins: 5}}},
			field, "初段组", func(g played, _, _ registry.Player) played {
				g.result = "white"
				if g.black < g.white {
					g.result = "black"
				}
				return g
			})
		if err != nil {
			return err
		}
		p.Events = append(p.Events, ev.ID)
		if err := pt.approveProposals(ctx, p, ev, start.AddDate(0, 0, 4)); err != nil {
			return err
		}
		// the voids (both sides lose: an arranged game, so no opponent gains a
		// win): number q won 8−q games; 4 is under the threshold
		pt.at(pt.day(time.August, 10+k))
		for q := 1; q <= 3; q++ {
			left := 8 - q - 4
			for _, g := range games {
				if left == 0 {
					break
				}
				if won := (g.black == q && g.result == "black") || (g.white == q && g.result == "white"); !won {
					continue
				}
				if _, err := pt.ts.VoidResult(ctx, actor, "", ev.ID, tournaments.VoidInput{Round: g.round, Board: g.board,
					Side: tournaments.VoidBoth, Reason: "赛后查实该局系假棋，取消双方成绩"}); err != nil {
					if err := refused(p, "void", err); err != nil {
						return err
					}
					continue
				}
				p.Games = append(p.Games, gameRef{ev.ID, g.round, g.board})
				left--
			}
		}
	}
	standing := 0
	for _, number := range p.Certificates {
		c, err := pt.cs.Verify(ctx, number)
		if err == nil && c.Certificate.Status == certs.CertValid {
			standing++
		}
	}
	p.Note = fmt.Sprintf("%d players certified 1 dan from %d round robins, %d results voided afterwards; %d certificates still valid",
		p.Size, n, len(p.Games), standing)
	p.Size = standing
	return nil
}

// playerInput is a player as UpdatePlayer takes him.
func playerInput(p registry.Player) registry.PlayerInput {
	return registry.PlayerInput{Name: p.Name, Gender: p.Gender, BirthDate: p.BirthDate.Format(time.DateOnly), Nationality: p.Nationality,
		IDKind: p.IDKind, IDNumber: p.IDNumber, ProvinceCode: p.ProvinceCode, Rank: p.DeclaredRank.String(),
		ChangeReason: "据户籍资料更正出生日期"}
}

// identityEdits: 15- to 17-year-olds (6 at small scale, 10 national),
// one a week from July: birth date and identity number edited to make him
// 18, an appraisal filed two days later and approved, the identity
// restored ten days after the edit. What the services refuse or hold is
// recorded, and the plant goes on as an agency would.
func (pt *planter) identityEdits(ctx context.Context, p *Plant) error {
	n := pt.scaled(6, 10)
	first := pt.day(time.July, 1)
	older, younger := yearsBefore(first, 17, 6), yearsBefore(first, 15, 0)
	minors, err := pt.candidates(ctx, p.Agency, first, "15 to 17½ years old", n, func(p registry.Player) bool {
		return p.Rank < 3 && p.IDKind == registry.ResidentIDCard && p.BirthDate.After(older) && !p.BirthDate.After(younger)
	})
	if err != nil {
		return err
	}
	appraiser, err := pt.approvedAppraiser(ctx, p.Agency)
	if err != nil {
		return err
	}
	actor := agencyActor(p.Agency)
	held := 0
	for k, m := range minors {
		edit := first.AddDate(0, 0, 7*k)
		age := registry.AgeOn(m.BirthDate, edit)
		changed := m
		changed.BirthDate = m.BirthDate.AddDate(-(18 - age), 0, -7)
		pt.idSeq++
		changed.IDNumber = residentID(p.Agency, changed.BirthDate, 500000+pt.idSeq)
		pt.at(edit)
		got, err := pt.reg.UpdatePlayer(ctx, actor, "", m.ID, playerInput(changed))
		if err != nil {
			if err := refused(p, "edit birth date", err); err != nil {
				return err
			}
		} else if !got.BirthDate.Equal(changed.BirthDate) {
			held++ // held for staff approval
		}
		pt.at(edit.AddDate(0, 0, 2))
		cur, err := pt.reg.GetPlayer(ctx, m.ID)
		if err != nil {
			return err
		}
		app, err := pt.applyAppraisal(ctx, p.Agency, cur, appraiser)
		if err != nil {
			if err := refused(p, "apply by appraisal", err); err != nil {
				return err
			}
		} else {
			pt.at(edit.AddDate(0, 0, 3))
			if err := pt.approve(ctx, p, app.ID); err != nil {
				return err
			}
		}
		pt.at(edit.AddDate(0, 0, 10))
		now, err := pt.reg.GetPlayer(ctx, m.ID)
		if err != nil {
			return err
		}
		back := now
		back.BirthDate, back.IDNumber = m.BirthDate, m.IDNumber
		if _, err := pt.reg.UpdatePlayer(ctx, actor, "", m.ID, playerInput(back)); err != nil {
			if err := refused(p, "restore birth date", err); err != nil {
				return err
			}
		}
	}
	p.Note = fmt.Sprintf("%d minors made adults by an edit of birth date and identity number (%d edits held), %d certified by appraisal, identity restored",
		n, held, p.Size)
	return nil // Size: the certificates that stand on an edited identity
}

// approvedAppraiser is an approved appraiser of the agency.
func (pt *planter) approvedAppraiser(ctx context.Context, agency string) (certs.Appraiser, error) {
	as, err := pt.cs.ListAppraisers(ctx, agency)
	if err != nil {
		return certs.Appraiser{}, err
	}
	for _, a := range as {
		if a.Status == certs.AppraiserApproved {
			return a, nil
		}
	}
	return certs.Appraiser{}, fmt.Errorf("agency %s has no approved appraiser", agency)
}

// appraiserOverissue: the agency recommends an appraiser in April, staff
// approve him, and he signs 24 appraisals (60 national) of adults from May
// to October, each approved by the agency.
func (pt *planter) appraiserOverissue(ctx context.Context, p *Plant) error {
	n := pt.scaled(24, 60)
	actor := agencyActor(p.Agency)
	first := pt.day(time.May, 1)
	adult := yearsBefore(first, 19, 0)
	adults, err := pt.candidates(ctx, p.Agency, first, "adults", n, func(p registry.Player) bool {
		return p.Rank < 3 && p.DeclaredRank < 3 && !p.BirthDate.After(adult)
	})
	if err != nil {
		return err
	}
	pt.at(pt.day(time.April, 1))
	ap, err := pt.cs.RecommendAppraiser(ctx, actor, "", certs.AppraiserInput{Name: "鉴定员" + p.Agency, Qualification: "省业余围棋锦标赛前六名，业余5段"})
	if err != nil {
		return err
	}
	pt.at(pt.day(time.April, 3))
	if ap, err = pt.cs.SetAppraiserStatus(ctx, pt.staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		return err
	}
	for k, pl := range adults {
		day := first.AddDate(0, 0, k*180/n)
		pt.at(day)
		app, err := pt.applyAppraisal(ctx, p.Agency, pl, ap)
		if err != nil {
			if err := refused(p, "apply by appraisal", err); err != nil {
				return err
			}
			continue
		}
		pt.at(day.AddDate(0, 0, 2))
		if err := pt.approve(ctx, p, app.ID); err != nil {
			return err
		}
	}
	p.Note = fmt.Sprintf("appraiser %d approved in April signed %d appraisals of %d filed, May to October", ap.ID, p.Size, n)
	return nil
}

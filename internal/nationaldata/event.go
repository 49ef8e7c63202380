package nationaldata

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// minWins is a group's threshold of the 7 rounds: 5, 6 for 4 dan, all 7 for 5 dan.
func minWins(target registry.Rank) int {
	switch {
	case target >= 5:
		return 7
	case target == 4:
		return 6
	}
	return 5
}

func wonBy(g tournaments.GameRow, black bool) bool {
	switch g.Result {
	case tournaments.BlackWins, tournaments.BlackForfeit:
		return black
	case tournaments.WhiteWins, tournaments.WhiteForfeit:
		return !black
	}
	return false
}

func flip(r tournaments.Result) tournaments.Result {
	switch r {
	case tournaments.BlackWins:
		return tournaments.WhiteWins
	case tournaments.WhiteWins:
		return tournaments.BlackWins
	}
	return r
}

func forfeitOf(r tournaments.Result) tournaments.Result {
	if r == tournaments.BlackWins {
		return tournaments.BlackForfeit
	}
	return tournaments.WhiteForfeit
}

func isForfeit(r tournaments.Result) bool {
	return r == tournaments.BlackForfeit || r == tournaments.WhiteForfeit
}

// plannedGame is a game with the result first reported and, for a result
// changed later, when and to what.
type plannedGame struct {
	row      tournaments.GameRow // the final row
	first    tournaments.Result  // reported first
	changeAt time.Time           // zero: never changed
}

// pairedAt is when round r (1-based) of an event starting on start is paired:
// four rounds a day from 8:30.
func pairedAt(start time.Time, r int) time.Time {
	return start.AddDate(0, 0, (r-1)/4).Add(time.Duration((r-1)%4) * 2 * time.Hour)
}

// event plans one dan-grade event of the agency and what follows from it
// (applications, notices, certificates); it returns the dan and kyu
// qualifiers. A circuit event (realistic data sets) is an open
// competition of the agency's regional circuit: one field, five rounds, no
// groups and no proposals.
func (pl *planner) event(a *agency, y int, last bool, start time.Time, field []*player, circuit bool) (int, int) {
	r := pl.r
	actor := agencyActor(a.prov.Prefix)
	created := start.AddDate(0, 0, -(7 + r.IntN(14))).Add(90 * time.Minute)
	eventRounds := eventRounds
	if circuit {
		eventRounds = circuitRounds
		last = false // the planted anomalies live in the dan-grade events
	}
	byTarget := map[registry.Rank][]*player{}
	for _, p := range field {
		t := nextTarget(p.playingRank(start))
		if circuit {
			t = 0
		}
		byTarget[t] = append(byTarget[t], p)
	}
	targets := make([]registry.Rank, 0, len(byTarget))
	for t := range byTarget {
		targets = append(targets, t)
	}
	slices.Sort(targets)
	pl.ids.event++
	e := tournaments.BulkEvent{Event: tournaments.Event{ID: pl.ids.event, OrganiserPrefix: a.prov.Prefix, Venue: a.prov.NameZH + "棋院",
		Level: tournaments.Levels()[r.IntN(3)], System: tournaments.SwissSystem, Order: tournaments.SwissSOSOrder, Rounds: eventRounds,
		Rules: "chinese", Komi: 7.5, DanGrade: !circuit, Seed: int64(r.Uint64() >> 1), Status: "finished", CreatedAt: created,
		CreatedBy: actor.String()}}
	e.Name = fmt.Sprintf("%s%d年段级位赛第%d站", a.prov.NameZH, y, e.ID)
	if circuit {
		e.Name = fmt.Sprintf("%s%d年围棋联赛第%d站", a.prov.NameZH, y, e.ID)
	}
	e.Start = date(start)
	e.End = date(pairedAt(start, eventRounds))
	type entrant struct {
		p      *player
		number int
		group  int
		wins   int
	}
	var entrants []*entrant
	var groupsOf [][]*entrant
	for _, t := range targets {
		ps := byTarget[t]
		if len(ps)%2 == 1 {
			ps = ps[:len(ps)-1]
		}
		if len(ps) < 2 {
			continue
		}
		if !circuit {
			pl.ids.group++
			g := tournaments.Group{ID: pl.ids.group, Name: t.Chinese() + "组", TargetRank: t, MinWins: minWins(t)}
			e.Groups = append(e.Groups, g)
		}
		var members []*entrant
		for _, p := range ps {
			en := &entrant{p: p, number: len(entrants) + 1, group: len(e.Groups) - 1}
			entrants = append(entrants, en)
			members = append(members, en)
		}
		groupsOf = append(groupsOf, members)
	}
	if len(entrants) < 2 {
		pl.ids.event--
		pl.ids.group -= int64(len(e.Groups))
		return 0, 0
	}
	pl.emit(created, actor, "tournament", tournaments.EventEntity(e.ID), tournaments.NewCreatedPayload(e.Event))
	for i, en := range entrants {
		st := en.p.stateOn(created)
		part := tournaments.Participant{Number: en.number, PlayerID: en.p.row.ID, Name: st.Name, Rank: st.PlayingRank()}
		if !circuit {
			part.GroupID = e.Groups[en.group].ID
			en.p.playedIn = y
		}
		e.Participants = append(e.Participants, part)
		pl.emit(created.Add(time.Duration(i+1)*40*time.Second), actor, "tournament",
			tournaments.EventEntity(e.ID), tournaments.NewParticipantAddedPayload(part))
	}
	// the rounds: within each group, the leaders meet, no pair twice when it can be helped
	played := map[[2]int]bool{}
	var games []*plannedGame
	roundPairs := make([][]tournaments.Pairing, eventRounds+1)
	for round := 1; round <= eventRounds; round++ {
		board := 0
		for _, members := range groupsOf {
			order := slices.Clone(members)
			slices.SortStableFunc(order, func(x, y *entrant) int { return cmp.Compare(y.wins, x.wins) })
			used := map[int]bool{}
			for i, x := range order {
				if used[x.number] {
					continue
				}
				j := -1
				for k := i + 1; k < len(order); k++ {
					if used[order[k].number] {
						continue
					}
					if j < 0 {
						j = k
					}
					if !played[[2]int{x.number, order[k].number}] {
						j = k
						break
					}
				}
				y := order[j]
				used[x.number], used[y.number] = true, true
				played[[2]int{x.number, y.number}], played[[2]int{y.number, x.number}] = true, true
				b, w := x, y
				if r.IntN(2) == 0 {
					b, w = y, x
				}
				board++
				pBlack := 1 / (1 + math.Exp(-(b.p.skill-w.p.skill)*0.9))
				res := tournaments.WhiteWins
				if r.Float64() < pBlack {
					res = tournaments.BlackWins
				}
				if r.Float64() < forfeitRate {
					res = forfeitOf(res)
				}
				g := &plannedGame{row: tournaments.GameRow{Game: tournaments.Game{Round: round, Board: board, Black: b.number, White: w.number,
					Result: res}}, first: res}
				games = append(games, g)
				roundPairs[round] = append(roundPairs[round], tournaments.Pairing{Black: b.number, White: w.number})
				if wonBy(g.row, true) {
					b.wins++
				} else {
					w.wins++
				}
			}
		}
	}
	tl := pl.tallyOf(a, y)
	// the qualifiers, and their qualifying wins
	qualified := func(en *entrant) bool { return !circuit && en.wins >= e.Groups[en.group].MinWins }
	var qualifyingWins []*plannedGame
	for _, g := range games {
		bq, wq := qualified(entrants[g.row.Black-1]), qualified(entrants[g.row.White-1])
		if (wonBy(g.row, true) && bq) || (wonBy(g.row, false) && wq) {
			qualifyingWins = append(qualifyingWins, g)
		}
	}
	if an, ok := pl.anomalyOf(a, Forfeits); ok && last {
		want := int(math.Round(an.Size * float64(len(qualifyingWins))))
		have := 0
		var plain []*plannedGame
		for _, g := range qualifyingWins {
			if isForfeit(g.row.Result) {
				have++
			} else {
				plain = append(plain, g)
			}
		}
		for _, i := range r.Perm(len(plain))[:max(0, min(len(plain), want-have))] {
			g := plain[i]
			g.row.Result = forfeitOf(g.row.Result)
			g.first = g.row.Result
			pl.forfeit[a.prov.Prefix] = append(pl.forfeit[a.prov.Prefix], gameRef{e.ID, g.row.Round, g.row.Board})
		}
	}
	for _, g := range qualifyingWins {
		tl.qualifyingWins++
		if isForfeit(g.row.Result) {
			tl.forfeitWins++
		}
	}
	// late changes of results
	if an, ok := pl.anomalyOf(a, LateResults); ok && last {
		left := int(an.Size) - len(pl.late[a.prov.Prefix])
		take := min(left, max(2, int(math.Ceil(an.Size/2))))
		for _, i := range r.Perm(len(games)) {
			if take == 0 {
				break
			}
			g := games[i]
			if isForfeit(g.row.Result) || !g.changeAt.IsZero() {
				continue
			}
			if len(pl.late[a.prov.Prefix])%2 == 0 && g.row.Round < eventRounds {
				// reported wrong, put right after the next round was paired
				g.first = flip(g.row.Result)
				g.changeAt = pairedAt(start, g.row.Round+1).Add(10 * time.Minute)
			} else {
				// changed more than 7 days after the event
				g.row.Result = flip(g.row.Result)
				g.changeAt = cst(e.End.Year(), e.End.Month(), e.End.Day(), 11, 0).AddDate(0, 0, 8+r.IntN(13))
			}
			pl.late[a.prov.Prefix] = append(pl.late[a.prov.Prefix], gameRef{e.ID, g.row.Round, g.row.Board})
			take--
		}
	}
	// records for a sample of the games played on the board
	for _, g := range games {
		if isForfeit(g.row.Result) || !g.changeAt.IsZero() || r.Float64() >= pl.f.sgfShare {
			continue
		}
		g.row.Record, g.row.Adjudicated = pl.record(e.Event, g.row, entrants[g.row.Black-1].p, entrants[g.row.White-1].p)
		g.row.HasRecord = true
	}
	for round := 1; round <= eventRounds; round++ {
		at := pairedAt(start, round)
		br := tournaments.BulkRound{Round: round, Seed: e.Seed + int64(round), PairedAt: at}
		e.Paired = append(e.Paired, br)
		pl.emit(at, actor, "tournament", tournaments.EventEntity(e.ID), tournaments.NewRoundPairedPayload(br, roundPairs[round]))
	}
	for _, g := range games {
		at := pairedAt(start, g.row.Round).Add(90*time.Minute + time.Duration(g.row.Board)*15*time.Second)
		reported := g.row
		reported.Result = g.first
		pl.emit(at, actor, "tournament", tournaments.EventEntity(e.ID), tournaments.NewResultPayload(reported))
		if !g.changeAt.IsZero() {
			pl.emit(g.changeAt, actor, "tournament", tournaments.EventEntity(e.ID), tournaments.NewResultPayload(g.row))
		}
		e.Games = append(e.Games, g.row)
	}
	finished := cst(e.End.Year(), e.End.Month(), e.End.Day(), 19, 0)
	e.FinishedAt = &finished
	pl.emit(finished, actor, "tournament", tournaments.EventEntity(e.ID), tournaments.FinishedPayload{Rounds: eventRounds})
	if circuit {
		pl.plan.Tournaments = append(pl.plan.Tournaments, e)
		return 0, 0
	}
	dan, kyu := 0, 0
	var proposed []*application
	for _, en := range entrants {
		if !qualified(en) {
			continue
		}
		g := e.Groups[en.group]
		eventRef, recordRef, evidence := tournaments.ProposalRefs(e.Event, g, en.wins, eventRounds, en.number)
		placing := 1 // by wins: the standings' first criterion
		for _, o := range entrants {
			if o.wins > en.wins {
				placing++
			}
		}
		app := pl.apply(a, en.p, finished, actor, g.TargetRank, certs.Tournament, eventRef, recordRef, evidence, 0,
			certs.Application{EventID: e.ID, Placing: placing, Wins: en.wins, Games: eventRounds, Group: g.Name, EarnedRank: g.TargetRank})
		e.Proposals = append(e.Proposals, tournaments.BulkProposal{Number: en.number, ApplicationID: app.row.ID, Note: "proposed"})
		proposed = append(proposed, app)
		if g.TargetRank > 0 {
			dan++
		} else {
			kyu++
		}
	}
	pl.emit(finished, actor, "tournament", tournaments.EventEntity(e.ID), tournaments.ProposalsRecordedPayload{Filed: len(proposed)})
	for _, app := range proposed {
		at := pl.within(finished.Add(20*time.Hour), finished.Add(8*24*time.Hour))
		pl.approve(a, app, at, actor)
	}
	pl.plan.Tournaments = append(pl.plan.Tournaments, e)
	return dan, kyu
}

func (pl *planner) tallyOf(a *agency, y int) *tally {
	k := fmt.Sprintf("%s/%d", a.prov.Prefix, y)
	if pl.tally[k] == nil {
		pl.tally[k] = &tally{}
	}
	return pl.tally[k]
}

// apply files an application for p at t.
func (pl *planner) apply(a *agency, p *player, at time.Time, actor ledger.Actor, target registry.Rank, basis certs.Basis,
	eventRef, recordRef, evidence string, appraiser int64, rec ...certs.Application) *application {
	pl.ids.app++
	st := p.stateOn(at)
	app := &application{row: certs.BulkApplication{Application: certs.Application{ID: pl.ids.app, PlayerID: p.row.ID, PlayerName: st.Name,
		AgencyPrefix: a.prov.Prefix, TargetRank: target, Basis: basis, EventRef: eventRef, RecordRef: recordRef, Evidence: evidence,
		AppraiserID: appraiser, Status: certs.AppApplied, AppliedAt: at, AppliedBy: actor.String()}}}
	if len(rec) > 0 { // the registry's statement of the event the application rests on
		r := rec[0]
		app.row.EventID, app.row.Placing, app.row.Wins, app.row.Games, app.row.Group, app.row.EarnedRank = r.EventID, r.Placing, r.Wins, r.Games, r.Group, r.EarnedRank
	}
	pl.apps = append(pl.apps, app)
	pl.emit(at, actor, "application", fmt.Sprint(app.row.ID), certs.NewApplicationSubmittedPayload(app.row.Application))
	p.busyUntil = at.Add(30 * 24 * time.Hour)
	return app
}

// approve decides an application at t as Approve (and, for 4–7 dan, the
// notice, its objections and the sweeper) would.
func (pl *planner) approve(a *agency, app *application, at time.Time, approver ledger.Actor) {
	p := pl.playerByID(app.row.PlayerID)
	issuer := a.prov.Prefix
	if certs.AssociationIssues(app.row.TargetRank) {
		issuer = registry.AssociationPrefix
	}
	decided := at
	app.row.DecidedAt, app.row.DecidedBy = &decided, approver.String()
	if !certs.NeedsNotice(app.row.TargetRank) {
		c := pl.issue(at, approver, p, app, issuer)
		app.row.Status, app.cert = certs.AppIssued, c
		appID := app.row.ID
		pl.emitLazy(at, approver, "application", func() string { return idString(appID) }, func() ledger.Payload {
			return certs.ApplicationApprovedPayload{Certificate: c.row.Number, Status: certs.AppIssued}
		})
		p.busyUntil = at
		return
	}
	pl.ids.notice++
	st := p.stateOn(at)
	appraiserName := ""
	for _, x := range a.appraiser {
		if x.ID == app.row.AppraiserID {
			appraiserName = x.Name
		}
	}
	n := certs.Notice{ID: pl.ids.notice, ApplicationID: app.row.ID, PlayerName: st.Name, Gender: st.Gender, ProvinceCode: st.ProvinceCode,
		AgencyPrefix: a.prov.Prefix, AgencyName: a.row.Name, Rank: app.row.TargetRank, Basis: app.row.Basis,
		BasisDetail: certs.NoticeBasisDetail(app.row.Application, appraiserName), PublishedAt: at, EndsAt: at.Add(noticePeriod), Status: certs.NoticeOpen}
	pl.emit(at, approver, "notice", idString(n.ID), certs.NewNoticePublishedPayload(n))
	pl.emit(at, approver, "application", idString(app.row.ID), certs.ApplicationApprovedPayload{NoticeID: n.ID, Status: certs.AppOnNotice})
	app.row.Status = certs.AppOnNotice
	// objections: to the agencies' 4–5 dan (the association's 6–7 dan draw none here)
	if pl.r.Float64() < pl.f.objectionRate && issuer != registry.AssociationPrefix {
		pl.ids.objection++
		lodged := pl.within(at.Add(24*time.Hour), at.Add(5*24*time.Hour))
		ruled := lodged.Add(20 * time.Hour)
		o := certs.Objection{ID: pl.ids.objection, NoticeID: n.ID, Name: chineseName(pl.r), Contact: fmt.Sprintf("139%08d", pl.r.IntN(100000000)),
			Reason: "该棋手实际水平与所申报段位不符，请核查比赛成绩。", Address: fmt.Sprintf("203.0.%d.%d", pl.r.IntN(256), 1+pl.r.IntN(254)),
			LodgedAt: lodged, RuledAt: &ruled, RuledBy: staffActor.String()}
		pl.emit(lodged, publicActor, "notice", idString(n.ID), certs.NewObjectionLodgedPayload(o))
		// the plan's first objection is upheld, its second dismissed, then one in four upheld
		if o.ID == 1 || (o.ID > 2 && pl.r.IntN(4) == 0) {
			o.Status, o.Ruling = certs.ObjectionUpheld, "经核查，异议成立：比赛成绩存疑。"
			pl.emit(ruled, staffActor, "notice", idString(n.ID), certs.ObjectionUpheldPayload{ObjectionID: o.ID, Ruling: o.Ruling})
			pl.emit(ruled, staffActor, "application", idString(app.row.ID), certs.ApplicationFailedPayload{ObjectionID: o.ID})
			n.Status, n.ClosedAt = certs.NoticeFailed, &ruled
			app.row.Status, app.row.Reason = certs.AppFailed, fmt.Sprintf("objection %d upheld: %s", o.ID, o.Ruling)
			pl.plan.Certs.Objections = append(pl.plan.Certs.Objections, o)
			pl.plan.Certs.Notices = append(pl.plan.Certs.Notices, n)
			p.busyUntil = ruled
			return
		}
		o.Status, o.Ruling = certs.ObjectionDismissed, "经核查，比赛成绩属实，异议不成立。"
		pl.emit(ruled, staffActor, "notice", idString(n.ID), certs.ObjectionDismissedPayload{ObjectionID: o.ID, Ruling: o.Ruling})
		pl.plan.Certs.Objections = append(pl.plan.Certs.Objections, o)
	}
	sweep := n.EndsAt.Add(3 * time.Minute)
	sweeper := certs.SweeperActor()
	c := pl.issue(sweep, sweeper, p, app, issuer)
	app.row.Status, app.cert = certs.AppIssued, c
	n.Status, n.ClosedAt = certs.NoticeIssued, &sweep
	appID := app.row.ID
	pl.emitLazy(sweep, sweeper, "notice", func() string { return idString(n.ID) }, func() ledger.Payload {
		return certs.NoticeCompletedPayload{ApplicationID: appID, Certificate: c.row.Number}
	})
	pl.plan.Certs.Notices = append(pl.plan.Certs.Notices, n)
	p.busyUntil = sweep
}

// issue plans the certificate of an application, issued at t.
func (pl *planner) issue(at time.Time, actor ledger.Actor, p *player, app *application, issuer string) *certificate {
	from := p.rankOn(at)
	rank := app.row.TargetRank
	pl.ids.cert++
	body := ""
	if issuer != registry.AssociationPrefix {
		body = pl.byPref[issuer].row.Name
	}
	c := &certificate{holder: p, row: certs.BulkCertificate{Certificate: certs.Certificate{ID: pl.ids.cert, Kind: certs.KindOf(rank),
		IssuingPrefix: issuer, IssuingBody: body, PlayerID: p.row.ID, PlayerName: p.stateOn(at).Name, Rank: rank, Basis: app.row.Basis,
		ApplicationID: app.row.ID, IssuedAt: at, IssueDate: date(at), AthleteGrade: certs.AthleteGradeFor(rank, app.row.Basis),
		Status: certs.CertValid}, PreviousRank: from, GrantedAt: at}}
	app.row.CertificateID = c.row.ID
	p.certified = append(p.certified, rankAt{at, rank})
	p.row.Rank, p.row.RankCertified = rank, true
	pl.touch(p, at)
	pl.certs = append(pl.certs, c)
	pl.emit(at, actor, "player", idString(p.row.ID), registry.NewPlayerRankChangedPayload(from, rank, "certificate issued"))
	pl.emitLazy(at, actor, "certificate", func() string { return certs.CertificateEntity(c.row.Certificate) },
		func() ledger.Payload { return certs.NewCertificateIssuedPayload(c.row.Certificate, 0) })
	return c
}

func idString(id int64) string { return fmt.Sprint(id) }

func (pl *planner) playerByID(id int64) *player { return pl.players[id-1] }

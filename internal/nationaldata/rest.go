package nationaldata

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// appraisals plans the agency's appraisal applications of the year; for
// the birthdates anomaly, some come after an edit of the player's birth date.
func (pl *planner) appraisals(a *agency, y int, last bool, n int) {
	if len(a.appraiser) == 0 {
		return
	}
	actor := agencyActor(a.prov.Prefix)
	from, to := cst(y, time.January, 20, 0, 0), cst(y, time.October, 25, 0, 0)
	free := func(p *player, at time.Time) bool {
		r := p.playingRank(at)
		// appraisals lead to 1–3 dan, to 4 dan now and then
		return p.playedIn != y && !p.busyUntil.After(at.Add(-60*24*time.Hour)) && p.row.CreatedAt.Before(at.Add(-60*24*time.Hour)) &&
			(r < 3 || (r == 3 && pl.r.IntN(5) == 0)) && len(p.births) == 0
	}
	target := func(p *player, at time.Time) registry.Rank {
		r := p.playingRank(at)
		if r < 1 {
			return 1
		}
		return r + 1
	}
	file := func(p *player, at time.Time) {
		ap := a.appraiser[pl.r.IntN(len(a.appraiser))]
		app := pl.apply(a, p, at, actor, target(p, at), certs.Appraisal, "", "", "鉴定棋手"+ap.Name+"现场对局评定", ap.ID)
		p.playedIn = y
		pl.approve(a, app, pl.within(at.Add(48*time.Hour), at.Add(8*24*time.Hour)), actor)
	}
	if an, ok := pl.anomalyOf(a, BirthDates); ok && last {
		want := int(an.Size)
		for _, pass := range []bool{true, false} {
			for _, i := range pl.r.Perm(len(a.players)) {
				if len(pl.edited[a.prov.Prefix]) >= want {
					break
				}
				p := a.players[i]
				at := pl.within(from, to)
				if !free(p, at) {
					continue
				}
				age := registry.AgeOn(p.stateOn(at).BirthDate, at)
				if pass && (age < 16 || age > 17) { // first those a change makes adults
					continue
				}
				if !pass && age < 12 {
					continue
				}
				edit := at.Add(-time.Duration(3+pl.r.IntN(25)) * 24 * time.Hour)
				before := p.stateOn(edit)
				years := max(1, 18-age+pl.r.IntN(2))
				birth := before.BirthDate.AddDate(-years, 0, 0)
				a.idSeq++
				after := before
				after.BirthDate, after.IDNumber, after.UpdatedAt = birth, residentID(a.prov.Prefix, birth, a.idSeq), edit
				p.births = append(p.births, birthEdit{at: edit, birth: birth, number: after.IDNumber})
				p.row.BirthDate, p.row.IDNumber = birth, after.IDNumber
				pl.touch(p, edit)
				// the agency asks, staff approve a few hours later: the change takes effect then
				asked := edit.Add(-time.Duration(2+pl.r.IntN(20)) * time.Hour)
				c := registry.IdentityChange{ID: int64(len(pl.plan.IdentityChanges) + 1), PlayerID: p.row.ID, AgencyPrefix: a.prov.Prefix,
					Status: registry.ChangeApproved, Reason: "登记时出生日期录入错误，依据户口簿更正", RequestedAt: asked, RequestedBy: actor.String(),
					OldBirthDate: before.BirthDate, NewBirthDate: birth, OldNationality: before.Nationality, NewNationality: after.Nationality,
					OldIDKind: before.IDKind, NewIDKind: after.IDKind, OldIDMasked: registry.MaskIdentity(before.IDNumber),
					NewIDMasked: registry.MaskIdentity(after.IDNumber), DecidedAt: &edit, DecidedBy: staffActor.String()}
				pl.plan.IdentityChanges = append(pl.plan.IdentityChanges, c)
				pl.emit(asked, actor, "player", idString(p.row.ID), registry.PlayerIdentityChangeRequestedPayload{
					After: registry.LoggedIdentityOf(after), Before: registry.LoggedIdentityOf(before), BirthDateChanged: c.BirthDateChanged(), Change: c.ID, Reason: c.Reason})
				pl.emit(edit, staffActor, "player", idString(p.row.ID), registry.NewPlayerUpdatedPayload(before, after))
				pl.emit(edit, staffActor, "player", idString(p.row.ID), registry.PlayerIdentityChangeApprovedPayload{Change: c.ID})
				pl.edited[a.prov.Prefix] = append(pl.edited[a.prov.Prefix], p.row.ID)
				file(p, at)
			}
		}
	}
	for _, i := range pl.r.Perm(len(a.players)) {
		if n == 0 {
			break
		}
		p := a.players[i]
		at := pl.within(from, to)
		if !free(p, at) || registry.AgeOn(p.stateOn(at).BirthDate, at) < certs.MinAppraisalAge+1 {
			continue
		}
		file(p, at)
		n--
	}
}

// edits plans corrections of declared ranks of players who play in no
// event of the year: the birth date stays as it was.
func (pl *planner) edits(a *agency, y int) {
	start, end := periodStart(y), periodEnd(y)
	n := int(math.Round(editRate * float64(len(a.players))))
	for _, i := range pl.r.Perm(len(a.players)) {
		if n == 0 {
			break
		}
		p := a.players[i]
		at := pl.within(start, end.Add(-24*time.Hour))
		if p.playedIn == y || !p.row.CreatedAt.Before(at) || p.busyUntil.After(start) || len(p.births) > 0 {
			continue
		}
		before := p.stateOn(at)
		if before.Rank != registry.NoRank || before.DeclaredRank >= -1 {
			continue
		}
		after := before
		after.DeclaredRank++
		if before.DeclaredRank == registry.NoRank {
			after.DeclaredRank = -25
		}
		after.UpdatedAt = at
		p.declared = append(p.declared, rankAt{at, after.DeclaredRank})
		p.row.DeclaredRank = after.DeclaredRank
		pl.touch(p, at)
		pl.emit(at, agencyActor(a.prov.Prefix), "player", idString(p.row.ID), registry.NewPlayerUpdatedPayload(before, after))
		n--
	}
}

// nationalRanks plans the association's 6 and 7 dan of the year: staff
// apply for the strongest players on a national result or championship.
func (pl *planner) nationalRanks(y int) {
	at := cst(y, time.September, 20, 10, 0)
	var strong []*player
	for _, p := range pl.players {
		if p.agency.anomaly != nil || p.agency.idle || p.busyUntil.After(at.Add(-20*24*time.Hour)) || p.playedIn == y || p.playingRank(at) < 3 {
			continue
		}
		strong = append(strong, p)
	}
	slices.SortStableFunc(strong, func(a, b *player) int { return cmp.Compare(b.skill, a.skill) })
	count := 3
	if pl.o.Scale == National {
		count = 12
	}
	for i, p := range strong[:min(count, len(strong))] {
		target, basis, record := registry.Rank(6), certs.NationalResult, fmt.Sprintf("第%d名", i+1)
		if i == 0 {
			target, basis, record = 7, certs.NationalChampionship, "冠军"
		}
		app := pl.apply(p.agency, p, at.Add(time.Duration(i)*time.Minute), staffActor, target, basis,
			fmt.Sprintf("%d年全国业余围棋锦标赛", y), record, "全国赛成绩公告", 0)
		p.playedIn = y
		pl.approve(p.agency, app, at.Add(72*time.Hour+time.Duration(i)*time.Minute), staffActor)
	}
}

// finish numbers the certificates, plans the orders and roster
// submissions, and writes the plan's rows and events in time order.
func (pl *planner) finish() {
	// serials in the order of issue, per series
	type series struct {
		prefix string
		yy     int
		kind   certs.Kind
	}
	next := map[series]int{}
	sorted := slices.Clone(pl.certs)
	slices.SortStableFunc(sorted, func(a, b *certificate) int {
		return cmp.Or(a.row.IssuedAt.Compare(b.row.IssuedAt), cmp.Compare(a.row.ID, b.row.ID))
	})
	for _, c := range sorted {
		if !printedKyu(c.row.Rank) {
			continue
		}
		s := series{c.row.IssuingPrefix, certs.Year(c.row.IssuedAt), c.row.Kind}
		next[s]++
		n, err := certs.NewNumber(c.row.Kind, s.prefix, s.yy, next[s])
		if err != nil {
			panic(fmt.Sprintf("number certificate %d: %v", c.row.ID, err)) // a series of 9999 dan a year per agency is the schema's bound
		}
		c.row.Number = n.String()
	}
	pl.orders()
	pl.rosters()
	for _, app := range pl.apps {
		pl.plan.Certs.Applications = append(pl.plan.Certs.Applications, app.row)
	}
	for _, c := range pl.certs {
		pl.plan.Certs.Certificates = append(pl.plan.Certs.Certificates, c.row)
	}
	slices.SortFunc(pl.plan.Certs.Notices, func(a, b certs.Notice) int { return cmp.Compare(a.ID, b.ID) })
	for _, p := range pl.players {
		pl.plan.Players = append(pl.plan.Players, p.row)
	}
	sort.SliceStable(pl.events, func(i, j int) bool { return pl.events[i].at.Before(pl.events[j].at) })
	pl.plan.Events = make([]ledger.BulkEvent, len(pl.events))
	for i, e := range pl.events {
		pl.plan.Events[i] = ledger.BulkEvent{At: e.at, Actor: e.actor, EntityType: e.entityType, EntityID: e.entity(), Payload: e.payload(),
			Fill: e.fill}
	}
	pl.events = nil
	pl.manifest()
}

// orders plans each agency's December order for each year (granted) and
// for the year after the last (waiting for the audit).
func (pl *planner) orders() {
	issued := map[string][2]int{} // agency/year → dan, printed kyu
	for _, c := range pl.certs {
		if c.row.IssuingPrefix == registry.AssociationPrefix || c.row.Number == "" {
			continue
		}
		k := fmt.Sprintf("%s/%d", c.row.IssuingPrefix, c.row.IssuedAt.In(ledger.ChinaTime).Year())
		v := issued[k]
		if c.row.Kind == certs.DanSeries {
			v[0]++
		} else {
			v[1]++
		}
		issued[k] = v
	}
	lastYear := pl.o.Years[len(pl.o.Years)-1]
	for _, y := range append(slices.Clone(pl.o.Years), lastYear+1) {
		for _, a := range pl.ags {
			if pl.idleIn(a) && y >= lastYear {
				continue
			}
			base := issued[fmt.Sprintf("%s/%d", a.prov.Prefix, min(y, lastYear))]
			o := certs.Order{AgencyPrefix: a.prov.Prefix, Year: y, DanCount: min(certs.MaxDanSerial, int(math.Ceil(float64(base[0])*1.2))+10),
				KyuCount: min(certs.MaxKyuSerial, int(math.Ceil(float64(base[1])*1.2))+10), Status: certs.OrderRequested}
			if pl.o.Realistic && y == lastYear {
				// room for what the services plant after the load
				o.DanCount = min(certs.MaxDanSerial, int(math.Ceil(float64(base[0])*1.5))+80)
			}
			if y > lastYear {
				o.OrderedAt = cst(lastYear, time.December, 1, 9, pl.r.IntN(60))
			} else {
				o.OrderedAt = pl.within(cst(y-1, time.December, 2, 0, 0), cst(y-1, time.December, 18, 0, 0))
			}
			o.OrderedBy = agencyActor(a.prov.Prefix).String()
			pl.emit(o.OrderedAt, agencyActor(a.prov.Prefix), "order", certs.OrderEntity(o), certs.NewOrderPlacedPayload(o))
			if y <= lastYear {
				dec := o.OrderedAt.Add(time.Duration(48+pl.r.IntN(96)) * time.Hour)
				o.Status, o.DecidedAt, o.DecidedBy, o.Note = certs.OrderGranted, &dec, staffActor.String(), "按订数发放"
				pl.emit(dec, staffActor, "order", certs.OrderEntity(o), certs.NewOrderGrantedPayload(o))
			}
			pl.plan.Certs.Orders = append(pl.plan.Certs.Orders, o)
		}
	}
}

// rosters plans each active agency's roster submission of each year, in November.
func (pl *planner) rosters() {
	lastYear := pl.o.Years[len(pl.o.Years)-1]
	previous := map[string][]string{}
	var pending []struct {
		at time.Time
		a  *agency
		y  int
	}
	for _, y := range pl.o.Years {
		for _, a := range pl.ags {
			if pl.idleIn(a) && y == lastYear {
				continue
			}
			pending = append(pending, struct {
				at time.Time
				a  *agency
				y  int
			}{pl.within(cst(y, time.November, 26, 0, 0), cst(y, time.November, 30, 0, 0)), a, y})
		}
	}
	// the holders' certificates by province, in order of issue
	byProvince := map[string][]*certificate{}
	for _, c := range pl.certs {
		if c.row.Kind == certs.DanSeries {
			byProvince[c.holder.row.ProvinceCode] = append(byProvince[c.holder.row.ProvinceCode], c)
		}
	}
	for _, pr := range byProvince {
		slices.SortStableFunc(pr, func(a, b *certificate) int {
			return cmp.Or(a.row.IssueDate.Compare(b.row.IssueDate), cmp.Compare(a.row.Number, b.row.Number))
		})
	}
	for _, s := range pending {
		pl.ids.roster++
		sub := certs.BulkRoster{RosterSubmission: certs.RosterSubmission{ID: pl.ids.roster, AgencyPrefix: s.a.prov.Prefix, Year: s.y,
			SubmittedAt: s.at, SubmittedBy: agencyActor(s.a.prov.Prefix).String()}, Numbers: []string{}, Snapshot: []certs.RosterRow{}}
		// a holder's newer certificate replaces none: every valid dan certificate is on the roster
		for _, c := range byProvince[s.a.prov.Code] {
			if c.row.IssuedAt.After(s.at) {
				continue
			}
			sub.Numbers = append(sub.Numbers, c.row.Number)
			sub.Snapshot = append(sub.Snapshot, certs.RosterRowOf(c.row.Certificate, c.holder.stateOn(s.at)))
		}
		sub.Rows = len(sub.Numbers)
		prev, seen := previous[s.a.prov.Prefix]
		sub.First = !seen
		sub.Added, sub.Removed = certs.RosterDifference(sub.Numbers, prev), certs.RosterDifference(prev, sub.Numbers)
		previous[s.a.prov.Prefix] = sub.Numbers
		pl.plan.Certs.Rosters = append(pl.plan.Certs.Rosters, sub)
	}
	for i := range pl.plan.Certs.Rosters {
		sub := &pl.plan.Certs.Rosters[i]
		pl.events = append(pl.events, pendingEvent{at: sub.SubmittedAt, actor: sub.SubmittedBy, entityType: "roster",
			entity:  func() string { return fmt.Sprintf("%s/%d", sub.AgencyPrefix, sub.Year) },
			payload: func() ledger.Payload { return certs.RosterSubmittedPayload{} },
			fill: func(head tlog.Tree) (ledger.Payload, error) {
				sub.LogSize, sub.LogHash = head.N, head.Hash[:]
				return certs.NewRosterSubmittedPayload(sub.RosterSubmission), nil
			}})
	}
}

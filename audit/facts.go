package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// Item is one thing an indicator counts: a certificate, player, game, event,
// application or month, with the event-log row it rests on.
type Item struct {
	Kind    string // certificate, player, game, tournament, application, month
	Ref     string // the certificate number, player or tournament id, "tournament/round/board", "2026-03"
	Link    string // the portal page, when there is one
	EventID int64  // the event-log row (0 for a month without any)
	Note    string
}

// measure is one indicator's raw figures for one agency.
type measure struct {
	count, base int64
	value       float64
	expected    float64 // a model's indicator: the count its model expects
	items       []Item
}

// Period is an audit year's span, [Start, End).
type Period struct{ Start, End time.Time }

// playerState is one player as the log leaves him. The national log holds
// some 325 000 players, so each is kept small and by value (facts.pl):
// ranks in a byte, the birth date as a number, the agency as an index into
// facts.prefixes, and what few players have (later declared ranks, dan
// certificates, birth-date edits, appraisals) behind one pointer.
type playerState struct {
	extra *playerExtra // nil: none of it
	birth int32        // YYYYMMDD (0: none, or not a date)
	// birthAsked: the log holds the player but not his birth date (rows
	// since issue 31 keep the year only); the registry is asked for it
	birthAsked bool
	merged     bool
	hasCert    bool
	declared0  bool  // the declared rank (自报) is known: declared holds it
	prefix     uint8 // index into facts.prefixes (0: none)
	rank       rank8
	lastCert   rank8
	paper      rank8 // the highest rank of its paper-recorded certificates (0: none)
	declared   rank8 // the declared rank as registered (or first logged)
}

// playerExtra is what only some players have.
type playerExtra struct {
	declared   []rankAt    // each later change of the declared rank, in log order
	danCerts   []time.Time // his dan certificates' times
	birthEdits []eventAt
	appraisals []eventAt // appraisal applications in the period
}

// rank8 is a registry.Rank (-30 … 8) in a byte.
type rank8 int8

func (r rank8) rank() registry.Rank { return registry.Rank(r) }

// eventAt is an event-log row's id and time (and the application it names).
type eventAt struct {
	id     int64
	at     time.Time
	entity string
}

func (ps *playerState) more() *playerExtra {
	if ps.extra == nil {
		ps.extra = &playerExtra{}
	}
	return ps.extra
}

func (ps *playerState) danCerts() []time.Time {
	if ps.extra == nil {
		return nil
	}
	return ps.extra.danCerts
}

// setBirth keeps a YYYY-MM-DD birth date ("" or not a date: none).
func (ps *playerState) setBirth(s string) {
	ps.birth = 0
	if b, err := time.Parse(time.DateOnly, s); err == nil {
		ps.birth = int32(b.Year()*10000 + int(b.Month())*100 + b.Day())
	}
}

// under18 reports whether the player, by the birth date kept, is under 18 on date (YYYY-MM-DD).
func (ps *playerState) under18(date string) bool {
	if ps.birth == 0 {
		return false
	}
	b := time.Date(int(ps.birth/10000), time.Month(ps.birth/100%100), int(ps.birth%100), 0, 0, 0, 0, time.UTC)
	return under18(b.Format(time.DateOnly), date)
}

// rankAt is a declared rank from a moment on.
type rankAt struct {
	at   time.Time
	rank registry.Rank
}

// declaredCredit is how long a declared rank must have stood before a
// certificate to count as known before it: a raise of the declared rank
// shortly before the certificate is not credited (the agency enters the
// declared rank itself), the rank declared at registration is.
const declaredCredit = 90 * 24 * time.Hour

// declaredBefore is the declared rank credited to a certificate at t: the
// lowest the declared rank stood in the declaredCredit before t (the rank
// declared at registration counts however recent).
func (ps *playerState) declaredBefore(t time.Time) registry.Rank {
	if !ps.declared0 {
		return registry.NoRank
	}
	from := t.Add(-declaredCredit)
	credit := ps.declared.rank()
	var later []rankAt
	if ps.extra != nil {
		later = ps.extra.declared
	}
	for _, d := range later {
		if d.at.After(t) {
			break
		}
		if !d.at.After(from) || lowerRank(d.rank, credit) {
			credit = d.rank
		}
	}
	return credit
}

// lowerRank says whether a is a lower rank than b (no rank is below every kyu).
func lowerRank(a, b registry.Rank) bool { return rankOrder(a) < rankOrder(b) }

func rankOrder(r registry.Rank) int {
	if r == registry.NoRank {
		return -100
	}
	return int(r)
}

// bestBefore is the best rank known of the player before a certificate at
// t: the declared rank credited, a paper-recorded certificate's, an
// earlier certificate's.
func (ps *playerState) bestBefore(t time.Time) registry.Rank {
	best := ps.declaredBefore(t)
	for _, r := range []registry.Rank{ps.paper.rank(), ps.lastCert.rank()} {
		if r != registry.NoRank && lowerRank(best, r) {
			best = r
		}
	}
	return best
}

type certState struct {
	issuer string
	player int64
}

type appState struct {
	player    int64
	basis     string
	appraiser int64
}

// resultChange is a result event that changed a board's earlier result.
type resultChange struct {
	round, board int
	at           time.Time
	event        int64
	from, to     string
}

type tournamentState struct {
	facts     tournaments.EventFacts
	players   participants // by number: the player, the rank entered, withdrawn
	games     gameTable
	paired    []pairedRound // each round's first pairing
	changes   []resultChange
	confirmed map[int]bool // rounds the chief referee confirmed (tournament.round_confirmed)
	finished  bool
	imported  int64 // the tournament.imported event (0: built in the registry)
}

// facts is what one pass over the event log up to a position gathers, per agency.
type facts struct {
	period  Period
	months  []time.Time // the 13 month boundaries of the period
	players playerIndex // player id → his index in pl
	pl      []playerState
	// prefixes are the agencies' prefixes by index ("" first); provinceIdx
	// maps a province code to its agency's index
	prefixes    []string
	provinceIdx map[string]uint8
	certs       map[string]certState
	apps        map[string]appState
	notices     map[string]string // notice id → application entity id
	events      map[int64]*tournamentState
	measures    map[string]map[string]*measure // agency → key → measure
	active      map[string][]int64             // agency → first event id of each month (0: none)
	agencies    []string                       // the agencies audited
	// collect says whose items to keep (the drill-down's); nil keeps none
	collect func(agency, key string) bool
	seen    map[string]bool // agency, key and ref of items counted once
	// published counts the notices of each agency published in the period
	published map[string]int64
	more                        // what the later indicators gather (patterns.go)
	strs      map[string]string // interned strings (facts.intern)
	// results are the games\' results by code (facts.code), "" first
	results     []string
	resultCodes map[string]uint32
	// minorAsks are the 4–5 dan issued in the period to players whose birth
	// date the log does not hold (rows since issue 31 keep only the year):
	// whether each was a minor is asked of the registry after the pass
	minorAsks []minorAsk
	pairBuf   []tournaments.Pairing // readPairing's, reused: t.pair copies the pairs
	ranks     map[string]parsedRank // facts.rank's
}

// minorAsk is a 4–5 dan certificate whose holder's age is asked after the pass.
type minorAsk struct {
	issuer, issueDate string
	ask               registry.BirthAsk
	item              Item
}

// needs says whether key is computed: always for scorecards, and for a
// drill-down only when it is the indicator drilled into (the costly
// readings, records and ratings, are then left out for the others).
func (f *facts) needs(key string) bool {
	if f.collect == nil {
		return true
	}
	for _, ag := range f.agencies {
		if f.collect(ag, key) {
			return true
		}
	}
	return false
}

func (f *facts) m(agency, key string) *measure {
	a := f.measures[agency]
	if a == nil {
		a = map[string]*measure{}
		f.measures[agency] = a
	}
	x := a[key]
	if x == nil {
		x = &measure{}
		a[key] = x
	}
	return x
}

func (f *facts) count(agency, key string, it Item) {
	x := f.m(agency, key)
	x.count++
	if f.collect != nil && f.collect(agency, key) {
		x.items = append(x.items, it)
	}
}

// countBy is count with the item built only when it is kept (the
// drill-down's): most counts keep none, and a player's item is three
// strings.
func (f *facts) countBy(agency, key string, it func() Item) {
	x := f.m(agency, key)
	x.count++
	if f.collect != nil && f.collect(agency, key) {
		x.items = append(x.items, it())
	}
}

func (f *facts) inPeriod(t time.Time) bool {
	return !t.Before(f.period.Start) && t.Before(f.period.End)
}

// touch records activity of agency at e.
func (f *facts) touch(agency string, e ledger.LoggedEvent) {
	if agency == "" || agency == registry.AssociationPrefix {
		return
	}
	if e.At.Before(f.period.Start) {
		f.touchEarlier(agency, e)
		return
	}
	if !f.inPeriod(e.At) {
		return
	}
	months := f.active[agency]
	if months == nil {
		months = make([]int64, 12)
		f.active[agency] = months
	}
	for i := range 12 {
		if e.At.Before(f.months[i+1]) {
			if months[i] == 0 {
				months[i] = e.ID
			}
			return
		}
	}
}

// prefixOfProvince is the index in f.prefixes of the agency of a province (0: none).
func (f *facts) prefixOfProvince(code string) uint8 { return f.provinceIdx[code] }

// player is the player with id (nil: none in the log so far); the pointer
// holds until the next newPlayer.
func (f *facts) player(id int64) *playerState {
	i, ok := f.players.get(id)
	if !ok {
		return nil
	}
	return &f.pl[i]
}

// newPlayer starts the player id afresh.
func (f *facts) newPlayer(id int64) *playerState {
	if i, ok := f.players.get(id); ok {
		f.pl[i] = playerState{}
		return &f.pl[i]
	}
	f.players.put(id, int32(len(f.pl)))
	f.pl = append(f.pl, playerState{})
	return &f.pl[len(f.pl)-1]
}

func playerRef(id int64) Item {
	s := strconv.FormatInt(id, 10)
	return Item{Kind: "player", Ref: s, Link: "/players/" + s}
}

func certRef(number string, e ledger.LoggedEvent) Item {
	it := Item{Kind: "certificate", Ref: number, EventID: e.ID}
	if number != "" && !strings.HasPrefix(number, "#") {
		it.Link = "/verify?number=" + number
	}
	return it
}

// gather reads the event log up to position (and before the period's end)
// once, with the fixed facts of the tournaments, and measures every agency.
func gather(ctx context.Context, q ledger.Querier, position int64, period Period, agencies []string, collect func(agency, key string) bool, rt rating) (*facts, error) {
	f, err := replay(ctx, q, position, period, agencies, collect)
	if err != nil {
		return nil, err
	}
	copies := f.startCopies()
	f.countFallen()
	f.finish()
	// joined before the pair rows are built and the games dropped: the
	// copies are named by their games, and the matching's tables are not
	// held at the audit's peak
	f.identical(copies)
	f.finishMore() // drops the games once counted
	if err := f.rate(ctx, rt); err != nil {
		return nil, err
	}
	return f, nil
}

// replay is gather's pass over the log and the tables, before anything is
// measured from what it leaves.
func replay(ctx context.Context, q ledger.Querier, position int64, period Period, agencies []string, collect func(agency, key string) bool) (*facts, error) {
	evs, err := tournaments.AllEventFacts(ctx, q)
	if err != nil {
		return nil, err
	}
	f := &facts{period: period, certs: map[string]certState{}, apps: map[string]appState{},
		notices: map[string]string{}, events: map[int64]*tournamentState{}, measures: map[string]map[string]*measure{},
		active: map[string][]int64{}, agencies: agencies, collect: collect, seen: map[string]bool{},
		published: map[string]int64{}, more: newMore()}
	f.prefixes, f.provinceIdx, f.results = []string{""}, map[string]uint8{}, []string{""}
	for _, p := range registry.Provinces() {
		if p.Prefix != registry.AssociationPrefix {
			i := slices.Index(f.prefixes, p.Prefix)
			if i < 0 {
				i = len(f.prefixes)
				f.prefixes = append(f.prefixes, p.Prefix)
			}
			f.provinceIdx[p.Code] = uint8(i)
		}
	}
	for i := range 13 {
		f.months = append(f.months, period.Start.In(ledger.ChinaTime).AddDate(0, i, 0))
	}
	if err := f.applyAll(ctx, q, position, evs); err != nil {
		return nil, err
	}
	if err := f.minors(ctx, q); err != nil {
		return nil, err
	}
	if err := f.readTables(ctx, q); err != nil {
		return nil, err
	}
	return f, nil
}

// scanBatch is how many rows the scan hands the pass at a time.
const scanBatch = 1024

// applyAll applies the log's rows up to position, in order. The rows are
// read and decoded (pgx) on one goroutine and applied on another, in
// batches, so that the decoding of the next rows overlaps the pass over
// the last: the pass is sequential, the reading need not wait for it.
func (f *facts) applyAll(ctx context.Context, q ledger.Querier, position int64, evs map[int64]tournaments.EventFacts) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	batches := make(chan []ledger.LoggedEvent, 4)
	free := make(chan []ledger.LoggedEvent, 6) // batches applied, for reuse
	applied := make(chan error, 1)
	go func() {
		var failed error
		for b := range batches {
			for _, e := range b {
				if failed != nil {
					break
				}
				f.saw(e)
				if err := f.apply(e, evs); err != nil {
					failed = fmt.Errorf("event %d (%s): %w", e.ID, e.Action, err)
					cancel(failed) // stops the scan
				}
			}
			select {
			case free <- b[:0]:
			default:
			}
		}
		applied <- failed
	}()
	batch := make([]ledger.LoggedEvent, 0, scanBatch)
	send := func() error {
		select {
		case batches <- batch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		select {
		case batch = <-free:
		default:
			batch = make([]ledger.LoggedEvent, 0, scanBatch)
		}
		return nil
	}
	err := ledger.ScanEvents(ctx, q, position, f.period.End, func(e ledger.LoggedEvent) error {
		batch = append(batch, e)
		if len(batch) == scanBatch {
			return send()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = send()
	}
	close(batches)
	if failed := <-applied; failed != nil {
		return failed // the pass's error, not the scan's cancellation it caused
	}
	return err
}

func (f *facts) apply(e ledger.LoggedEvent, evs map[int64]tournaments.EventFacts) error {
	if strings.HasPrefix(e.Actor, "agency:") {
		f.touch(strings.TrimPrefix(e.Actor, "agency:"), e)
	}
	id64 := func() int64 { n, _ := strconv.ParseInt(e.EntityID, 10, 64); return n }
	switch e.Action {
	case "player.registered":
		p, err := readPayload[registry.PlayerRegisteredPayload](e.Payload, "province_code", "birth_date", "rank", "declared_rank")
		if err != nil {
			return err
		}
		r, _ := f.rank(p.quoted("rank"))
		ps := f.newPlayer(id64())
		ps.prefix, ps.rank = f.province(p.quoted("province_code")), rank8(r)
		birth := p.str("birth_date")
		ps.setBirth(birth)
		ps.birthAsked = birth == ""
		// the declared rank (自报); rows older than the typed payload had
		// one rank, the entered one (a player is registered uncertified,
		// so a new row's rank is empty)
		declared := r
		if d := p.quoted("declared_rank"); len(d) > 2 && d[0] == '"' { // a string, not "" (what p.str reads)
			declared, _ = f.rank(p.quoted("declared_rank"))
		}
		ps.declared0, ps.declared = true, rank8(declared)
		f.touch(f.prefixes[ps.prefix], e)
		if f.inPeriod(e.At) {
			f.countBy(f.prefixes[ps.prefix], KeyPlayersRegistered, func() Item {
				it := playerRef(id64())
				it.EventID = e.ID
				return it
			})
		}
	case "player.updated":
		var p registry.PlayerUpdatedPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return err
		}
		ps := f.player(id64())
		if ps == nil {
			return nil
		}
		if p.Before.DeclaredRank != p.After.DeclaredRank {
			if r, err := registry.ParseRank(p.After.DeclaredRank); err == nil {
				if !ps.declared0 { // the first declared rank known: its time is never asked
					ps.declared0, ps.declared = true, rank8(r)
				} else {
					ps.more().declared = append(ps.more().declared, rankAt{e.At, r})
				}
			}
		}
		switch {
		case p.BirthDateChanged: // the date itself is no longer logged: asked of the registry when needed
			ps.birth, ps.birthAsked = 0, true
			ps.more().birthEdits = append(ps.more().birthEdits, eventAt{id: e.ID, at: e.At})
		case p.After.BirthDate != "" && p.Before.BirthDate != p.After.BirthDate: // a row from before issue 31
			ps.setBirth(p.After.BirthDate)
			ps.birthAsked = false
			ps.more().birthEdits = append(ps.more().birthEdits, eventAt{id: e.ID, at: e.At})
		}
		if pr := f.prefixOfProvince(p.After.ProvinceCode); pr != 0 {
			ps.prefix = pr
		}
		f.touch(f.prefixes[ps.prefix], e)
	case "player.transferred":
		var p registry.PlayerTransferredPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return err
		}
		if ps := f.player(id64()); ps != nil {
			f.touch(f.prefixes[ps.prefix], e)
			ps.prefix = f.prefixOfProvince(p.To)
			f.touch(f.prefixes[ps.prefix], e)
		}
	case "player.rank_changed":
		p, err := readPayload[registry.PlayerRankChangedPayload](e.Payload, "to")
		if err != nil {
			return err
		}
		if ps := f.player(id64()); ps != nil {
			if r, err := f.rank(p.quoted("to")); err == nil {
				ps.rank = rank8(r)
			}
		}
	case "player.honorary_dan":
		if ps := f.player(id64()); ps != nil {
			ps.rank = rank8(registry.HonoraryDan8)
		}
	case "player.merged":
		if ps := f.player(id64()); ps != nil {
			ps.merged = true
		}
	case "certificate.issued":
		return f.issued(e)
	case "certificate.recorded_from_paper":
		p, err := readPayload[certs.CertificateRecordedFromPaperPayload](e.Payload, "player_id", "rank")
		if err != nil {
			return err
		}
		if ps := f.player(p.int("player_id")); ps != nil {
			ps.hasCert = true
			if r, err := f.rank(p.quoted("rank")); err == nil && r != registry.NoRank && lowerRank(ps.paper.rank(), r) {
				ps.paper = rank8(r)
			}
		}
	case "certificate.review_requested":
		return f.evidenceFell(e)
	case "certificate.review_kept":
		delete(f.fallen, e.EntityID)
	case "certificate.revoked":
		delete(f.fallen, e.EntityID)
		c, ok := f.certs[e.EntityID]
		if ok && f.inPeriod(e.At) {
			it := certRef(e.EntityID, e)
			f.count(c.issuer, KeyRevocations, it)
		}
	case "application.submitted":
		pl, err := readPayload[certs.ApplicationSubmittedPayload](e.Payload, "player_id", "basis", "event_ref", "record_ref", "appraiser_id")
		if err != nil {
			return err
		}
		p := appState{player: pl.int("player_id"), basis: f.intern(pl.str("basis")), appraiser: pl.int("appraiser_id")}
		f.apps[e.EntityID] = p
		ps := f.player(p.player)
		if ps == nil {
			return nil
		}
		f.touch(f.prefixes[ps.prefix], e)
		if f.inPeriod(e.At) {
			f.evidence(f.prefixes[ps.prefix], e, p, pl.str("event_ref"), pl.str("record_ref"))
		}
		if p.basis == "appraisal" && f.inPeriod(e.At) {
			ps.more().appraisals = append(ps.more().appraisals, eventAt{id: e.ID, at: e.At, entity: e.EntityID})
		}
	case "application.approved", "application.rejected", "application.failed":
		if a, ok := f.apps[e.EntityID]; ok {
			if ps := f.player(a.player); ps != nil {
				f.touch(f.prefixes[ps.prefix], e)
			}
		}
	case "notice.published":
		p, err := readPayload[certs.NoticePublishedPayload](e.Payload, "application_id")
		if err != nil {
			return err
		}
		f.notices[e.EntityID] = strconv.FormatInt(p.int("application_id"), 10)
		if a, ok := f.apps[f.notices[e.EntityID]]; ok && f.inPeriod(e.At) {
			if ps := f.player(a.player); ps != nil {
				f.published[f.prefixes[ps.prefix]]++
			}
		}
	case "objection.upheld":
		a, ok := f.apps[f.notices[e.EntityID]]
		if !ok {
			return nil
		}
		if ps := f.player(a.player); ps != nil && f.inPeriod(e.At) {
			f.count(f.prefixes[ps.prefix], KeyUpheldObjections, Item{Kind: "notice", Ref: e.EntityID, Link: "/notices/" + e.EntityID, EventID: e.ID})
		}
	case "order.placed", "order.amended":
		agency, _, _ := strings.Cut(e.EntityID, "/")
		f.touch(agency, e)
		if f.inPeriod(e.At) {
			f.count(agency, KeyOrdersPlaced, Item{Kind: "order", Ref: e.EntityID, EventID: e.ID})
		}
	case "order.granted", "order.refused":
		agency, _, _ := strings.Cut(e.EntityID, "/")
		f.touch(agency, e)
	case "roster.submitted":
		agency, _, _ := strings.Cut(e.EntityID, "/")
		f.touch(agency, e)
		if f.inPeriod(e.At) && f.m(agency, KeyRosterSubmitted).count == 0 {
			f.count(agency, KeyRosterSubmitted, Item{Kind: "roster", Ref: e.EntityID, EventID: e.ID})
		}
	case "tournament.created", "tournament.imported":
		fx, ok := evs[id64()]
		if !ok {
			return nil
		}
		if _, seen := f.events[fx.ID]; !seen {
			f.events[fx.ID] = &tournamentState{facts: fx}
		}
		if e.Action == "tournament.imported" && f.events[fx.ID].imported == 0 {
			f.events[fx.ID].imported = e.ID
			f.imported = append(f.imported, fx.ID)
		}
		f.touch(fx.Organiser, e)
	case "appraiser.recommended":
		p, err := readPayload[certs.AppraiserRecommendedPayload](e.Payload, "agency")
		if err != nil {
			return err
		}
		f.appraiserAgency[id64()] = p.str("agency")
		f.touch(p.str("agency"), e)
	case "agency.created":
		if _, ok := f.created[e.EntityID]; !ok {
			f.created[e.EntityID] = e.At
		}
	default:
		if strings.HasPrefix(e.Action, "tournament.") {
			return f.tournament(e)
		}
	}
	return nil
}

// countOnce counts it unless an item with its ref is counted already.
func (f *facts) countOnce(agency, key string, it Item) {
	k := agency + "\x00" + key + "\x00" + it.Kind + "\x00" + it.Ref
	if f.seen[k] {
		return
	}
	f.seen[k] = true
	f.count(agency, key, it)
}

func (f *facts) issued(e ledger.LoggedEvent) error {
	pl, err := readPayload[certs.CertificateIssuedPayload](e.Payload, "number", "player_id", "rank", "basis", "issuer", "issue_date", "replaces", "application_id")
	if err != nil {
		return err
	}
	p := struct {
		Number, Rank, Basis, Issuer, IssueDate string
		PlayerID, Replaces                     int64
	}{pl.str("number"), pl.str("rank"), pl.str("basis"), pl.str("issuer"), pl.str("issue_date"), pl.int("player_id"), pl.int("replaces")}
	f.certs[e.EntityID] = certState{issuer: f.intern(p.Issuer), player: p.PlayerID}
	f.touch(p.Issuer, e)
	ps := f.player(p.PlayerID)
	if ps == nil {
		ps = f.newPlayer(p.PlayerID)
	}
	ps.hasCert = true
	if p.Replaces != 0 {
		return nil // a reissue replaces a certificate, it promotes nobody
	}
	rank, err := f.rank(pl.quoted("rank"))
	if err != nil {
		return err
	}
	prev := ps.bestBefore(e.At)
	ps.lastCert = rank8(rank)
	in := f.inPeriod(e.At)
	if in {
		f.count(p.Issuer, KeyCertificatesIssued, certRef(p.Number, e))
	}
	if rank <= 0 {
		return nil
	}
	twice := false
	for _, t := range ps.danCerts() {
		if e.At.Sub(t) <= 365*24*time.Hour {
			twice = true
		}
	}
	ps.more().danCerts = append(ps.more().danCerts, e.At)
	if !in {
		return nil
	}
	it := certRef(p.Number, e)
	f.count(p.Issuer, KeyDanIssuedPerPlayer, it)
	if rank == 4 || rank == 5 {
		f.count(p.Issuer, KeyHighDanShare, it)
		if ps.birthAsked {
			f.minorAsks = append(f.minorAsks, minorAsk{issuer: p.Issuer, issueDate: p.IssueDate, ask: registry.BirthAsk{Player: p.PlayerID, At: e.At}, item: it})
		} else if ps.under18(p.IssueDate) {
			f.count(p.Issuer, KeyMinorHighDan, it)
		}
	}
	if skipped(prev, rank) {
		s := it
		s.Note = "best known " + rankWord(prev) + " → " + rank.String()
		f.count(p.Issuer, KeyGradeSkips, s)
	}
	if twice {
		f.count(p.Issuer, KeyCertifiedTwice, it)
	}
	if p.Basis == "appraisal" {
		f.count(p.Issuer, KeyAppraisalShare, it)
		f.appraised(p.Issuer, f.apps[strconv.FormatInt(pl.int("application_id"), 10)].appraiser, it)
	}
	f.danIssued(p.Issuer, it, p.PlayerID, rank, p.IssueDate)
	return nil
}

// skipped says whether a dan certificate of rank, to a player whose best
// rank known before was prev, skips a grade: more than one dan up, or from
// kyu or no rank to 2 dan or above.
func skipped(prev, rank registry.Rank) bool {
	if prev >= 1 {
		return rank-prev > 1
	}
	return rank >= 2
}

func rankWord(r registry.Rank) string {
	if r == registry.NoRank {
		return "none"
	}
	return r.String()
}

// minors counts the 4–5 dan of the period whose holders' birth dates the
// log does not hold, with each holder's birth date as it stood when the
// certificate was issued.
func (f *facts) minors(ctx context.Context, q ledger.Querier) error {
	asks := make([]registry.BirthAsk, len(f.minorAsks))
	for i, m := range f.minorAsks {
		asks[i] = m.ask
	}
	births, err := registry.BirthDatesAt(ctx, q, asks)
	if err != nil {
		return err
	}
	for _, m := range f.minorAsks {
		if b, ok := births[m.ask]; ok && under18(b.Format(time.DateOnly), m.issueDate) {
			f.count(m.issuer, KeyMinorHighDan, m.item)
		}
	}
	return nil
}

// under18 reports whether someone born on birth is under 18 on date (both YYYY-MM-DD).
func under18(birth, date string) bool {
	b, err1 := time.Parse(time.DateOnly, birth)
	d, err2 := time.Parse(time.DateOnly, date)
	if err1 != nil || err2 != nil {
		return false
	}
	return d.Before(b.AddDate(18, 0, 0))
}

func (f *facts) tournament(e ledger.LoggedEvent) error {
	id, _ := strconv.ParseInt(e.EntityID, 10, 64)
	t := f.events[id]
	if t == nil {
		return nil
	}
	f.touch(t.facts.Organiser, e)
	switch e.Action {
	case "tournament.participant_added":
		p, err := readPayload[tournaments.ParticipantAddedPayload](e.Payload, "number", "player_id", "rank")
		if err != nil {
			return err
		}
		pt := t.players.add(int(p.int("number")), p.int("player_id"))
		if r, err := f.rank(p.quoted("rank")); err == nil && r != registry.NoRank {
			pt.rank = rank8(r)
		}
	case "tournament.round_paired":
		round, pairs, err := readPairing(e.Payload, false, f.pairBuf)
		if err != nil {
			return err
		}
		t.pair(f, e, round, pairs, false)
		f.pairBuf = pairs[:0]
	case "tournament.playoff_paired":
		round, pairs, err := readPairing(e.Payload, true, f.pairBuf)
		if err != nil {
			return err
		}
		t.pair(f, e, round, pairs, true)
		f.pairBuf = pairs[:0]
	case "tournament.nigiri":
		p, err := readPayload[tournaments.NigiriPayload](e.Payload, "round", "board", "black")
		if err != nil {
			return err
		}
		// the drawn colours: the pair stays, black is who the stones gave it to
		if g := t.games.get(gameKey{int(p.int("round")), int(p.int("board"))}); g != nil && int64(g.white) == p.int("black") {
			g.black, g.white = g.white, g.black
		}
	case "tournament.withdrawal":
		p, err := readPayload[tournaments.WithdrawalPayload](e.Payload, "number")
		if err != nil {
			return err
		}
		n := int(p.int("number"))
		t.players.at(n).withdrawn = true
		if t.facts.Team { // his unplayed game is forfeited (art. 28.4)
			t.games.each(func(_ gameKey, g *gameState) {
				if g.result == 0 && (int(g.black) == n || int(g.white) == n) {
					g.result, g.resultEvent = f.code(string(tournaments.BlackForfeit)), e.ID
					if int(g.black) == n {
						g.result = f.code(string(tournaments.WhiteForfeit))
					}
				}
			})
		}
	case "tournament.round_confirmed":
		p, err := readPayload[tournaments.RoundConfirmedPayload](e.Payload, "round")
		if err != nil {
			return err
		}
		if t.confirmed == nil {
			t.confirmed = map[int]bool{}
		}
		t.confirmed[int(p.int("round"))] = true
	case "tournament.result_voided":
		// staff's void of an arranged game (art. 23): the result it leaves
		// stands, and is no late change of the organiser's
		p, err := readPayload[tournaments.ResultVoidedPayload](e.Payload, "round", "board", "result", "was", "confirmed")
		if err != nil {
			return err
		}
		k := gameKey{int(p.int("round")), int(p.int("board"))}
		// a void of a confirmed result overturns the record the referee
		// closed: counted for the organiser whoever voided it (staff now;
		// before issue 31 the organiser could too), the round's
		// confirmation read from the log for voids logged before the
		// payload said so
		if (p.bool("confirmed") || t.confirmed[k.round]) && f.inPeriod(e.At) {
			f.count(t.facts.Organiser, KeyConfirmedVoids, Item{Kind: "game", Ref: fmt.Sprintf("%d/%d/%d", t.facts.ID, k.round, k.board),
				Link: fmt.Sprintf("/tournaments/%d", t.facts.ID), EventID: e.ID, Note: p.str("was") + " → " + p.str("result") + " (" + e.Actor + ")"})
		}
		g := t.games.add(k)
		g.result, g.resultEvent = f.code(p.str("result")), e.ID
	case "tournament.result":
		pl, err := readPayload[tournaments.ResultPayload](e.Payload, "round", "board", "result", "warnings", "flagged", "record")
		if err != nil {
			return err
		}
		round, board, code := int(pl.int("round")), int(pl.int("board")), f.codeOf(pl.quoted("result"))
		g := t.games.add(gameKey{round, board})
		if g.result != 0 && g.result != code && f.inPeriod(e.At) {
			t.changes = append(t.changes, resultChange{round: round, board: board, at: e.At, event: e.ID, from: f.results[g.result], to: f.results[code]})
		}
		g.result, g.resultEvent = code, e.ID
		g.warnings, g.flagged, g.hasRecord = warnings8(pl.pair("warnings")), pl.bool("flagged"), pl.bool("record")
	case "tournament.finished":
		t.finished = true
	}
	return nil
}

// pairedRound is a round's pairing event (its id and time).
type pairedRound struct {
	round int
	id    int64
	at    time.Time
}

// pairedAt is round's pairing, if it was paired.
func (t *tournamentState) pairedAt(round int) (pairedRound, bool) {
	for _, p := range t.paired {
		if p.round == round {
			return p, true
		}
	}
	return pairedRound{}, false
}

// pair records the games of a round as the pairing event e left them: in a
// team event a withdrawn member's game is a forfeit from the start.
func (t *tournamentState) pair(f *facts, e ledger.LoggedEvent, round int, pairs []tournaments.Pairing, playoff bool) {
	if _, seen := t.pairedAt(round); !seen {
		t.paired = append(t.paired, pairedRound{round: round, id: e.ID, at: e.At})
	}
	t.games.reserve(round, len(pairs))
	for i, pr := range pairs {
		g := gameState{black: int32(pr.Black), white: int32(pr.White), playoff: playoff}
		if t.facts.Team {
			switch gb, gw := t.players.get(pr.Black).withdrawn, t.players.get(pr.White).withdrawn; {
			case gb && gw:
				g.result = f.code(string(tournaments.BothLose))
			case gb:
				g.result = f.code(string(tournaments.WhiteForfeit))
			case gw:
				g.result = f.code(string(tournaments.BlackForfeit))
			}
			if g.result != 0 {
				g.resultEvent = e.ID
			}
		}
		t.games.set(gameKey{round, i + 1}, g)
	}
}

// finish measures what needs the whole history: players per agency, the
// qualifying wins of dan-grade events, their completeness, events held and
// inactive months.
func (f *facts) finish() {
	players := map[string]int64{}
	danPlayers := map[string]int64{}
	f.players.each(func(id int64, i int32) {
		ps := &f.pl[i]
		if ps.merged || ps.prefix == 0 {
			return
		}
		prefix := f.prefixes[ps.prefix]
		players[prefix]++
		if ps.rank >= 1 && ps.rank <= 7 {
			danPlayers[prefix]++
			if !ps.hasCert {
				f.count(prefix, KeyDanWithoutCertificate, playerRef(id))
			}
		}
	})
	// judged once the whole history is read, so neither depends on the
	// order of the log's rows beyond their times
	f.players.each(func(id int64, i int32) {
		ps := &f.pl[i]
		if ps.extra == nil {
			return
		}
		for _, app := range ps.extra.appraisals {
			for _, ed := range ps.extra.birthEdits {
				if !ed.at.After(app.at) && app.at.Sub(ed.at) <= 30*24*time.Hour {
					it := playerRef(id)
					it.EventID = ed.id
					it.Note = "application " + app.entity
					f.countOnce(f.prefixes[ps.prefix], KeyIdentityEdits, it)
					break
				}
			}
		}
	})
	startDay, endDay := dateOf(f.period.Start), dateOf(f.period.End)
	for id, t := range f.events {
		org := t.facts.Organiser
		lateAfter := time.Date(t.facts.End.Year(), t.facts.End.Month(), t.facts.End.Day(), 0, 0, 0, 0, ledger.ChinaTime).AddDate(0, 0, 8)
		for _, c := range t.changes {
			next, paired := t.pairedAt(c.round + 1)
			if (paired && (next.id < c.event || next.at.Before(c.at))) || c.at.After(lateAfter) {
				f.count(org, KeyLateResultChanges, Item{Kind: "game", Ref: fmt.Sprintf("%d/%d/%d", id, c.round, c.board),
					Link: fmt.Sprintf("/tournaments/%d", id), EventID: c.event, Note: c.from + " → " + c.to})
			}
		}
		start := t.facts.Start
		if !start.Before(startDay) && start.Before(endDay) {
			ref := Item{Kind: "tournament", Ref: strconv.FormatInt(id, 10), Link: fmt.Sprintf("/tournaments/%d", id), Note: t.facts.Name}
			f.count(org, KeyEventsHeld, ref)
			if t.facts.DanGrade {
				f.count(org, KeyDanGradeEventsHeld, ref)
			}
		}
		end := t.facts.End
		if !t.facts.DanGrade || end.Before(startDay) || !end.Before(endDay) {
			continue
		}
		missing := 0
		t.games.each(func(_ gameKey, g *gameState) {
			if !tournaments.Result(f.results[g.result]).Decided() {
				missing++
			}
		})
		if missing > 0 || t.games.len() == 0 {
			f.count(org, KeyIncompleteDanEvents, Item{Kind: "tournament", Ref: strconv.FormatInt(id, 10),
				Link: fmt.Sprintf("/tournaments/%d", id), Note: fmt.Sprintf("%d/%d", missing, t.games.len())}) // games without a result / games
		}
		f.qualifying(id, t)
	}
	// every audited agency gets its bases, counted items or not: a share's
	// median and pooled rate need the agencies with none
	for _, agency := range f.agencies {
		dan := f.m(agency, KeyDanIssuedPerPlayer)
		dan.base = players[agency]
		for _, key := range []string{KeyHighDanShare, KeyMinorHighDan, KeyGradeSkips, KeyCertifiedTwice, KeyAppraisalShare, KeyRevocations} {
			f.m(agency, key).base = dan.count
		}
		f.m(agency, KeyDanWithoutCertificate).base = danPlayers[agency]
		f.m(agency, KeyUpheldObjections).base = f.published[agency]
	}
	for _, agency := range f.agencies {
		months := f.active[agency]
		from := f.existsFrom(agency)
		for i := range 12 {
			if !f.months[i].Before(f.period.End) {
				break // a preview's period ends today: the months to come are not counted
			}
			if f.months[i].Before(from) {
				continue // the agency did not exist (or existed only part of it)
			}
			if months == nil || months[i] == 0 {
				f.count(agency, KeyInactiveMonths, Item{Kind: "month", Ref: f.months[i].In(ledger.ChinaTime).Format("2006-01")})
			}
		}
	}
}

// existsFrom is when agency began: its agency.created event, else the log's
// first event (the registry knows nothing before it).
func (f *facts) existsFrom(agency string) time.Time {
	if c, ok := f.created[agency]; ok {
		return c
	}
	return f.firstAt
}

// qualifying counts, in a dan-grade event, the wins of the players certified
// dan on or after its start, and which of them were forfeits.
func (f *facts) qualifying(id int64, t *tournamentState) {
	certified := func(number int) bool {
		id := t.players.get(number).player
		ps := f.player(id)
		if ps == nil || id == 0 {
			return false
		}
		for _, at := range ps.danCerts() {
			if !dateOf(at).Before(t.facts.Start) {
				return true
			}
		}
		return false
	}
	org := t.facts.Organiser
	t.games.each(func(k gameKey, g *gameState) {
		if g.playoff {
			return
		}
		for _, side := range []struct {
			number, opponent int
			win              string
		}{{int(g.black), int(g.white), "b"}, {int(g.white), int(g.black), "w"}} {
			won := tournaments.Result(f.results[g.result]).Winner() == side.win[0] || f.results[g.result] == "both_win"
			if !won || !certified(side.number) {
				continue
			}
			m := f.m(org, KeyForfeitQualifying)
			m.base++
			game := Item{Kind: "game", Ref: fmt.Sprintf("%d/%d/%d", id, k.round, k.board),
				Link: fmt.Sprintf("/tournaments/%d", id), EventID: g.resultEvent, Note: f.results[g.result]}
			if tournaments.Result(f.results[g.result]).Unplayed() { // a forfeit or the opponent's lateness
				f.count(org, KeyForfeitQualifying, game)
			}
			// both credited with a win, or a win over a guest (no
			// registered player behind the number): nobody the registry
			// knows lost the game
			bw := f.m(org, KeyBothWinGuestQualifying)
			bw.base++
			if f.results[g.result] == "both_win" || t.players.get(side.opponent).player == 0 {
				if f.results[g.result] != "both_win" {
					game.Note = f.results[g.result] + ", against a guest"
				}
				f.count(org, KeyBothWinGuestQualifying, game)
			}
		}
	})
}

// dateOf is the Beijing calendar date of t, as a UTC midnight (how dates scan).
func dateOf(t time.Time) time.Time {
	y, m, d := t.In(ledger.ChinaTime).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// value is an indicator's value from its measure.
func value(def Definition, m *measure) float64 {
	switch def.Unit {
	case "per_1000_players":
		if m.base == 0 {
			return 0
		}
		return 1000 * float64(m.count) / float64(m.base)
	case "share":
		if m.base == 0 {
			return 0
		}
		return float64(m.count) / float64(m.base)
	case "ratio":
		return m.value
	}
	return float64(m.count)
}

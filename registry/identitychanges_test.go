package registry_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/jackc/pgx/v5/pgxpool"
)

// certified answers the registry's question about certification as set.
type certified bool

func (c certified) HasCertification(context.Context, ledger.Querier, int64) (bool, error) {
	return bool(c), nil
}

// identityEnv is a registry on a settable clock, with Beijing and Shanghai.
type identityEnv struct {
	s     *registry.Service
	db    *pgxpool.Pool
	clock *fixture.Clock
}

func newIdentityEnv(t *testing.T) identityEnv {
	t.Helper()
	pool, _ := harness.NewDB(t)
	clock := fixture.NewClock(time.Date(2026, 5, 4, 2, 0, 0, 0, time.UTC)) // 10:00 in Beijing
	s := registry.New(ledger.New(pool, clock.Now, nil))
	for _, p := range []string{"110", "310"} {
		if _, err := s.CreateAgency(context.Background(), staff, "", registry.AgencyInput{Prefix: p, Name: "agency " + p}); err != nil {
			t.Fatal(err)
		}
	}
	return identityEnv{s: s, db: pool, clock: clock}
}

// actions lists the player's logged actions with their payloads, oldest first.
func (e identityEnv) actions(t *testing.T, id int64) (actions []string, payloads string) {
	t.Helper()
	rows, err := e.db.Query(context.Background(), `SELECT action, payload::text FROM events WHERE entity_type = 'player' AND entity_id = $1 ORDER BY id`,
		strconv.FormatInt(id, 10))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var a, p string
		if err := rows.Scan(&a, &p); err != nil {
			t.Fatal(err)
		}
		actions = append(actions, a)
		b.WriteString(p)
	}
	return actions, b.String()
}

// edit is an agency's or staff's change of the player's birth date (and so
// of the resident ID number) and name.
func edit(p registry.Player, birth string, seq int, reason string) registry.PlayerInput {
	return registry.PlayerInput{Name: p.Name + "改", Gender: p.Gender, BirthDate: birth, IDKind: registry.ResidentIDCard,
		IDNumber: fixture.ResidentID("110", birth, seq), ProvinceCode: p.ProvinceCode, Rank: "1k", ChangeReason: reason}
}

func TestIdentityChangeIsHeldForStaff(t *testing.T) {
	ctx := context.Background()
	e := newIdentityEnv(t)
	p := fixture.Player(t, e.s, "110", "少年", "2k", "2009-01-15", 1)
	e.clock.Advance(72 * time.Hour)

	if _, err := e.s.UpdatePlayer(ctx, beijing, "", p.ID, edit(p, "2007-01-15", 2, "")); !isReason(err, registry.ReasonChangeReasonRequired) {
		t.Fatalf("no reason: %v, want IDENTITY_CHANGE_REASON_REQUIRED", err)
	}
	u, err := e.s.UpdatePlayer(ctx, beijing, "", p.ID, edit(p, "2007-01-15", 2, "登记时录入错误"))
	if err != nil {
		t.Fatal(err)
	}
	newNumber := fixture.ResidentID("110", "2007-01-15", 2)
	switch {
	case u.Held == nil || u.Held.Status != registry.ChangePending:
		t.Fatalf("held = %+v, want a pending change", u.Held)
	case u.Name != "少年改" || u.DeclaredRank != -1:
		t.Fatalf("the other fields: %+v, want changed at once", u.Player)
	case u.BirthDate.Format(time.DateOnly) != "2009-01-15" || u.IDNumber != p.IDNumber:
		t.Fatalf("identity %s %s changed at once", u.BirthDate, u.IDNumber)
	case u.Held.NewIDMasked != registry.MaskIdentity(newNumber) || u.Held.OldIDMasked != registry.MaskIdentity(p.IDNumber):
		t.Fatalf("masked numbers %s → %s", u.Held.OldIDMasked, u.Held.NewIDMasked)
	}
	got, _ := e.s.GetPlayer(ctx, p.ID)
	if got.BirthDate.Format(time.DateOnly) != "2009-01-15" || got.IDNumber != p.IDNumber || got.Name != "少年改" {
		t.Fatalf("stored %+v", got)
	}
	pending, ok, err := registry.PendingIdentityChange(ctx, e.db, p.ID)
	if err != nil || !ok || pending.ID != u.Held.ID || pending.Reason != "登记时录入错误" || pending.RequestedBy != "agency:110" {
		t.Fatalf("pending = %+v, %v, %v", pending, ok, err)
	}

	// at most one change waits: the same again is the same change, another is refused
	again, err := e.s.UpdatePlayer(ctx, beijing, "", p.ID, edit(got, "2007-01-15", 2, "登记时录入错误"))
	if err != nil || again.Held == nil || again.Held.ID != u.Held.ID {
		t.Fatalf("the same change again: %+v, %v", again.Held, err)
	}
	for _, tt := range []struct {
		name  string
		actor ledger.Actor
	}{{"agency", beijing}, {"staff", staff}} {
		_, err := e.s.UpdatePlayer(ctx, tt.actor, "", p.ID, edit(got, "2008-01-15", 3, "再次修改"))
		if le, ok := ledger.AsError(err); !ok || le.Reason != registry.ReasonIdentityChangePending {
			t.Errorf("%s: another change while one waits: %v, want IDENTITY_CHANGE_PENDING", tt.name, err)
		}
	}
	actions, payloads := e.actions(t, p.ID)
	if strings.Join(actions, " ") != "player.registered player.identity_change_requested player.updated player.updated" {
		t.Errorf("logged %v", actions)
	}
	if strings.Contains(payloads, newNumber) || strings.Contains(payloads, p.IDNumber) {
		t.Errorf("a full identity number in the log: %s", payloads)
	}
	if !strings.Contains(payloads, `"reason":"登记时录入错误"`) {
		t.Errorf("the reason is not logged: %s", payloads)
	}
}

func TestDecideIdentityChange(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name     string
		actor    ledger.Actor
		approve  bool
		reason   string
		wantErr  error
		wantDate string
		wantLog  string
	}{
		{"agency cannot approve", beijing, true, "", ledger.ErrPermissionDenied, "2009-01-15", ""},
		{"public cannot approve", ledger.Actor{}, true, "", ledger.ErrUnauthenticated, "2009-01-15", ""},
		{"staff approve", staff, true, "户口簿核对无误", nil, "2007-01-15", "player.updated player.identity_change_approved"},
		{"staff reject", staff, false, "无证明材料", nil, "2009-01-15", "player.identity_change_rejected"},
		{"a rejection needs a reason", staff, false, "", ledger.ErrInvalid, "2009-01-15", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newIdentityEnv(t)
			p := fixture.Player(t, e.s, "110", "少年", "2k", "2009-01-15", 1)
			e.clock.Advance(72 * time.Hour)
			u, err := e.s.UpdatePlayer(ctx, beijing, "", p.ID, edit(p, "2007-01-15", 2, "登记时录入错误"))
			if err != nil || u.Held == nil {
				t.Fatalf("edit: %+v, %v", u.Held, err)
			}
			before, _ := e.actions(t, p.ID)
			e.clock.Advance(time.Hour)
			c, err := e.s.DecideIdentityChange(ctx, tt.actor, "", u.Held.ID, tt.approve, tt.reason)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("decide: %v, want %v", err, tt.wantErr)
			}
			got, _ := e.s.GetPlayer(ctx, p.ID)
			if got.BirthDate.Format(time.DateOnly) != tt.wantDate {
				t.Fatalf("birth date %s, want %s", got.BirthDate.Format(time.DateOnly), tt.wantDate)
			}
			after, payloads := e.actions(t, p.ID)
			if logged := strings.Join(after[len(before):], " "); logged != tt.wantLog {
				t.Fatalf("logged %q, want %q", logged, tt.wantLog)
			}
			if tt.wantErr != nil {
				if _, still, _ := registry.PendingIdentityChange(ctx, e.db, p.ID); !still {
					t.Fatal("the change no longer waits after a refused decision")
				}
				return
			}
			if c.DecidedBy != "staff:li" || c.DecisionReason != tt.reason {
				t.Errorf("decided %+v", c)
			}
			if tt.approve {
				if got.IDNumber != fixture.ResidentID("110", "2007-01-15", 2) {
					t.Errorf("identity number %s not applied", got.IDNumber)
				}
				// the audit reads from player.updated that the birth date moved
				// (the dates themselves it asks of the registry: BirthDatesAt)
				if !strings.Contains(payloads, `"before":{"agency_prefix":"000","birth_year":2009`) ||
					!strings.Contains(payloads, `"after":{"agency_prefix":"000","birth_year":2007`) ||
					!strings.Contains(payloads, `"birth_date_changed":true`) || strings.Contains(payloads, `"birth_date":`) {
					t.Errorf("player.updated lacks the birth years or that the birth date moved, or holds a birth date: %s", payloads)
				}
			}
			var full string
			if err := e.db.QueryRow(ctx, `SELECT new_id_number FROM player_identity_changes WHERE id = $1`, c.ID).Scan(&full); err != nil || full != "" {
				t.Errorf("the full number is kept after the decision: %q, %v", full, err)
			}
			if _, err := e.s.DecideIdentityChange(ctx, staff, "", c.ID, true, ""); !errors.Is(err, ledger.ErrPrecondition) {
				t.Errorf("deciding twice: %v, want failed precondition", err)
			}
		})
	}
}

func TestIdentityChangesAtOnce(t *testing.T) {
	ctx := context.Background()
	adult, minor := "1990-03-01", "2010-03-01"
	for _, tt := range []struct {
		name     string
		hook     registry.Certifications
		actor    ledger.Actor
		later    time.Duration // from registration to the edit
		birth    string        // registered
		to       string        // edited
		wantHeld bool
		wantLog  string // the immediate change's logged action
	}{
		{"staff's own change", nil, staff, 72 * time.Hour, adult, "1990-04-01", false, "player.identity_corrected"},
		{"a registration-day typo", certified(false), beijing, time.Hour, adult, "1990-04-01", false, "player.identity_corrected"},
		{"a typo fixed the next day", certified(false), beijing, 24 * time.Hour, adult, "1990-04-01", true, "player.identity_change_requested"},
		{"a registration-day typo of a certified player", certified(true), beijing, time.Hour, adult, "1990-04-01", true, "player.identity_change_requested"},
		{"a registration-day change making a minor adult", certified(false), beijing, time.Hour, minor, "2007-03-01", true, "player.identity_change_requested"},
		{"no certification to ask", nil, beijing, time.Hour, adult, "1990-04-01", true, "player.identity_change_requested"},
		{"another agency's registration", certified(false), shanghaiAgency, time.Hour, adult, "1990-04-01", true, "player.identity_change_requested"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newIdentityEnv(t)
			if tt.hook != nil {
				e.s.UseCertifications(tt.hook)
			}
			registrar := beijing
			province := "11"
			if tt.actor == shanghaiAgency {
				registrar, province = staff, "31"
			}
			in := registry.PlayerInput{Name: "新手", Gender: registry.Male, BirthDate: tt.birth, IDKind: registry.ResidentIDCard,
				IDNumber: fixture.ResidentID("110", tt.birth, 5), ProvinceCode: province, Rank: "5k"}
			p, err := e.s.RegisterPlayer(ctx, registrar, "", in)
			if err != nil {
				t.Fatal(err)
			}
			e.clock.Advance(tt.later)
			in.BirthDate, in.IDNumber, in.ChangeReason = tt.to, fixture.ResidentID("110", tt.to, 5), "输入错误"
			u, err := e.s.UpdatePlayer(ctx, tt.actor, "", p.ID, in)
			if err != nil {
				t.Fatal(err)
			}
			if (u.Held != nil) != tt.wantHeld {
				t.Fatalf("held = %+v, want held %v", u.Held, tt.wantHeld)
			}
			want := tt.to
			if tt.wantHeld {
				want = tt.birth
			}
			if got, _ := e.s.GetPlayer(ctx, p.ID); got.BirthDate.Format(time.DateOnly) != want {
				t.Fatalf("birth date %s, want %s", got.BirthDate.Format(time.DateOnly), want)
			}
			actions, _ := e.actions(t, p.ID)
			if !contains(actions, tt.wantLog) {
				t.Errorf("logged %v, want %s", actions, tt.wantLog)
			}
			cs, err := e.s.ListIdentityChanges(ctx, staff, registry.IdentityChangeQuery{PlayerID: p.ID})
			if err != nil || len(cs) != 1 || cs[0].Reason != "输入错误" {
				t.Fatalf("changes %+v, %v", cs, err)
			}
			if !tt.wantHeld && (cs[0].Status != registry.ChangeApplied || cs[0].Applied == "") {
				t.Errorf("recorded %+v, want applied at once", cs[0])
			}
		})
	}
}

func isReason(err error, r *ledger.Reason) bool {
	le, ok := ledger.AsError(err)
	return ok && le.Reason == r
}

var shanghaiAgency = ledger.Actor{Kind: ledger.AgencyActor, Agency: "310"}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestListIdentityChangesByProvince(t *testing.T) {
	ctx := context.Background()
	e := newIdentityEnv(t)
	bj := fixture.Player(t, e.s, "110", "京", "2k", "1990-01-15", 1)
	sh := fixture.Player(t, e.s, "310", "沪", "2k", "1990-01-15", 2)
	e.clock.Advance(72 * time.Hour)
	for _, x := range []struct {
		actor ledger.Actor
		p     registry.Player
		pre   string
	}{{beijing, bj, "110"}, {shanghaiAgency, sh, "310"}} {
		in := registry.PlayerInput{Name: x.p.Name, Gender: x.p.Gender, BirthDate: "1990-02-15", IDKind: registry.ResidentIDCard,
			IDNumber: fixture.ResidentID(x.pre, "1990-02-15", 9), ProvinceCode: x.p.ProvinceCode, ChangeReason: "更正"}
		if _, err := e.s.UpdatePlayer(ctx, x.actor, "", x.p.ID, in); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name  string
		actor ledger.Actor
		want  []int64
	}{
		{"staff see all", staff, []int64{sh.ID, bj.ID}},
		{"Beijing its own", beijing, []int64{bj.ID}},
		{"Shanghai its own", shanghaiAgency, []int64{sh.ID}},
	} {
		cs, err := e.s.ListIdentityChanges(ctx, tt.actor, registry.IdentityChangeQuery{Status: registry.ChangePending})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []int64
		for _, c := range cs {
			got = append(got, c.PlayerID)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %v, want %v", tt.name, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Fatalf("%s: %v, want %v", tt.name, got, tt.want)
			}
		}
	}
	if _, err := e.s.ListIdentityChanges(ctx, ledger.Actor{}, registry.IdentityChangeQuery{}); !errors.Is(err, ledger.ErrUnauthenticated) {
		t.Errorf("public: %v", err)
	}
}

// TestLogKeepsNoBirthDateBesideTheMaskedNumber registers a player, has staff
// correct his birth date (and so his ID number), and reads the log: no
// payload holds his full birth date, old or new, beside the masked number;
// they hold the birth year, and the change says it moved the birth date.
// The registry still answers the birth date as it stood before and after.
func TestLogKeepsNoBirthDateBesideTheMaskedNumber(t *testing.T) {
	ctx := context.Background()
	e := newIdentityEnv(t)
	p := fixture.Player(t, e.s, "110", "少年", "2k", "2009-01-15", 1)
	before := e.clock.Now()
	e.clock.Advance(72 * time.Hour)
	if _, err := e.s.UpdatePlayer(ctx, staff, "", p.ID, edit(p, "2009-03-20", 2, "户口本更正")); err != nil {
		t.Fatal(err)
	}
	actions, payloads := e.actions(t, p.ID)
	if !slices.Contains(actions, "player.registered") || !slices.Contains(actions, "player.updated") || !slices.Contains(actions, "player.identity_corrected") {
		t.Fatalf("logged actions %v", actions)
	}
	for _, date := range []string{"2009-01-15", "2009-03-20", "20090115", "20090320"} {
		if strings.Contains(payloads, date) {
			t.Errorf("a payload holds the birth date %s: %s", date, payloads)
		}
	}
	if !strings.Contains(payloads, registry.MaskIdentity(p.IDNumber)) || !strings.Contains(payloads, `"birth_year":2009`) ||
		!strings.Contains(payloads, `"birth_date_changed":true`) {
		t.Errorf("payloads lack the masked number, the birth year or that the birth date changed: %s", payloads)
	}
	births, err := registry.BirthDatesAt(ctx, e.db, []registry.BirthAsk{{Player: p.ID, At: before}, {Player: p.ID, At: e.clock.Now()}})
	if err != nil {
		t.Fatal(err)
	}
	if got := births[registry.BirthAsk{Player: p.ID, At: before}].Format(time.DateOnly); got != "2009-01-15" {
		t.Errorf("birth date before the correction: %s", got)
	}
	if got := births[registry.BirthAsk{Player: p.ID, At: e.clock.Now()}].Format(time.DateOnly); got != "2009-03-20" {
		t.Errorf("birth date after the correction: %s", got)
	}
}

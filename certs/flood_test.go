package certs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// onNotice puts a 4 dan of Beijing on notice and returns the notice's id.
func (e *env) onNotice(t *testing.T) int64 {
	t.Helper()
	fixture.StockThrough(t, e.cs, "110", e.start, e.start.Add(30*24*time.Hour), 10, 0)
	p := fixture.Player(t, e.reg, "110", "公", "3d", "1990-01-01", 1)
	app, err := e.cs.Approve(context.Background(), beijing, "", e.apply(t, beijing, p, "4d").ID)
	if err != nil || app.NoticeID == 0 {
		t.Fatalf("approve: %v", err)
	}
	return app.NoticeID
}

// TestObjectionFloodDoesNotSilenceARealObjector: 67 loopback addresses
// lodging all they may (the flood of issue 12) leave a real objector heard.
func TestObjectionFloodDoesNotSilenceARealObjector(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	notice := e.onNotice(t)
	for i := 1; i <= 67; i++ {
		for j := range 5 {
			_, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: notice, Name: "刷", Contact: fmt.Sprintf("bot%d-%d", i, j),
				Reason: fmt.Sprintf("spam %d", j), Address: fmt.Sprintf("127.0.0.%d", i)})
			if err != nil && !errors.Is(err, ledger.ErrExhausted) {
				t.Fatal(err)
			}
		}
	}
	o, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: notice, Name: "真", Contact: "138", Reason: "他没有参加那场比赛", Address: "203.0.113.9"})
	if err != nil {
		t.Fatalf("a real objector after the flood: %v", err)
	}
	if o.ID == 0 {
		t.Fatal("no objection recorded")
	}
	// the same objection sent again is folded into the first
	again, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: notice, Name: "真", Contact: "138", Reason: "他没有参加那场比赛", Address: "203.0.113.10"})
	if err != nil || again.ID != o.ID {
		t.Fatalf("duplicate objection: %+v %v, want folded into %d", again, err, o.ID)
	}
}

// TestBulkRulingAndOverdueNotices: a notice held open past its end by many
// objections is listed for staff, oldest first; one bulk ruling dismisses
// them all and, the period being over, issues the certificate.
func TestBulkRulingAndOverdueNotices(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	notice := e.onNotice(t)
	var ids []int64
	for i := range 30 {
		o, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: notice, Name: "刷", Contact: fmt.Sprint(i), Reason: "spam",
			Address: fmt.Sprintf("198.51.%d.1", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, o.ID)
	}
	e.clock.Advance(8 * 24 * time.Hour) // a day past the end
	if issued, err := e.cs.Sweep(ctx); err != nil || len(issued) != 0 {
		t.Fatalf("sweep with open objections: %v %v", issued, err)
	}
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	if err := e.cs.WarnOverdue(ctx, log); err != nil || logged.Len() != 0 {
		t.Fatalf("a day past the end is not yet overdue (72 h): %v %s", err, logged.String())
	}
	e.clock.Advance(3 * 24 * time.Hour)
	if err := e.cs.WarnOverdue(ctx, log); err != nil || !strings.Contains(logged.String(), fmt.Sprintf("notice=%d", notice)) ||
		!strings.Contains(logged.String(), "level=WARN") {
		t.Fatalf("sweeper's warning of an overdue notice: %v %q", err, logged.String())
	}
	over, err := e.cs.OverdueNotices(ctx, staff)
	if err != nil {
		t.Fatal(err)
	}
	if len(over) != 1 || over[0].ID != notice || over[0].OpenObjections != 30 {
		t.Fatalf("overdue notices: %+v, want notice %d with 30 open", over, notice)
	}
	if _, err := e.cs.OverdueNotices(ctx, beijing); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency reading the overdue list: %v", err)
	}
	for _, tt := range []struct {
		name   string
		actor  ledger.Actor
		ids    []int64
		ruling string
		want   error
	}{
		{"an agency", beijing, ids, "duplicates", ledger.ErrPermissionDenied},
		{"no ruling text", staff, ids, "", ledger.ErrInvalid},
		{"no objections named", staff, nil, "duplicates", ledger.ErrInvalid},
		{"an objection of no such notice", staff, append([]int64{999999}, ids...), "duplicates", ledger.ErrNotFound},
	} {
		if _, err := e.cs.RuleObjections(ctx, tt.actor, "", notice, tt.ids, tt.ruling); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	res, err := e.cs.RuleObjections(ctx, staff, "bulk-1", notice, ids, "重复、滥用的异议")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dismissed) != 30 || res.CertificateNumber == "" {
		t.Fatalf("bulk ruling: %d dismissed, certificate %q", len(res.Dismissed), res.CertificateNumber)
	}
	n, err := e.cs.GetNotice(ctx, notice)
	if err != nil || n.Status != certs.NoticeIssued || n.OpenObjections != 0 {
		t.Fatalf("notice after the bulk ruling: %+v %v", n, err)
	}
	if over, _ := e.cs.OverdueNotices(ctx, staff); len(over) != 0 {
		t.Fatalf("still overdue: %+v", over)
	}
}

// TestIdenticalObjectionsFolded (issue 31): an objection with the same
// text as an open one of the notice once normalised (spaces, punctuation,
// full-width forms), or from the same objector, is folded into it; a
// ruling on any objection of a fold rules all of it, in one logged act,
// and a bulk ruling takes the folds of the objections it names. Another
// notice's objections, and other texts from other objectors, stand alone.
func TestIdenticalObjectionsFolded(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	notice := e.onNotice(t)
	lodge := func(contact, reason, addr string) certs.Objection {
		t.Helper()
		o, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: notice, Name: "某", Contact: contact, Reason: reason, Address: addr})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	lead := lodge("138", "他没有参加那场比赛", "203.0.113.1")
	same := lodge("139", "他 没有参加那场比赛！", "203.0.114.1")
	wide := lodge("137", "  他没有参加，那场比赛。 ", "203.0.115.1")
	mine := lodge("138", "另外，他的年龄也不符", "203.0.116.1") // the same objector, another text
	other := lodge("136", "成绩单有涂改", "203.0.117.1")
	for _, o := range []certs.Objection{same, wide, mine} {
		if o.FoldedInto != lead.ID {
			t.Errorf("objection %d (%q) folded into %d, want %d", o.ID, o.Reason, o.FoldedInto, lead.ID)
		}
	}
	if lead.FoldedInto != 0 || other.FoldedInto != 0 {
		t.Fatalf("leads folded: %+v %+v", lead, other)
	}
	open, err := e.cs.OpenObjections(ctx, staff)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 || open[0].Objection.ID != lead.ID || open[0].Objection.Folded != 3 || open[1].Objection.ID != other.ID {
		t.Fatalf("open objections for staff: %+v, want the two leads, the first with 3 folded", open)
	}
	// ruling on a folded one rules its fold, the lead included
	if _, err := e.cs.RuleObjection(ctx, staff, "", wide.ID, false, "经核查，该选手参加了比赛"); err != nil {
		t.Fatal(err)
	}
	obs, err := e.cs.ListObjections(ctx, staff, notice, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range obs {
		want := certs.ObjectionDismissed
		if o.ID == other.ID {
			want = certs.ObjectionOpen
		}
		if o.Status != want || (want == certs.ObjectionDismissed && o.Ruling != "经核查，该选手参加了比赛") {
			t.Errorf("objection %d after the fold's ruling: %s %q, want %s", o.ID, o.Status, o.Ruling, want)
		}
	}
	var raw []byte
	if err := e.pool.QueryRow(ctx, `SELECT payload FROM events WHERE action = 'objection.dismissed' ORDER BY id DESC LIMIT 1`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var p certs.ObjectionDismissedPayload
	if err := json.Unmarshal(raw, &p); err != nil || p.ObjectionID != wide.ID || fmt.Sprint(p.Folded) != fmt.Sprint([]int64{lead.ID, same.ID, mine.ID}) {
		t.Fatalf("the logged ruling: %s %v", raw, err)
	}
	// a new objection like the ruled ones starts a fold of its own
	again := lodge("135", "他没有参加那场比赛", "203.0.118.1")
	if again.FoldedInto != 0 {
		t.Fatalf("folded into a ruled objection: %+v", again)
	}
	more := lodge("134", "成绩单有涂改!!", "203.0.119.1")
	res, err := e.cs.RuleObjections(ctx, staff, "", notice, []int64{other.ID}, "不成立")
	if err != nil || fmt.Sprint(res.Dismissed) != fmt.Sprint([]int64{other.ID, more.ID}) {
		t.Fatalf("bulk ruling of a fold: %+v %v, want %d and %d dismissed", res, err, other.ID, more.ID)
	}
	if _, err := e.cs.RuleObjection(ctx, staff, "", same.ID, true, "again"); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("ruling again on a fold ruled: %v", err)
	}
}

// TestUnruledObjectionsLapseAtTheDeadline (issue 31): objections awaiting
// a ruling hold a notice open past its end only until the ruling deadline;
// then the sweeper issues the certificate, the objections lapse (kept, with
// their status, and logged with the code that words why), and a late
// ruling on one is refused.
func TestUnruledObjectionsLapseAtTheDeadline(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{RulingDeadline: 5 * 24 * time.Hour})
	notice := e.onNotice(t)
	var ids []int64
	for i := range 40 {
		o, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: notice, Name: "刷", Contact: fmt.Sprint(i), Reason: fmt.Sprint("spam ", i),
			Address: fmt.Sprintf("198.51.%d.1", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, o.ID)
	}
	n, err := e.cs.GetNotice(ctx, notice)
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Set(n.EndsAt.Add(5*24*time.Hour - time.Minute)) // a minute before the deadline
	if issued, err := e.cs.Sweep(ctx); err != nil || len(issued) != 0 {
		t.Fatalf("before the ruling deadline: sweep issued %v, %v", issued, err)
	}
	e.clock.Set(n.EndsAt.Add(5*24*time.Hour + time.Minute))
	issued, err := e.cs.Sweep(ctx)
	if err != nil || len(issued) != 1 {
		t.Fatalf("past the ruling deadline: sweep issued %v, %v", issued, err)
	}
	if n, err = e.cs.GetNotice(ctx, notice); err != nil || n.Status != certs.NoticeIssued || n.OpenObjections != 0 || n.CertificateNumber != issued[0].Number {
		t.Fatalf("notice past the deadline: %+v %v", n, err)
	}
	obs, err := e.cs.ListObjections(ctx, staff, notice, false)
	if err != nil || len(obs) != 40 {
		t.Fatalf("objections kept: %d %v", len(obs), err)
	}
	for _, o := range obs {
		if o.Status != certs.ObjectionLapsed || o.RuledAt == nil {
			t.Fatalf("objection %d: %s, want lapsed", o.ID, o.Status)
		}
	}
	var raw []byte
	if err := e.pool.QueryRow(ctx, `SELECT payload FROM events WHERE action = 'objections.lapsed'`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var p certs.ObjectionsLapsedPayload
	if err := json.Unmarshal(raw, &p); err != nil || fmt.Sprint(p.ObjectionIDs) != fmt.Sprint(ids) || p.Code != "OBJECTION_LAPSED" ||
		!p.RuleBy.Equal(n.EndsAt.Add(5*24*time.Hour)) {
		t.Fatalf("the lapse logged: %s %v", raw, err)
	}
	le := certs.NoteObjectionLapsed.New("deadline", p.Params["deadline"])
	if zh := le.Message(ledger.Chinese); !strings.Contains(zh, "异议失效") || !strings.Contains(zh, p.Params["deadline"]) {
		t.Fatalf("the lapse in Chinese: %q", zh)
	}
	if _, err := e.cs.RuleObjection(ctx, staff, "", ids[0], true, "迟到的裁定"); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("a ruling after the lapse: %v, want failed precondition", err)
	}
}

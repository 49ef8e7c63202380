package certs_test

import (
	"bytes"
	"context"
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

package certs_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestCertificateRowBoundToItsLog: a certificate's row agrees with the
// events that made it (issue, reissue, revocation, paper record), and a row
// changed behind the services' back (rank, status, holder) is answered as
// under review, single and in a batch, reported through the hook, and
// listed by the whole check (issue 31, finding 2).
func TestCertificateRowBoundToItsLog(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var heard []string
	e := newEnv(t, certs.Config{OnLogMismatch: func(entity string, fields []string) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, entity+":"+strings.Join(fields, ","))
	}})
	e.stock(t, "110", 10, 0)
	p := fixture.Player(t, e.reg, "110", "守约", "", "1990-01-01", 1)
	q := fixture.Player(t, e.reg, "110", "复核", "", "1991-01-01", 2)
	one, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID)
	if err != nil {
		t.Fatal(err)
	}
	two, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, q, "2d").ID)
	if err != nil {
		t.Fatal(err)
	}
	re, err := e.cs.Reissue(ctx, beijing, "", two.CertificateNumber, "遗失")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Revoke(ctx, staff, "", re.Number, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	// every certificate agrees with its events, each carrying those that made it
	for number, actions := range map[string][]string{
		one.CertificateNumber: {"certificate.issued"},
		two.CertificateNumber: {"certificate.issued", "certificate.reissued"},
		re.Number:             {"certificate.issued", "certificate.revoked"},
	} {
		v, err := e.cs.Verify(ctx, number)
		if err != nil || !v.Found || v.UnderReview != nil {
			t.Fatalf("Verify(%s) = %+v, %v", number, v, err)
		}
		var got []string
		for _, ev := range v.Events {
			got = append(got, ev.Action)
		}
		if !slices.Equal(got, actions) {
			t.Errorf("%s carries the events %v, want %v", number, got, actions)
		}
		st, err := certs.FoldCertificate(number, v.Events)
		if err != nil || len(st.Disagreements(v.Certificate)) > 0 || !st.HasHolder || st.Holder != v.Certificate.PlayerName {
			t.Errorf("%s folds to %+v (%v), disagreeing in %v", number, st, err, st.Disagreements(v.Certificate))
		}
	}
	if re2, _ := e.cs.Verify(ctx, re.Number); re2.Certificate.Replaces != two.CertificateNumber {
		t.Fatalf("the reissue replaces %q", re2.Certificate.Replaces)
	}
	if m, err := e.cs.CheckCertificatesAgainstLog(ctx); err != nil || len(m) != 0 {
		t.Fatalf("untouched registry: mismatches %v, %v", m, err)
	}

	for _, tamper := range []struct {
		sql    string
		fields []string
	}{
		{`UPDATE certificates SET rank = 5 WHERE number = $1`, []string{"rank"}},
		{`UPDATE certificates SET rank = 1, status = 'revoked', status_reason = '假' WHERE number = $1`, []string{"status", "status_reason"}},
		{`UPDATE certificates SET status = 'valid', status_reason = '', holder_name = '冒名' WHERE number = $1`, []string{"holder"}},
	} {
		if _, err := e.pool.Exec(ctx, tamper.sql, one.CertificateNumber); err != nil {
			t.Fatal(err)
		}
		v, err := e.cs.Verify(ctx, one.CertificateNumber)
		if err != nil || !v.Found || v.UnderReview == nil || v.UnderReview.Reason != certs.ReasonUnderReview {
			t.Fatalf("after %s: %+v, %v, want under review", tamper.sql, v, err)
		}
		if !slices.Equal(v.Mismatch, tamper.fields) {
			t.Errorf("after %s: mismatch in %v, want %v", tamper.sql, v.Mismatch, tamper.fields)
		}
		if v.Certificate.Status == certs.CertValid || v.Certificate.Rank != 0 || v.Certificate.PlayerName != "" {
			t.Errorf("an under-review certificate shows the row: %+v", v.Certificate)
		}
		res, err := e.cs.VerifyBatch(ctx, []certs.BatchRow{{Number: one.CertificateNumber}, {Number: two.CertificateNumber}})
		if err != nil || res[0].Verdict != certs.VerdictUnderReview || res[0].Certificate != nil || res[0].Problem == nil ||
			res[1].Verdict != certs.VerdictReissued {
			t.Fatalf("batch after %s: %+v, %v", tamper.sql, res, err)
		}
		m, err := e.cs.CheckCertificatesAgainstLog(ctx)
		if err != nil || len(m) != 1 || m[0] != one.CertificateNumber+": "+strings.Join(tamper.fields, ",") {
			t.Errorf("whole check after %s: %v, %v", tamper.sql, m, err)
		}
	}
	mu.Lock()
	if len(heard) < 6 || !strings.HasPrefix(heard[0], one.CertificateNumber+":rank") {
		t.Errorf("the hook heard %v", heard)
	}
	mu.Unlock()
	for _, zh := range []bool{true, false} {
		lang := ledger.English
		if zh {
			lang = ledger.Chinese
		}
		if msg := certs.ReasonUnderReview.New("number", "110260001").Message(lang); !strings.Contains(msg, "110260001") {
			t.Errorf("%s message %q", lang, msg)
		}
	}
}

// TestPaperRecordBoundToItsLog: certificates recorded from paper (today's
// number and an older printed one) agree with their events, which now
// name the holder and the numbering prefix; a changed grade shows.
func TestPaperRecordBoundToItsLog(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	p := fixture.Player(t, e.reg, "110", "纸证", "", "1960-01-01", 1)
	file := "证书编号,姓名,证件号码,段位,发证日期,编号格式\n" +
		"BJ1998-0037," + p.Name + "," + p.IDNumber + ",3段,1998-05-01,旧\n" +
		"110150001," + p.Name + "," + p.IDNumber + ",2段,2015-05-01,\n"
	if res, err := e.cs.ImportPaper(ctx, staff, "", certs.PaperInput{Data: []byte(file)}); err != nil || res.Imported != 2 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	for _, number := range []string{"BJ1998-0037", "110150001"} {
		v, err := e.cs.Verify(ctx, number)
		if err != nil || v.UnderReview != nil || len(v.Events) != 1 {
			t.Fatalf("Verify(%s) = %+v, %v", number, v, err)
		}
		var pl certs.CertificateRecordedFromPaperPayload
		if err := json.Unmarshal(v.Events[0].Payload, &pl); err != nil || pl.Holder != p.Name || pl.Issuer != "110" {
			t.Errorf("%s's event: %+v, %v", number, pl, err)
		}
		// the one statement finds it too (the printed number, its events
		// under the entity the row's log_entity names) and reads the same row
		w, tr, err := e.cs.VerifyWithTree(ctx, number)
		if err != nil || tr == nil || w.UnderReview != nil || w.Certificate != v.Certificate || len(w.Events) != 1 || w.Events[0].ID != v.Events[0].ID {
			t.Errorf("VerifyWithTree(%s) = %+v, %v; Verify read %+v", number, w, err, v)
		}
	}
	if _, err := e.pool.Exec(ctx, `UPDATE certificates SET athlete_grade = 'first' WHERE printed_number = 'BJ1998-0037'`); err != nil {
		t.Fatal(err)
	}
	if v, err := e.cs.Verify(ctx, "BJ1998-0037"); err != nil || v.UnderReview == nil || !slices.Equal(v.Mismatch, []string{"athlete_grade"}) {
		t.Fatalf("changed grade: %+v, %v", v, err)
	}
}

// TestVerifyWithTreeReadsTheLinksKept: the one-statement verification
// reads a reissue's numbers from the row (migration 00112), kept with the
// links by trigger (00114); it answers what the two-step Verify (which joins
// the linked rows) answers, events oldest first, and a kept number changed
// behind the services' back is answered as under review.
func TestVerifyWithTreeReadsTheLinksKept(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 0)
	p := fixture.Player(t, e.reg, "110", "链接", "", "1990-01-01", 1)
	a, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.cs.Reissue(ctx, beijing, "", a.CertificateNumber, "遗失")
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.cs.Reissue(ctx, beijing, "", b.Number, "损坏")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{ // replaces, replaced by
		a.CertificateNumber: {"", b.Number},
		b.Number:            {a.CertificateNumber, c.Number},
		c.Number:            {b.Number, ""},
	}
	for number, links := range want {
		v, err := e.cs.Verify(ctx, number)
		if err != nil {
			t.Fatal(err)
		}
		w, tr, err := e.cs.VerifyWithTree(ctx, number)
		if err != nil || tr == nil || w.UnderReview != nil || w.Certificate != v.Certificate {
			t.Fatalf("VerifyWithTree(%s) = %+v, %v; Verify read %+v", number, w, err, v.Certificate)
		}
		if got := [2]string{w.Certificate.Replaces, w.Certificate.ReplacedBy}; got != links {
			t.Errorf("%s: links %v, want %v", number, got, links)
		}
		if !slices.IsSortedFunc(w.Events, func(x, y ledger.Event) int { return int(x.ID - y.ID) }) || len(w.Events) != len(v.Events) {
			t.Errorf("%s: events %v, want oldest first as %v", number, w.Events, v.Events)
		}
	}
	// the kept numbers follow the links whoever writes them (migration
	// 00114): a writer that sets a link alone, as a server from before the
	// numbers were kept would, or sets a number by hand
	for _, w := range []struct {
		sql, number string
		want        [2]string
	}{
		{`UPDATE certificates SET replaced_by = NULL WHERE number = $1`, a.CertificateNumber, [2]string{"", ""}},
		{`UPDATE certificates SET replaced_by = (SELECT id FROM certificates WHERE number = $2) WHERE number = $1`, a.CertificateNumber, want[a.CertificateNumber]},
		{`UPDATE certificates SET replaces_number = '110260009', replaced_by_number = $2 WHERE number = $1`, b.Number, want[b.Number]},
	} {
		args := []any{w.number}
		if strings.Contains(w.sql, "$2") {
			args = append(args, b.Number)
		}
		if _, err := e.pool.Exec(ctx, w.sql, args...); err != nil {
			t.Fatal(err)
		}
		var got [2]string
		if err := e.pool.QueryRow(ctx, `SELECT replaces_number, replaced_by_number FROM certificates WHERE number = $1`, w.number).Scan(&got[0], &got[1]); err != nil {
			t.Fatal(err)
		}
		if got != w.want {
			t.Errorf("after %s of %s: kept numbers %v, want %v", w.sql, w.number, got, w.want)
		}
	}
	// a tamperer who can switch the triggers off is still caught: the
	// verification checks the kept numbers against the log
	for _, tamper := range []struct {
		sql, number, field string
	}{
		{`UPDATE certificates SET replaced_by_number = '110260009' WHERE number = $1`, b.Number, "replaced_by"},
		{`UPDATE certificates SET replaces_number = '' WHERE number = $1`, b.Number, "replaces"},
		{`UPDATE certificates SET replaces_number = $1 WHERE number = $1`, a.CertificateNumber, "replaces"},
	} {
		if _, err := e.pool.Exec(ctx, `UPDATE certificates SET replaces_number = $2, replaced_by_number = $3 WHERE number = $1`,
			tamper.number, want[tamper.number][0], want[tamper.number][1]); err != nil {
			t.Fatal(err)
		}
		err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, tamper.sql, tamper.number)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		w, _, err := e.cs.VerifyWithTree(ctx, tamper.number)
		if err != nil || w.UnderReview == nil || !slices.Equal(w.Mismatch, []string{tamper.field}) {
			t.Errorf("after %s of %s: %+v, %v, want under review in %s", tamper.sql, tamper.number, w, err, tamper.field)
		}
	}
}

// TestFoldCertificateOlderEvents: events written before the holder's name
// was logged still fold, binding what they carry; impossible histories do
// not fold.
func TestFoldCertificateOlderEvents(t *testing.T) {
	ev := func(id int64, action, payload string) ledger.Event {
		return ledger.Event{ID: id, Action: action, EntityType: "certificate", EntityID: "110260001", Payload: json.RawMessage(payload)}
	}
	old := ev(1, "certificate.issued", `{"application_id":3,"athlete_grade":"","basis":"tournament","issue_date":"2026-03-01","issuer":"110","number":"110260001","player_id":7,"rank":"1d","replaces":0}`)
	st, err := certs.FoldCertificate("110260001", []ledger.Event{old})
	if err != nil || st.HasHolder || st.HasBody || st.Rank != 1 || st.Status != certs.CertValid {
		t.Fatalf("older issue: %+v, %v", st, err)
	}
	row := certs.Certificate{Number: "110260001", PlayerName: "anyone", IssuingBody: "any", Rank: 1, Basis: certs.Tournament,
		IssuingPrefix: "110", IssueDate: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Status: certs.CertValid}
	if d := st.Disagreements(row); len(d) != 0 {
		t.Errorf("an older event binds %v", d)
	}
	row.Rank = 5
	if d := st.Disagreements(row); !slices.Equal(d, []string{"rank"}) {
		t.Errorf("rank changed: %v", d)
	}
	revoked := ev(2, "certificate.revoked", `{"reason":"x"}`)
	for name, events := range map[string][]ledger.Event{
		"none":               nil,
		"revoked unissued":   {revoked},
		"issued twice":       {old, old},
		"revoked twice":      {old, revoked, revoked},
		"another entity":     {{ID: 1, Action: "certificate.issued", EntityType: "certificate", EntityID: "x", Payload: old.Payload}},
		"unreadable payload": {ev(1, "certificate.issued", `{"rank":5}`)},
	} {
		if _, err := certs.FoldCertificate("110260001", events); err == nil {
			t.Errorf("%s: folded", name)
		}
	}
}

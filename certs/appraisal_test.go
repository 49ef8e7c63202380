package certs_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// payloadOf reads the newest event of action about entity into v.
func payloadOf(t *testing.T, e *env, action, entity string, v any) {
	t.Helper()
	var raw []byte
	if err := e.pool.QueryRow(context.Background(), `SELECT payload FROM events WHERE action = $1 AND entity_id = $2 ORDER BY id DESC LIMIT 1`,
		action, entity).Scan(&raw); err != nil {
		t.Fatalf("%s of %s: %v", action, entity, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// reasonOf is the code of a refusal, "" for none, the error for another error.
func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := ledger.AsError(err); ok {
		return e.Reason.Code()
	}
	return err.Error()
}

func day(t time.Time, days int) string {
	return t.In(ledger.ChinaTime).AddDate(0, 0, days).Format(time.DateOnly)
}

// TestRecordAppraisal: a session is refused, with its code and the field
// it names, unless its appraiser is the agency's and approved, its date
// not in the future, its candidate the agency's, its verdict a rank up to
// 5 dan or not passed, and its games 1 to 10 with at least one record the
// rules engine replays as one legal game of 30 moves or more agreeing with
// the result given. A session recorded is logged as appraisal.recorded.
func TestRecordAppraisal(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	now := e.clock.Now()
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	unapproved, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "待批准"})
	if err != nil {
		t.Fatal(err)
	}
	shAp := fixture.Appraiser(t, e.cs, "310", "沪老师")
	p := fixture.Player(t, e.reg, "110", "候选人", "1d", "1980-01-01", 1)
	sh := fixture.Player(t, e.reg, "310", "沪棋手", "1d", "1980-01-01", 2)
	selfPlayer := fixture.Player(t, e.reg, "110", "自评", "3d", "1970-01-01", 3)
	self, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "自评", PlayerID: selfPlayer.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", self.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	good := func() certs.AppraisalInput {
		return certs.AppraisalInput{AppraiserID: ap.ID, PlayerID: p.ID, HeldOn: day(now, 0), Verdict: "3d", Games: fixture.AppraisalGames()}
	}
	with := func(f func(*certs.AppraisalInput)) certs.AppraisalInput { in := good(); f(&in); return in }
	game := func(g certs.AppraisalGameInput) func(*certs.AppraisalInput) {
		return func(in *certs.AppraisalInput) { in.Games = []certs.AppraisalGameInput{g} }
	}
	rec := fixture.AppraisalRecord("B+R")
	for _, tt := range []struct {
		name  string
		in    certs.AppraisalInput
		code  string
		field string
	}{
		{"no appraiser", with(func(in *certs.AppraisalInput) { in.AppraiserID = 0 }), "APPRAISER_REQUIRED", "appraiser_id"},
		{"a date tomorrow", with(func(in *certs.AppraisalInput) { in.HeldOn = day(now, 1) }), "APPRAISAL_DATE", "held_on"},
		{"no date", with(func(in *certs.AppraisalInput) { in.HeldOn = "" }), "APPRAISAL_DATE", "held_on"},
		{"6 dan by appraisal", with(func(in *certs.AppraisalInput) { in.Verdict = "6d" }), "APPRAISAL_VERDICT", "verdict"},
		{"no verdict", with(func(in *certs.AppraisalInput) { in.Verdict = "" }), "APPRAISAL_VERDICT", "verdict"},
		{"no games", with(func(in *certs.AppraisalInput) { in.Games = nil }), "APPRAISAL_NO_GAMES", "games"},
		{"eleven games", with(func(in *certs.AppraisalInput) {
			in.Games = slices.Repeat([]certs.AppraisalGameInput{{Colour: "black", Result: "win", SGF: rec}}, 11)
		}), "APPRAISAL_NO_GAMES", "games"},
		{"no record", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win"})), "APPRAISAL_NO_RECORD", "sgf"},
		{"a colour", with(game(certs.AppraisalGameInput{Colour: "red", Result: "win", SGF: rec})), "APPRAISAL_COLOUR", "colour"},
		{"a result", with(game(certs.AppraisalGameInput{Colour: "black", Result: "B+R", SGF: rec})), "APPRAISAL_RESULT", "result"},
		{"an unreadable record", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win", SGF: "(;GM[1]SZ[19];B[dd]"})), "APPRAISAL_RECORD", "sgf"},
		{"a record too large", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win", SGF: rec + strings.Repeat(" ", 1<<20)})), "APPRAISAL_RECORD", "sgf"},
		{"two games in one record", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win", SGF: rec + rec})), "APPRAISAL_RECORD_GAMES", "sgf"},
		{"a short record", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win", SGF: "(;GM[1]SZ[19]RE[B+R];B[dd];W[pp];B[dp])"})), "APPRAISAL_RECORD_SHORT", "sgf"},
		{"an illegal move", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win",
			SGF: strings.Replace(rec, ";B[jj];W[jk]", ";B[jj];W[jj]", 1)})), "APPRAISAL_RECORD_ILLEGAL", "sgf"},
		{"the record says white won", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win", SGF: fixture.AppraisalRecord("W+2.5")})),
			"APPRAISAL_RECORD_RESULT", "result"},
		{"an appraiser not approved", with(func(in *certs.AppraisalInput) { in.AppraiserID = unapproved.ID }), "APPRAISER_NOT_APPROVED", "appraiser_id"},
		{"another agency's appraiser", with(func(in *certs.AppraisalInput) { in.AppraiserID = shAp.ID }), "APPRAISER_OTHER_AGENCY", "appraiser_id"},
		{"an unknown appraiser", with(func(in *certs.AppraisalInput) { in.AppraiserID = 999999 }), "NO_SUCH_APPRAISER", "appraiser_id"},
		{"another province's player", with(func(in *certs.AppraisalInput) { in.PlayerID = sh.ID }), "APPRAISAL_PLAYER_ELSEWHERE", "player_id"},
		{"the appraiser himself", with(func(in *certs.AppraisalInput) { in.AppraiserID, in.PlayerID = self.ID, selfPlayer.ID }), "APPRAISAL_SELF", "player_id"},
		{"recorded", good(), "", ""},
		{"not passed, the record's result white's as given", with(func(in *certs.AppraisalInput) {
			in.Verdict = "not_passed"
			in.Games = []certs.AppraisalGameInput{{Colour: "black", Result: "loss", SGF: fixture.AppraisalRecord("W+R")}}
		}), "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.cs.RecordAppraisal(ctx, beijing, "", tt.in)
			if got := reasonOf(err); got != tt.code {
				t.Fatalf("got %q (%v), want %q", got, err, tt.code)
			}
			if err != nil {
				fe, _ := ledger.AsError(err)
				if fe.Field != tt.field || fe.Message(ledger.Chinese) == fe.Message(ledger.English) {
					t.Fatalf("refused on field %q (%s / %s), want %q in two languages", fe.Field, fe.Message(ledger.Chinese), fe.Message(ledger.English), tt.field)
				}
				return
			}
			if s.AgencyPrefix != "110" || s.AppraiserName != ap.Name || s.PlayerName != p.Name || len(s.Games) != len(tt.in.Games) ||
				s.Status != certs.AppraisalRecorded || s.HeldOn.Format(time.DateOnly) != tt.in.HeldOn {
				t.Fatalf("session = %+v", s)
			}
			var pl certs.AppraisalRecordedPayload
			payloadOf(t, e, "appraisal.recorded", strconvI(s.ID), &pl)
			want := certs.AppraisalRecordedPayload{Agency: "110", AppraiserID: ap.ID, Games: len(tt.in.Games), HeldOn: tt.in.HeldOn,
				Passed: tt.in.Verdict != certs.NotPassed, PlayerID: p.ID, Records: 1}
			if want.Passed {
				want.Verdict = tt.in.Verdict
			}
			if pl != want {
				t.Fatalf("appraisal.recorded = %+v, want %+v", pl, want)
			}
			if s.Games[0].Moves != 40 || s.Games[0].SGF == "" {
				t.Fatalf("first game = %+v, want its record of 40 moves", s.Games[0])
			}
		})
	}
	// the referee's words stay in the page's language
	_, err = e.cs.RecordAppraisal(ctx, beijing, "", with(game(certs.AppraisalGameInput{Colour: "black", Result: "win", SGF: "(;GM[1]SZ[19];B[dd]"})))
	if fe, _ := ledger.AsError(err); !strings.Contains(fe.Message(ledger.Chinese), "第 1 局") || !strings.Contains(fe.Message(ledger.Chinese), "棋谱") ||
		strings.Contains(fe.Message(ledger.Chinese), "cannot") {
		t.Fatalf("a record's refusal in Chinese: %q", fe.Message(ledger.Chinese))
	}
}

func strconvI(id int64) string { return strconv.FormatInt(id, 10) }

// TestApplicationByAppraisal: an application by appraisal names a session
// and is refused, with its code, when the session does not back it; the
// same checks run again at approval.
func TestApplicationByAppraisal(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 20, 20)
	now := e.clock.Now()
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	other := fixture.Appraiser(t, e.cs, "110", "第二位")
	shAp := fixture.Appraiser(t, e.cs, "310", "沪老师")
	player := func(name string, birth string, seq int) registry.Player {
		return fixture.Player(t, e.reg, "110", name, "1d", birth, seq)
	}
	// sessions held ten days ago; a player whose 18th birthday fell five
	// days ago is 17 on their date and 18 today, whatever today is (a leap
	// day included)
	earlier := func(p registry.Player) certs.AppraisalSession {
		t.Helper()
		s, err := e.cs.RecordAppraisal(ctx, beijing, "", certs.AppraisalInput{AppraiserID: ap.ID, PlayerID: p.ID, HeldOn: day(now, -10),
			Verdict: "3d", Games: fixture.AppraisalGames()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	turned18 := now.In(ledger.ChinaTime).AddDate(0, 0, -5).AddDate(-18, 0, 0).Format(time.DateOnly)
	adult := player("成人", "1980-01-01", 1)
	session := earlier(adult)
	stranger := player("旁人", "1980-01-01", 2)
	sh := fixture.Player(t, e.reg, "310", "沪棋手", "1d", "1980-01-01", 3)
	shSession := fixture.Appraisal(t, e.cs, "310", shAp.ID, sh.ID, "3d", now)
	notPassed, err := e.cs.RecordAppraisal(ctx, beijing, "", certs.AppraisalInput{AppraiserID: ap.ID, PlayerID: stranger.ID, HeldOn: day(now, -1),
		Verdict: certs.NotPassed, Games: fixture.AppraisalGames()})
	if err != nil {
		t.Fatal(err)
	}
	withdrawnFor := player("撤回", "1980-01-01", 4)
	withdrawn := fixture.Appraisal(t, e.cs, "110", ap.ID, withdrawnFor.ID, "3d", now)
	if _, err := e.cs.WithdrawAppraisal(ctx, beijing, "", withdrawn.ID, "鉴定人与棋手系亲属"); err != nil {
		t.Fatal(err)
	}
	// 18 today: 17 on the session's date
	turning := player("刚成年", turned18, 5)
	turningSession := earlier(turning)
	minor := player("少年", fixture.BirthDate(now, 16), 6)
	minorSession := fixture.Appraisal(t, e.cs, "110", ap.ID, minor.ID, "3d", now)
	revokedFor := player("鉴定人被撤", "1980-01-01", 7)
	revokedSession := fixture.Appraisal(t, e.cs, "110", other.ID, revokedFor.ID, "3d", now)
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", other.ID, certs.AppraiserRevoked); err != nil {
		t.Fatal(err)
	}
	used := player("已用", "1980-01-01", 8)
	usedSession := fixture.Appraisal(t, e.cs, "110", ap.ID, used.ID, "3d", now)
	first, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: used.ID, TargetRank: "2d", Basis: "appraisal", AppraisalSessionID: usedSession.ID})
	if err != nil {
		t.Fatal(err)
	}
	if first, err = e.cs.Approve(ctx, beijing, "", first.ID); err != nil || first.Status != certs.AppIssued {
		t.Fatalf("approve the first: %+v, %v", first, err)
	}

	by := func(p registry.Player, target string, session int64) certs.ApplicationInput {
		return certs.ApplicationInput{PlayerID: p.ID, TargetRank: target, Basis: "appraisal", AppraisalSessionID: session}
	}
	for _, tt := range []struct {
		name string
		in   certs.ApplicationInput
		code string
	}{
		{"only an appraiser, as before", certs.ApplicationInput{PlayerID: adult.ID, TargetRank: "2d", Basis: "appraisal", AppraiserID: ap.ID}, "APPRAISAL_SESSION_REQUIRED"},
		{"an unknown session", by(adult, "2d", 999999), "NO_SUCH_APPRAISAL"},
		{"another agency's session", by(adult, "2d", shSession.ID), "APPRAISAL_OTHER_AGENCY"},
		{"another player's session", by(stranger, "2d", session.ID), "APPRAISAL_OTHER_PLAYER"},
		{"a withdrawn session", by(withdrawnFor, "2d", withdrawn.ID), "APPRAISAL_WITHDRAWN"},
		{"a session not passed", by(stranger, "2d", notPassed.ID), "APPRAISAL_NOT_PASSED"},
		{"a verdict below the target", by(adult, "4d", session.ID), "APPRAISAL_BELOW_TARGET"},
		{"a session behind an issued certificate", by(used, "3d", usedSession.ID), "APPRAISAL_USED"},
		{"an appraiser revoked since", by(revokedFor, "2d", revokedSession.ID), "APPRAISER_NOT_APPROVED"},
		{"17 on the session's date", by(turning, "2d", turningSession.ID), "APPRAISAL_UNDER_AGE"},
		{"16 on the application's date", by(minor, "2d", minorSession.ID), "UNDER_APPRAISAL_AGE"},
		{"another appraiser named", certs.ApplicationInput{PlayerID: adult.ID, TargetRank: "2d", Basis: "appraisal", AppraisalSessionID: session.ID,
			AppraiserID: other.ID}, "APPRAISAL_OTHER_APPRAISER"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.cs.Apply(ctx, beijing, "", tt.in)
			if got := reasonOf(err); got != tt.code {
				t.Fatalf("got %q (%v), want %q", got, err, tt.code)
			}
			fe, _ := ledger.AsError(err)
			if fe.Message(ledger.Chinese) == fe.Message(ledger.English) || strings.Contains(fe.Message(ledger.Chinese), "appraisal") {
				t.Fatalf("the refusal in two languages: %q / %q", fe.Message(ledger.Chinese), fe.Message(ledger.English))
			}
		})
	}

	// filed on a session: the appraiser is the session's, the event names both
	a, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: adult.ID, TargetRank: "3d", Basis: "appraisal", AppraisalSessionID: session.ID, AppraiserID: ap.ID})
	if err != nil {
		t.Fatal(err)
	}
	if a.AppraisalSessionID != session.ID || a.AppraiserID != ap.ID {
		t.Fatalf("application = %+v, want session %d by appraiser %d", a, session.ID, ap.ID)
	}
	var sub certs.ApplicationSubmittedPayload
	payloadOf(t, e, "application.submitted", strconvI(a.ID), &sub)
	if sub.AppraisalSessionID != session.ID || sub.AppraiserID != ap.ID || sub.Basis != certs.Appraisal {
		t.Fatalf("application.submitted = %+v", sub)
	}
	// approval checks again: the appraiser revoked meanwhile
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", ap.ID, certs.AppraiserRevoked); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, beijing, "", a.ID); reasonOf(err) != "APPRAISER_NOT_APPROVED" {
		t.Fatalf("approve after the appraiser was revoked: %v", err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	// a birth date corrected by staff after filing (17 on the session's
	// date): approval checks the session's date again and refuses
	pin := registry.PlayerInput{Name: adult.Name, Gender: adult.Gender, BirthDate: turned18, IDKind: registry.ResidentIDCard,
		IDNumber: fixture.ResidentID("110", turned18, 1), ProvinceCode: adult.ProvinceCode, ChangeReason: "户籍核对更正"}
	if _, err := e.reg.UpdatePlayer(ctx, staff, "", adult.ID, pin); err != nil {
		t.Fatalf("staff correct the birth date: %v", err)
	}
	if _, err := e.cs.Approve(ctx, beijing, "", a.ID); reasonOf(err) != "APPRAISAL_UNDER_AGE" {
		t.Fatalf("approve after the birth date was corrected: %v", err)
	}
	if _, err := e.cs.Reject(ctx, beijing, "", a.ID, "出生日期已更正"); err != nil {
		t.Fatal(err)
	}
	// filed again on the corrected date: 17 on the session's date
	in := certs.ApplicationInput{PlayerID: adult.ID, TargetRank: "3d", Basis: "appraisal", AppraisalSessionID: session.ID}
	if _, err := e.cs.Apply(ctx, beijing, "", in); reasonOf(err) != "APPRAISAL_UNDER_AGE" {
		t.Fatalf("apply on a session held at 17: %v", err)
	}
	pin.BirthDate, pin.IDNumber = "1980-01-01", fixture.ResidentID("110", "1980-01-01", 1)
	if _, err := e.reg.UpdatePlayer(ctx, staff, "", adult.ID, pin); err != nil {
		t.Fatal(err)
	}
	if a, err = e.cs.Apply(ctx, beijing, "", in); err != nil {
		t.Fatal(err)
	}
	a, err = e.cs.Approve(ctx, beijing, "", a.ID)
	if err != nil || a.Status != certs.AppIssued {
		t.Fatalf("approve: %+v, %v", a, err)
	}
	v, _ := e.cs.Verify(ctx, a.CertificateNumber)
	if v.Certificate.Basis != certs.Appraisal || v.Certificate.AthleteGrade != certs.NoGrade {
		t.Fatalf("certificate by appraisal = %+v, want no athlete grade", v.Certificate)
	}
}

// TestWithdrawAppraisal: withdrawing a session needs a reason and is its
// agency's (or staff's); it withdraws the open application resting on it,
// flags the certificate issued on it for review, and says both in
// appraisal.withdrawn.
func TestWithdrawAppraisal(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 20, 20)
	now := e.clock.Now()
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	issuedFor := fixture.Player(t, e.reg, "110", "已发证", "1d", "1980-01-01", 1)
	s := fixture.Appraisal(t, e.cs, "110", ap.ID, issuedFor.ID, "3d", now)
	a, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: issuedFor.ID, TargetRank: "2d", Basis: "appraisal", AppraisalSessionID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = e.cs.Approve(ctx, beijing, "", a.ID); err != nil {
		t.Fatal(err)
	}
	// a second application on the same session (3d) waits
	open, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: issuedFor.ID, TargetRank: "3d", Basis: "appraisal", AppraisalSessionID: s.ID})
	if reasonOf(err) != "APPRAISAL_USED" {
		t.Fatalf("a second application on a used session: %+v, %v", open, err)
	}
	waitingFor := fixture.Player(t, e.reg, "110", "待批", "1d", "1980-01-01", 2)
	s2 := fixture.Appraisal(t, e.cs, "110", ap.ID, waitingFor.ID, "3d", now)
	open, err = e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: waitingFor.ID, TargetRank: "2d", Basis: "appraisal", AppraisalSessionID: s2.ID})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := e.cs.WithdrawAppraisal(ctx, beijing, "", s.ID, " "); reasonOf(err) != "REASON_REQUIRED" {
		t.Fatalf("withdraw without a reason: %v", err)
	}
	if _, err := e.cs.WithdrawAppraisal(ctx, fixture.Agency("310"), "", s.ID, "x"); reasonOf(err) != "NO_SUCH_APPRAISAL" {
		t.Fatalf("another agency withdrawing: %v", err)
	}
	for _, tt := range []struct {
		session      certs.AppraisalSession
		applications []int64
		certificates []string
	}{
		{s, []int64{}, []string{a.CertificateNumber}},
		{s2, []int64{open.ID}, []string{}},
	} {
		got, err := e.cs.WithdrawAppraisal(ctx, beijing, "", tt.session.ID, "对局系事后补录")
		if err != nil || got.Status != certs.AppraisalWithdrawn || got.WithdrawReason != "对局系事后补录" {
			t.Fatalf("withdraw %d: %+v, %v", tt.session.ID, got, err)
		}
		var pl certs.AppraisalWithdrawnPayload
		payloadOf(t, e, "appraisal.withdrawn", strconvI(tt.session.ID), &pl)
		if pl.Reason != "对局系事后补录" || !slices.Equal(pl.Applications, tt.applications) || !slices.Equal(pl.Certificates, tt.certificates) {
			t.Fatalf("appraisal.withdrawn = %+v, want applications %v, certificates %v", pl, tt.applications, tt.certificates)
		}
	}
	if _, err := e.cs.WithdrawAppraisal(ctx, beijing, "", s.ID, "再次"); reasonOf(err) != "APPRAISAL_NOT_RECORDED" {
		t.Fatalf("withdraw twice: %v", err)
	}
	reviews, err := e.cs.CertificatesForReview(ctx, staff)
	if err != nil || len(reviews) != 1 || reviews[0].Number != a.CertificateNumber || reviews[0].Code != certs.ReviewAppraisalWithdrawn.Code() ||
		!strings.Contains(reviews[0].ReasonText(ledger.Chinese), "鉴定") {
		t.Fatalf("certificates for review = %+v, %v", reviews, err)
	}
	if got, _ := e.cs.GetApplication(ctx, beijing, open.ID); got.Status != certs.AppRejected {
		t.Fatalf("the open application after the withdrawal: %s", got.Status)
	}
}

// TestPublicAppraisal: a session is public only once it backs a rank on
// public notice, and then the notice names it.
func TestPublicAppraisal(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 20, 20)
	now := e.clock.Now()
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	p := fixture.Player(t, e.reg, "110", "四段候选", "3d", "1980-01-01", 1)
	s := fixture.Appraisal(t, e.cs, "110", ap.ID, p.ID, "4d", now)
	if _, err := e.cs.PublicAppraisal(ctx, s.ID); reasonOf(err) != "APPRAISAL_NOT_PUBLIC" {
		t.Fatalf("a session behind no notice: %v", err)
	}
	a, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "4d", Basis: "appraisal", AppraisalSessionID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.PublicAppraisal(ctx, s.ID); reasonOf(err) != "APPRAISAL_NOT_PUBLIC" {
		t.Fatalf("a session behind an application not yet on notice: %v", err)
	}
	if a, err = e.cs.Approve(ctx, beijing, "", a.ID); err != nil || a.Status != certs.AppOnNotice {
		t.Fatalf("approve 4d: %+v, %v", a, err)
	}
	got, err := e.cs.PublicAppraisal(ctx, s.ID)
	if err != nil || got.AppraiserName != "聂老师" || got.Verdict != 4 || len(got.Games) != 2 {
		t.Fatalf("public session = %+v, %v", got, err)
	}
	n, err := e.cs.GetNotice(ctx, a.NoticeID)
	if err != nil || n.AppraisalSessionID != s.ID {
		t.Fatalf("notice = %+v, %v, want it to name session %d", n, err, s.ID)
	}
}

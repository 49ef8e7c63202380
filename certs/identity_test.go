package certs_test

import (
	"context"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// approvedAppraiser is a Beijing appraiser the association approved.
func (e *env) approvedAppraiser(t *testing.T) int64 {
	t.Helper()
	ctx := context.Background()
	ap, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "聂老师", Qualification: "省冠军"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	return ap.ID
}

// session records an appraisal of player by appraiser, passed at verdict,
// held the day before the clock's now.
func (e *env) session(t *testing.T, appraiser, player int64, verdict string) int64 {
	t.Helper()
	return fixture.Appraisal(t, e.cs, "110", appraiser, player, verdict, e.clock.Now()).ID
}

// changeBirth is an agency's change of p's birth date (and resident ID number).
func changeBirth(p registry.Player, birth string, seq int) registry.PlayerInput {
	return registry.PlayerInput{Name: p.Name, Gender: p.Gender, BirthDate: birth, IDKind: registry.ResidentIDCard,
		IDNumber: fixture.ResidentID("110", birth, seq), ProvinceCode: p.ProvinceCode, ChangeReason: "登记时录入错误"}
}

func isReason(err error, r *ledger.Reason) bool {
	le, ok := ledger.AsError(err)
	return ok && le.Reason == r
}

// The measured abuse: a 17-year-old's birth date and ID number edited, an
// appraisal applied for the same day, the record restored. The edit now
// waits for staff, the appraisal waits for their decision, and no
// certificate comes of it.
func TestSeventeenYearOldIsNotAppraisedThroughAnEdit(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	apID := e.approvedAppraiser(t)
	born := fixture.BirthDate(e.start, 17)
	p := fixture.Player(t, e.reg, "110", "少年", "2d", born, 7)
	e.clock.Advance(48 * time.Hour)
	sessionID := e.session(t, apID, p.ID, "3d")

	older := fixture.BirthDate(e.start, 19)
	u, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, changeBirth(p, older, 8))
	if err != nil || u.Held == nil {
		t.Fatalf("edit: held %+v, %v", u.Held, err)
	}
	byAppraisal := certs.ApplicationInput{PlayerID: p.ID, TargetRank: "3d", Basis: "appraisal", AppraisalSessionID: sessionID}
	if _, err := e.cs.Apply(ctx, beijing, "", byAppraisal); !isReason(err, certs.ReasonIdentityChangeWaits) {
		t.Fatalf("appraisal while the edit waits: %v, want IDENTITY_CHANGE_WAITS", err)
	}
	// the restore: nothing was changed, so there is nothing to restore (the
	// record is as registered) and the change still waits; a different
	// change is refused while it does
	if r, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, changeBirth(p, born, 7)); err != nil || r.BirthDate.Format(time.DateOnly) != born {
		t.Fatalf("restore: %s, %v", r.BirthDate, err)
	}
	if _, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, changeBirth(p, fixture.BirthDate(e.start, 20), 9)); !isReason(err, registry.ReasonIdentityChangePending) {
		t.Fatalf("another edit: %v, want IDENTITY_CHANGE_PENDING", err)
	}
	// staff reject the edit: the player is still 17 and appraisal stays closed
	if _, err := e.reg.DecideIdentityChange(ctx, staff, "", u.Held.ID, false, "与户籍信息不符"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Apply(ctx, beijing, "", byAppraisal); !isReason(err, certs.ReasonUnderAppraisalAge) {
		t.Fatalf("appraisal after the rejection: %v, want UNDER_APPRAISAL_AGE", err)
	}
	cs, err := e.cs.PlayerCertificates(ctx, p.ID)
	if err != nil || len(cs) != 0 {
		t.Fatalf("certificates of the 17-year-old: %+v, %v", cs, err)
	}
	if got, _ := e.reg.GetPlayer(ctx, p.ID); got.BirthDate.Format(time.DateOnly) != born {
		t.Fatalf("birth date %s, want %s", got.BirthDate.Format(time.DateOnly), born)
	}
}

// While a change of identity waits, an appraisal is not filed and no
// application of any basis is approved.
func TestApplicationsWaitForAPendingIdentityChange(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name       string
		basis      string
		rank       string
		applyFirst bool           // filed before the change was asked
		wantApply  *ledger.Reason // filing after the change was asked
	}{
		{"appraisal filed before", "appraisal", "1d", true, nil},
		{"appraisal filed after", "appraisal", "1d", false, certs.ReasonIdentityChangeWaits},
		{"tournament filed before", "tournament", "1d", true, nil},
		{"tournament filed after", "tournament", "1d", false, nil},
		{"4 dan tournament filed after", "tournament", "4d", false, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, certs.Config{})
			e.stock(t, "110", 10, 10)
			apID := e.approvedAppraiser(t)
			p := fixture.Player(t, e.reg, "110", "成人", "3d", "1990-05-01", 1)
			e.clock.Advance(48 * time.Hour)
			in := certs.ApplicationInput{PlayerID: p.ID, TargetRank: tt.rank, Basis: tt.basis}
			if tt.rank == "1d" {
				p = fixture.Player(t, e.reg, "110", "业余", "2k", "1990-05-02", 2)
				in.PlayerID = p.ID
			}
			if tt.basis == "appraisal" {
				in.AppraisalSessionID = e.session(t, apID, p.ID, tt.rank)
			} else {
				in.EventID = fixture.Earned(t, e.ts, tt.rank, p.ID)
			}
			var app certs.Application
			var err error
			if tt.applyFirst {
				if app, err = e.cs.Apply(ctx, beijing, "", in); err != nil {
					t.Fatal(err)
				}
			}
			u, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, changeBirth(p, "1991-05-01", 3))
			if err != nil || u.Held == nil {
				t.Fatalf("edit: held %+v, %v", u.Held, err)
			}
			if !tt.applyFirst {
				app, err = e.cs.Apply(ctx, beijing, "", in)
				if tt.wantApply != nil {
					if !isReason(err, tt.wantApply) {
						t.Fatalf("apply: %v, want %s", err, tt.wantApply.Code())
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if _, err := e.cs.Approve(ctx, beijing, "", app.ID); !isReason(err, certs.ReasonIdentityChangeWaits) {
				t.Fatalf("approve: %v, want IDENTITY_CHANGE_WAITS", err)
			}
			// decided (rejected: the filed application rested on the record as it stands), it goes through
			if _, err := e.reg.DecideIdentityChange(ctx, staff, "", u.Held.ID, false, "无证明材料"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.cs.Approve(ctx, beijing, "", app.ID); err != nil {
				t.Fatalf("approve after the decision: %v", err)
			}
		})
	}
}

// A birth date changed after an appraisal was filed: the application was
// checked against the former date and is not approved on it.
func TestAppraisalFiledBeforeABirthDateChange(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	apID := e.approvedAppraiser(t)
	p := fixture.Player(t, e.reg, "110", "成人", "2k", "1990-05-01", 1)
	e.clock.Advance(48 * time.Hour)
	sessionID := e.session(t, apID, p.ID, "1d")
	app, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "appraisal", AppraisalSessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	u, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, changeBirth(p, "1992-05-01", 2))
	if err != nil || u.Held == nil {
		t.Fatalf("edit: held %+v, %v", u.Held, err)
	}
	e.clock.Advance(time.Hour)
	if _, err := e.reg.DecideIdentityChange(ctx, staff, "", u.Held.ID, true, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, beijing, "", app.ID); !isReason(err, certs.ReasonBirthDateChangedSinceApplied) {
		t.Fatalf("approve: %v, want BIRTH_DATE_CHANGED_SINCE_APPLIED", err)
	}
	// filed again after the change, it is judged on the new date
	if _, err := e.cs.Reject(ctx, beijing, "", app.ID, "出生日期已更正，重新申请"); err != nil {
		t.Fatal(err)
	}
	again, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "appraisal", AppraisalSessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, beijing, "", again.ID); err != nil {
		t.Fatalf("approve the new application: %v", err)
	}
}

// An agency's correction on the day of registration takes effect at once
// only while nothing of certification rests on the player (certs answers
// the registry's question).
func TestRegistrationDayCorrectionAsksCertification(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name     string
		applied  bool
		wantHeld bool
	}{
		{"no application yet", false, false},
		{"an application filed", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, certs.Config{})
			e.clock.Set(time.Date(2026, 6, 2, 1, 0, 0, 0, time.UTC)) // 09:00 in Beijing
			in := registry.PlayerInput{Name: "新手", Gender: registry.Male, BirthDate: "1990-05-01", IDKind: registry.ResidentIDCard,
				IDNumber: fixture.ResidentID("110", "1990-05-01", 4), ProvinceCode: "11", Rank: "2k"}
			p, err := e.reg.RegisterPlayer(ctx, beijing, "", in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.applied {
				e.apply(t, beijing, p, "1d")
			}
			e.clock.Advance(time.Hour)
			u, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, changeBirth(p, "1990-06-01", 4))
			if err != nil {
				t.Fatal(err)
			}
			if (u.Held != nil) != tt.wantHeld {
				t.Fatalf("held %+v, want held %v", u.Held, tt.wantHeld)
			}
		})
	}
}

package server_test

import (
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestRefusalsCarryTheirReason sends requests the registry refuses and
// checks what a client can act on: the status code, google.rpc.ErrorInfo
// with the reason code and its parameters, and google.rpc.BadRequest naming
// the field.
func TestRefusalsCarryTheirReason(t *testing.T) {
	e := newEnv(t) // 2026-11-30 16:00 in Beijing
	bj := e.as(e.bj)
	badDigit := wang()
	badDigit.IdentityNumber = "110105194912310021"
	young := fixture.Player(t, e.reg, "110", "少年", "2d", "2010-06-01", 3)
	for _, tt := range []struct {
		what   string
		call   func() error
		code   codes.Code
		reason string
		meta   map[string]string
		field  string
	}{
		{"wrong check digit", func() error {
			_, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: badDigit})
			return err
		}, codes.InvalidArgument, "ID_CHECK_DIGIT", map[string]string{"got": "1", "want": "X"}, "identity_number"},
		{"order window closed", func() error {
			_, err := e.certs.PlaceOrder(bj, &pb.PlaceOrderRequest{DanCount: 1})
			return err
		}, codes.FailedPrecondition, "ORDER_WINDOW_CLOSED", map[string]string{"opens": "2026-12-01", "year": "2027"}, ""},
		{"under 18 for appraisal", func() error {
			_, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: young.ID, TargetRank: "3d",
				Basis: pb.Basis_BASIS_APPRAISAL, AppraisalSessionId: 1})
			return err
		}, codes.InvalidArgument, "UNDER_APPRAISAL_AGE", map[string]string{"age": "16", "min": "18"}, "basis"},
		{"malformed certificate number", func() error {
			_, err := e.certs.VerifyCertificate(bj, &pb.VerifyCertificateRequest{Number: "12345"})
			return err
		}, codes.InvalidArgument, "DAN_NUMBER_LENGTH", map[string]string{"digits": "5"}, "number"},
		{"public registering", func() error {
			_, err := e.client.RegisterPlayer(e.as(""), &pb.RegisterPlayerRequest{Player: wang()})
			return err
		}, codes.Unauthenticated, "NEEDS_TOKEN", nil, ""},
		{"agency of another province", func() error {
			in := wang()
			in.ProvinceCode = "31"
			in.IdentityNumber = fixture.ResidentID("310", "1949-12-31", 5)
			_, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: in})
			return err
		}, codes.PermissionDenied, "OTHER_PROVINCE", map[string]string{"agency": "110", "owner": "310"}, ""},
	} {
		err := tt.call()
		st := status.Convert(err)
		if st.Code() != tt.code {
			t.Errorf("%s: %v, want %s", tt.what, err, tt.code)
			continue
		}
		var info *errdetails.ErrorInfo
		var bad *errdetails.BadRequest
		for _, d := range st.Details() {
			switch d := d.(type) {
			case *errdetails.ErrorInfo:
				info = d
			case *errdetails.BadRequest:
				bad = d
			}
		}
		if info == nil || info.GetReason() != tt.reason || info.GetDomain() != "dankyu.org" {
			t.Errorf("%s: ErrorInfo %v, want reason %s", tt.what, info, tt.reason)
			continue
		}
		for k, v := range tt.meta {
			if info.GetMetadata()[k] != v {
				t.Errorf("%s: ErrorInfo metadata %s = %q, want %q", tt.what, k, info.GetMetadata()[k], v)
			}
		}
		switch {
		case tt.field == "" && bad != nil:
			t.Errorf("%s: BadRequest %v for a refusal of no field", tt.what, bad)
		case tt.field != "" && (bad == nil || len(bad.GetFieldViolations()) != 1 || bad.GetFieldViolations()[0].GetField() != tt.field):
			t.Errorf("%s: BadRequest %v, want a violation of %s", tt.what, bad, tt.field)
		}
	}
}
